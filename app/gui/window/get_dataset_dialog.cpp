#include "app/gui/window/get_dataset_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include "app/gui/window/dataset_fetch_job.h"

namespace ascope {
namespace {

QString bytesText(qint64 bytes) {
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

}  // namespace

GetDatasetDialog::GetDatasetDialog(DatasetCatalog catalog, const QString& task,
                                   const QString& data_dir, QWidget* parent)
    : QDialog(parent),
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
  details_ = new QLabel(this);
  details_->setTextFormat(Qt::RichText);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setWordWrap(true);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("downloadStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Close, this);
  download_ = buttons_->addButton(tr("Download"), QDialogButtonBox::ActionRole);
  download_->setDefault(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Dataset"), task_box_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(details_);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addStretch(1);
  layout->addWidget(buttons_);
  setMinimumWidth(560);

  connect(task_box_, &QComboBox::currentIndexChanged, this, &GetDatasetDialog::showEntry);
  connect(download_, &QPushButton::clicked, this, [this] {
    if (job_->isRunning()) {
      job_->cancel();
    } else {
      startFetch();
    }
  });
  connect(buttons_, &QDialogButtonBox::rejected, this, &GetDatasetDialog::reject);
  connect(job_, &DatasetFetchJob::progress, this, &GetDatasetDialog::onProgress);
  connect(job_, &DatasetFetchJob::stageChanged, this, [this](const QString& stage) {
    status_->setText(stage + QStringLiteral("…"));
    if (stage != tr("Downloading")) progress_->setRange(0, 0);  // busy: no byte count
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
    details_->setText(tr("The dataset catalog is empty."));
    download_->setEnabled(false);
    return;
  }
  const CatalogEntry& entry = current();
  const QString url = QString::fromStdString(entry.url).toHtmlEscaped();
  QString size = tr("unknown size");
  if (entry.size) size = bytesText(*entry.size);
  const QString checksum =
      entry.sha256.empty() ? tr("not pinned (the computed one is shown)") : tr("SHA-256 checked");
  details_->setText(
      tr("<p>From <a href=\"%1\">%1</a><br>%2, %3<br>Into <tt>%4</tt></p>")
          .arg(url, size, checksum,
               QDir(data_dir_).filePath(QString::fromStdString(entry.folder)).toHtmlEscaped()));
  const QString present = presentFolder(entry, data_dir_);
  status_->setText(present.isEmpty() ? tr("Not downloaded yet. An interrupted download resumes.")
                                     : tr("Already downloaded."));
  progress_->setRange(0, 1000);
  progress_->setValue(present.isEmpty() ? 0 : 1000);
  download_->setText(present.isEmpty() ? tr("Download") : tr("Use it"));
  download_->setEnabled(true);
}

void GetDatasetDialog::startFetch() {
  const CatalogEntry& entry = current();
  if (!QDir().mkpath(data_dir_)) {
    status_->setText(tr("Cannot create the folder %1.").arg(data_dir_));
    return;
  }
  if (!job_->start(entry, data_dir_)) return;
  task_box_->setEnabled(false);
  download_->setText(tr("Cancel"));
  progress_->setRange(0, 1000);
  status_->setText(tr("Connecting…"));
}

void GetDatasetDialog::onProgress(qint64 done, qint64 total, double bytes_per_s) {
  if (total <= 0 && current().size) total = *current().size;
  if (total > 0) {
    progress_->setRange(0, 1000);
    progress_->setValue(
        static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
    status_->setText(
        tr("Downloading… %1 of %2 at %3/s")
            .arg(bytesText(done), bytesText(total), bytesText(static_cast<qint64>(bytes_per_s))));
  } else {
    progress_->setRange(0, 0);
    status_->setText(tr("Downloading… %1 at %2/s")
                         .arg(bytesText(done), bytesText(static_cast<qint64>(bytes_per_s))));
  }
}

void GetDatasetDialog::onFinished(bool ok, const QString& folder, const QString& error,
                                  const QStringList& warnings) {
  task_box_->setEnabled(true);
  progress_->setRange(0, 1000);
  if (!ok) {
    progress_->setValue(0);
    status_->setText(tr("Failed: %1").arg(error));
    download_->setText(tr("Retry"));
    return;
  }
  progress_->setValue(1000);
  QString text = tr("Ready in %1.").arg(folder);
  for (const QString& warning : warnings) text += QStringLiteral("\n") + warning;
  status_->setText(text);
  download_->setText(tr("Use it"));
  Q_EMIT datasetReady(QString::fromStdString(current().task), folder);
}

void GetDatasetDialog::reject() {
  job_->cancel();  // the destructor joins; the .part file stays for a later resume
  QDialog::reject();
}

}  // namespace ascope
