#pragma once
// File → Inspect pretrained model…: a pretrained Hugging Face model (BERT or ViT) reads a sentence,
// a sentence pair or an image without any training, as `attentionscope-cli inspect` does. The
// model is loaded and run on a worker thread (QtConcurrent, the engine's inspectPretrained); the
// answer's attention goes under the scope in the Attention dock, and the model view here shows
// every layer × head at once: a click on a thumbnail enlarges that head in the Attention dock.
#include <QFutureWatcher>
#include <QWidget>

#include <optional>

#include "app/gui/views/computation/asked_input.h"
#include "widgets/attention/attention_plot_data.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace ascope {

class AttentionModelView;
class AttentionPresenter;
class PretrainedModelChoice;
struct PretrainedInspectionRequest;

class PretrainedInspectionWindow : public QWidget {
  Q_OBJECT

 public:
  /// `attention` shows the enlarged heads; `offered` lists the downloaded models (the Run dock's
  /// model choice), may be null. A top-level window owned by `parent`.
  PretrainedInspectionWindow(AttentionPresenter* attention, const PretrainedModelChoice* offered,
                             QWidget* parent = nullptr);
  ~PretrainedInspectionWindow() override;

  /// Lists the downloaded models again and shows the window in front.
  void open();
  /// Makes `folder` the model asked (offered first when new).
  void setModelFolder(const QString& folder);
  QString modelFolder() const;

  /// Asks the chosen model about a sentence and an optional second one (BERT).
  void inspectText(const QString& text, const QString& pair = {});
  /// Asks the chosen model about an image file (ViT).
  void inspectImage(const QString& path);
  bool isBusy() const { return watcher_.isRunning(); }

  AttentionModelView* modelView() const { return model_view_; }
  QLabel* answerLabel() const { return answer_; }
  QLineEdit* textInput() const { return text_; }
  QLineEdit* pairInput() const { return pair_; }
  QComboBox* modelBox() const { return model_box_; }

 Q_SIGNALS:
  /// The answer (or the engine's reason there is none) is shown; `text` is plain text.
  void inspected(const QString& text, bool ok);
  /// The model's answer goes under the scope in the Attention dock: what was asked, of which model.
  void inputShown(const AskedInput& input);

 public:
  struct Reply {
    QString text;  ///< rich text for the answer label
    bool ok = false;
    /// Converted on the worker: a 512-token, 144-head answer is a large copy.
    std::optional<AttentionPlotData> attention;
    QString caption;
  };

 private:
  /// Worker-thread job: loads the folder's model and tokenizer and runs it once.
  static Reply inspectJob(const PretrainedInspectionRequest& request, const QString& input);
  void start(const PretrainedInspectionRequest& request, const QString& input);
  void onFinished();
  void chooseFolder();
  void chooseImage();
  void listOfferedModels();
  /// Shows `layer`/`head` of the model view's group enlarged in the Attention dock.
  void showHead(int layer, int head);

  AttentionPresenter* attention_;
  const PretrainedModelChoice* offered_;
  QFutureWatcher<Reply> watcher_;
  AskedInput asked_;  ///< of the request running or last answered
  QComboBox* model_box_ = nullptr;
  QLineEdit* text_ = nullptr;
  QLineEdit* pair_ = nullptr;
  QPushButton* inspect_ = nullptr;
  QPushButton* image_button_ = nullptr;
  QLabel* answer_ = nullptr;
  QLabel* tokens_ = nullptr;
  AttentionModelView* model_view_ = nullptr;
};

}  // namespace ascope
