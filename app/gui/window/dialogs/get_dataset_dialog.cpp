#include "app/gui/window/dialogs/get_dataset_dialog.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>

#include "app/gui/window/jobs/dataset_fetch_job.h"

namespace ascope {

GetDatasetDialog::GetDatasetDialog(DatasetCatalog catalog, const QString& task,
                                   const QString& data_dir, QWidget* parent)
    : FetchDialog(QStringLiteral("downloadStatus"), parent),
      catalog_(std::move(catalog)),
      data_dir_(data_dir.isEmpty() ? datasetsFolder() : data_dir) {
  setWindowTitle(tr("Get dataset"));
  job_ = new DatasetFetchJob(this);

  task_box_ = new QComboBox(this);
  for (const CatalogEntry& entry : catalog_.entries()) {
    task_box_->addItem(QString::fromStdString(entry.name), QString::fromStdString(entry.task));
  }
  const int index = task_box_->findData(task);
  if (index >= 0) task_box_->setCurrentIndex(index);
  addChooser(tr("Dataset"), task_box_);
  details()->setTextFormat(Qt::RichText);

  connect(task_box_, &QComboBox::currentIndexChanged, this, &GetDatasetDialog::showEntry);
  watch(job_);
  connect(job_, &DatasetFetchJob::progress, this, &GetDatasetDialog::onProgress);
  connect(job_, &DatasetFetchJob::stageChanged, this, [this](const QString& stage) {
    statusLabel()->setText(stage + QStringLiteral("…"));
    if (stage != tr("Downloading")) progressBar()->setRange(0, 0);  // busy: no byte count
  });
  connect(job_, &DatasetFetchJob::finished, this, &GetDatasetDialog::onFinished);
  showEntry();
}

QString GetDatasetDialog::datasetsFolder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
      .filePath(QStringLiteral("attentionscope/datasets"));
}

QString GetDatasetDialog::presentFolder(const CatalogEntry& entry, const QString& data_dir) {
  const QDir folder(QDir(data_dir).filePath(QString::fromStdString(entry.folder)));
  if (!folder.exists()) return {};
  for (const std::string& path : entry.expect) {
    if (!QFileInfo::exists(folder.filePath(QString::fromStdString(path)))) return {};
  }
  return folder.absolutePath();
}

const CatalogEntry& GetDatasetDialog::current() const {
  const int index = std::max(0, task_box_->currentIndex());
  return catalog_.entries().at(static_cast<std::size_t>(index));
}

void GetDatasetDialog::showEntry() {
  if (catalog_.entries().empty()) {
    details()->setText(tr("The dataset catalog is empty."));
    downloadButton()->setEnabled(false);
    return;
  }
  const CatalogEntry& entry = current();
  const QString url = QString::fromStdString(entry.url).toHtmlEscaped();
  QString size = tr("unknown size");
  if (entry.size) size = bytesText(*entry.size);
  const QString checksum =
      entry.sha256.empty() ? tr("not pinned (the computed one is shown)") : tr("SHA-256 checked");
  details()->setText(
      tr("<p>From <a href=\"%1\">%1</a><br>%2, %3<br>Into <tt>%4</tt></p>")
          .arg(url, size, checksum,
               QDir(data_dir_).filePath(QString::fromStdString(entry.folder)).toHtmlEscaped()));
  showPresence(!presentFolder(entry, data_dir_).isEmpty());
}

void GetDatasetDialog::startFetch() {
  const CatalogEntry& entry = current();
  if (!QDir().mkpath(data_dir_)) {
    statusLabel()->setText(tr("Cannot create the folder %1.").arg(data_dir_));
    return;
  }
  if (!job_->start(entry, data_dir_)) return;
  showStarted();
}

void GetDatasetDialog::onProgress(qint64 done, qint64 total, double bytes_per_s) {
  if (total <= 0 && current().size) total = *current().size;
  showProgress(tr("Downloading…"), done, total, bytes_per_s);
}

void GetDatasetDialog::onFinished(bool ok, const QString& folder, const QString& error,
                                  const QStringList& warnings) {
  showFinished(ok, tr("Ready in %1.").arg(folder), error, warnings);
  if (ok) Q_EMIT datasetReady(QString::fromStdString(current().task), folder);
}

}  // namespace ascope
