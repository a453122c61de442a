#include "app/gui/window/dialogs/fetch_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/gui/bridge/worker_job.h"

namespace ascope {

FetchDialog::FetchDialog(const QString& status_name, QWidget* parent) : QDialog(parent) {
  details_ = new QLabel(this);
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(false);
  status_ = new QLabel(this);
  status_->setObjectName(status_name);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  buttons_ = new QDialogButtonBox(QDialogButtonBox::Close, this);
  download_ = buttons_->addButton(tr("Download"), QDialogButtonBox::ActionRole);
  download_->setDefault(true);

  form_ = new QFormLayout;
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form_);
  layout->addWidget(details_);
  layout->addWidget(progress_);
  layout->addWidget(status_);
  layout->addStretch(1);
  layout->addWidget(buttons_);
  setMinimumWidth(560);

  connect(buttons_, &QDialogButtonBox::rejected, this, &FetchDialog::reject);
}

QString FetchDialog::bytesText(qint64 bytes) {
  return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat);
}

void FetchDialog::addChooser(const QString& label, QWidget* chooser) {
  chooser_ = chooser;
  form_->addRow(label, chooser);
}

void FetchDialog::watch(WorkerJob* job) {
  job_ = job;
  connect(download_, &QPushButton::clicked, this, [this] {
    if (job_->isRunning()) {
      job_->cancel();
    } else {
      startFetch();
    }
  });
}

void FetchDialog::showPresence(bool present) {
  status_->setText(present ? tr("Already downloaded.")
                           : tr("Not downloaded yet. An interrupted download resumes."));
  progress_->setRange(0, 1000);
  progress_->setValue(present ? 1000 : 0);
  download_->setText(present ? tr("Use it") : tr("Download"));
  download_->setEnabled(true);
}

void FetchDialog::showStarted() {
  if (chooser_ != nullptr) chooser_->setEnabled(false);
  download_->setText(tr("Cancel"));
  progress_->setRange(0, 1000);
  status_->setText(tr("Connecting…"));
}

void FetchDialog::showProgress(const QString& downloading, qint64 done, qint64 total,
                               double bytes_per_s) {
  const QString rate = bytesText(static_cast<qint64>(bytes_per_s));
  if (total > 0) {
    progress_->setRange(0, 1000);
    progress_->setValue(
        static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
    status_->setText(
        tr("%1 %2 of %3 at %4/s").arg(downloading, bytesText(done), bytesText(total), rate));
  } else {
    progress_->setRange(0, 0);
    status_->setText(tr("%1 %2 at %3/s").arg(downloading, bytesText(done), rate));
  }
}

void FetchDialog::showFinished(bool ok, const QString& ready, const QString& error,
                               const QStringList& warnings) {
  if (chooser_ != nullptr) chooser_->setEnabled(true);
  progress_->setRange(0, 1000);
  if (!ok) {
    progress_->setValue(0);
    status_->setText(tr("Failed: %1").arg(error));
    download_->setText(tr("Retry"));
    return;
  }
  progress_->setValue(1000);
  QString text = ready;
  for (const QString& warning : warnings) text += QStringLiteral("\n") + warning;
  status_->setText(text);
  download_->setText(tr("Use it"));
}

void FetchDialog::reject() {
  // The job's destructor joins; the partial download stays for a later resume.
  if (job_ != nullptr) job_->cancel();
  QDialog::reject();
}

}  // namespace ascope
