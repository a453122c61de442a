#pragma once
// "Get dataset…": fetches a task's real dataset (catalog in resources/datasets.json) into the
// per-user data folder, with progress, cancel and resume, and hands the folder to the Run panel.
// The same folder as `attentionscope-cli download` uses, so either finds what the other got.
#include "app/gui/window/dialogs/fetch_dialog.h"
#include "engine/download/dataset_catalog.h"

class QComboBox;

namespace ascope {

class DatasetFetchJob;

class GetDatasetDialog : public FetchDialog {
  Q_OBJECT

 public:
  /// `task` is preselected; `data_dir` empty means datasetsFolder().
  GetDatasetDialog(DatasetCatalog catalog, const QString& task, const QString& data_dir = {},
                   QWidget* parent = nullptr);

  /// <GenericDataLocation>/attentionscope/datasets, i.e. ~/.local/share/attentionscope/datasets.
  static QString datasetsFolder();
  /// The folder of `entry` under `data_dir` when it is there already (every expected path
  /// present), else an empty string.
  static QString presentFolder(const CatalogEntry& entry, const QString& data_dir);

 Q_SIGNALS:
  /// The dataset of `task` is complete in `folder`.
  void datasetReady(const QString& task, const QString& folder);

 private:
  const CatalogEntry& current() const;
  void showEntry();
  void startFetch() override;
  void onProgress(qint64 done, qint64 total, double bytes_per_s);
  void onFinished(bool ok, const QString& folder, const QString& error,
                  const QStringList& warnings);

  DatasetCatalog catalog_;
  QString data_dir_;
  DatasetFetchJob* job_ = nullptr;
  QComboBox* task_box_ = nullptr;
};

}  // namespace ascope
