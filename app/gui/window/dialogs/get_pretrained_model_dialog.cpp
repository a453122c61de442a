#include "app/gui/window/dialogs/get_pretrained_model_dialog.h"

#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>

#include "app/gui/window/jobs/model_fetch_job.h"
#include "engine/download/models/model_downloader.h"
#include "engine/download/models/model_id.h"

namespace ascope {

GetPretrainedModelDialog::GetPretrainedModelDialog(const QString& models_dir,
                                                   const QString& endpoint, QWidget* parent)
    : FetchDialog(QStringLiteral("modelDownloadStatus"), parent),
      models_dir_(models_dir.isEmpty() ? modelsFolder() : models_dir) {
  setWindowTitle(tr("Get pretrained model"));
  job_ = new ModelFetchJob(endpoint, this);

  id_box_ = new QComboBox(this);
  id_box_->setObjectName(QStringLiteral("modelIdBox"));
  id_box_->setEditable(true);
  id_box_->setInsertPolicy(QComboBox::NoInsert);
  // The two the tasks fine-tune; any other owner/name of the hub may be typed.
  id_box_->addItems(
      {QStringLiteral("bert-base-uncased"), QStringLiteral("google/vit-base-patch16-224")});
  id_box_->lineEdit()->setPlaceholderText(tr("owner/name on huggingface.co"));
  addChooser(tr("Model id"), id_box_);
  statusLabel()->setTextFormat(Qt::PlainText);

  connect(id_box_, &QComboBox::currentTextChanged, this, &GetPretrainedModelDialog::showId);
  watch(job_);
  connect(job_, &ModelFetchJob::fileStarted, this, [this](const QString& file, qint64 size) {
    file_ = file;
    progressBar()->setRange(0, 1000);
    progressBar()->setValue(0);
    statusLabel()->setText(size >= 0 ? tr("Downloading %1 (%2)…").arg(file, bytesText(size))
                                     : tr("Downloading %1…").arg(file));
  });
  connect(job_, &ModelFetchJob::progress, this, &GetPretrainedModelDialog::onProgress);
  connect(job_, &ModelFetchJob::finished, this, &GetPretrainedModelDialog::onFinished);
  showId();
}

QString GetPretrainedModelDialog::modelsFolder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation))
      .filePath(QStringLiteral("attentionscope/models"));
}

std::vector<std::pair<QString, QString>> GetPretrainedModelDialog::downloadedModels(
    const QString& models_dir) {
  std::vector<std::pair<QString, QString>> models;
  const QDir dir(models_dir);
  for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
    if (name.endsWith(QLatin1String(".part"))) continue;  // a download in progress
    const QString folder = dir.absoluteFilePath(name);
    if (!ModelDownloader::holdsModel(folder.toStdString())) continue;
    // folderName() turned "/" into "--", which an id cannot hold: the way back is unambiguous.
    QString label = name;
    label.replace(QLatin1String("--"), QLatin1String("/"));
    models.emplace_back(label, folder);
  }
  return models;
}

QString GetPretrainedModelDialog::folderOf(const QString& id, QString* error) const {
  const Expected<ModelId> parsed = ModelId::parse(id.trimmed().toStdString());
  if (!parsed.ok()) {
    if (error != nullptr) *error = QString::fromStdString(parsed.error());
    return {};
  }
  return QDir(models_dir_).filePath(QString::fromStdString(parsed->folderName()));
}

void GetPretrainedModelDialog::showId() {
  if (job_->isRunning()) return;
  QString error;
  const QString id = id_box_->currentText().trimmed();
  const QString folder = folderOf(id, &error);
  if (folder.isEmpty()) {
    details()->setText(id.isEmpty() ? tr("Type a model id, e.g. bert-base-uncased.") : error);
    statusLabel()->clear();
    progressBar()->setRange(0, 1000);
    progressBar()->setValue(0);
    downloadButton()->setText(tr("Download"));
    downloadButton()->setEnabled(false);
    return;
  }
  details()->setText(tr("From huggingface.co/%1: config.json, the tokenizer or preprocessor "
                        "files and the weights (model.safetensors).\nInto %2")
                         .arg(id, QDir::toNativeSeparators(folder)));
  showPresence(ModelDownloader::holdsModel(folder.toStdString()));
}

void GetPretrainedModelDialog::startFetch() {
  QString error;
  const QString id = id_box_->currentText().trimmed();
  const QString folder = folderOf(id, &error);
  if (folder.isEmpty()) {
    statusLabel()->setText(error);
    return;
  }
  if (!QDir().mkpath(models_dir_)) {
    statusLabel()->setText(tr("Cannot create the folder %1.").arg(models_dir_));
    return;
  }
  if (!job_->start(id, folder)) return;
  showStarted();
  progressBar()->setValue(0);
}

void GetPretrainedModelDialog::onProgress(qint64 done, qint64 total, double bytes_per_s) {
  showProgress(tr("Downloading %1…").arg(file_), done, total, bytes_per_s);
}

void GetPretrainedModelDialog::onFinished(bool ok, const QString& folder, const QString& model_type,
                                          const QString& error, const QStringList& warnings) {
  showFinished(ok,
               model_type.isEmpty() ? tr("Ready in %1.").arg(folder)
                                    : tr("Ready in %1 (%2).").arg(folder, model_type),
               error, warnings);
  if (ok) Q_EMIT modelReady(id_box_->currentText().trimmed(), folder);
}

}  // namespace ascope
