#pragma once
// "Get pretrained model…": fetches a Hugging Face model (any owner/name: bert-base-uncased,
// google/vit-base-patch16-224, …) — config.json, the tokenizer or preprocessor files and the
// weights — into the per-user models folder, with progress, cancel and resume, on a worker
// thread, and hands the folder to the Run dock's model choice. The same downloader and folder
// names as `attentionscope-cli download-model`, so either finds what the other got.
#include <QString>

#include <utility>
#include <vector>

#include "app/gui/window/dialogs/fetch_dialog.h"

class QComboBox;

namespace ascope {

class ModelFetchJob;

class GetPretrainedModelDialog : public FetchDialog {
  Q_OBJECT

 public:
  /// `models_dir` empty means modelsFolder(); `endpoint` empty means the hub (or
  /// $ATTENTIONSCOPE_HF_ENDPOINT).
  explicit GetPretrainedModelDialog(const QString& models_dir = {}, const QString& endpoint = {},
                                    QWidget* parent = nullptr);

  /// <GenericDataLocation>/attentionscope/models, i.e. ~/.local/share/attentionscope/models (the
  /// CLI's default too).
  static QString modelsFolder();
  /// The models complete in `models_dir` as (label, folder): "google/vit-base-patch16-224" for
  /// the folder google--vit-base-patch16-224. Lists one folder; reads no file.
  static std::vector<std::pair<QString, QString>> downloadedModels(const QString& models_dir);

  QComboBox* idBox() const { return id_box_; }

 Q_SIGNALS:
  /// Model `id` is complete in `folder`.
  void modelReady(const QString& id, const QString& folder);

 private:
  /// The model folder of the id typed, or "" with a message when the id is not valid.
  QString folderOf(const QString& id, QString* error) const;
  void showId();
  void startFetch() override;
  void onProgress(qint64 done, qint64 total, double bytes_per_s);
  void onFinished(bool ok, const QString& folder, const QString& model_type, const QString& error,
                  const QStringList& warnings);

  QString models_dir_;
  QString file_;  // the file on its way
  ModelFetchJob* job_ = nullptr;
  QComboBox* id_box_ = nullptr;
};

}  // namespace ascope
