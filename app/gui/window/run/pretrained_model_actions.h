#pragma once
// File → Get pretrained model…, and the Run dock's model choice kept in step with the models
// folder: the models downloaded earlier (by the GUI or `attentionscope-cli download-model`) are
// offered at start, a model fetched now is offered and chosen.
#include <QObject>
#include <QString>

class QAction;
class QWidget;

namespace ascope {

class RunPresenter;

class PretrainedModelActions : public QObject {
  Q_OBJECT

 public:
  /// `models_dir` empty: GetPretrainedModelDialog::modelsFolder(). `window` parents the dialog.
  PretrainedModelActions(RunPresenter* run_panel, QWidget* window, const QString& models_dir = {});

  QAction* getModelAction() const { return get_model_; }
  /// Offers every complete model of the models folder in the Run dock's model choice.
  void offerDownloadedModels();
  /// Opens the dialog (non-modal); `endpoint` empty: the hub.
  void openDialog(const QString& endpoint = {});

 Q_SIGNALS:
  void message(const QString& text);

 private:
  RunPresenter* run_panel_;
  QWidget* window_;
  QString models_dir_;
  QAction* get_model_ = nullptr;
};

}  // namespace ascope
