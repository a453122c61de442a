#include "app/gui/views/sample/probe_sample_dialog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

#include "app/gui/views/sample/rgb_image_conversion.h"
#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {
namespace {

constexpr int kThumbnailPx = 48;
constexpr int kTextChars = 160;

QString caption(const SamplePrediction& s) {
  QString text = QString::fromStdString(s.input).simplified();
  if (text.size() > kTextChars) text = text.left(kTextChars - 1) + QStringLiteral("…");
  const QString label = QString::fromStdString(s.expected);
  if (text.isEmpty()) return QStringLiteral("%1 · %2").arg(s.sample_index).arg(label);
  return QStringLiteral("%1 · %2 — %3").arg(s.sample_index).arg(label, text);
}

}  // namespace

ProbeSampleDialog::ProbeSampleDialog(const TrainingConfig& config, bool single, QWidget* parent)
    : QDialog(parent), config_(config), single_(single) {
  setWindowTitle(single ? tr("Probe sample") : tr("Probe samples"));
  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("probeSampleList"));
  list_->setIconSize(QSize(kThumbnailPx, kThumbnailPx));
  list_->setSelectionMode(single ? QAbstractItemView::SingleSelection
                                 : QAbstractItemView::NoSelection);
  list_->setWordWrap(true);
  status_ = new QLabel(tr("Reading the validation samples…"), this);
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);
  auto* hint = new QLabel(
      single ? tr("The chosen sample replaces the first of the probe set from the next probe on.")
             : tr("The checked samples are probed together: every attention view can switch "
                  "between them."),
      this);
  hint->setWordWrap(true);
  buttons_ = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(false);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(hint);
  layout->addWidget(list_, 1);
  layout->addWidget(status_);
  layout->addWidget(buttons_);
  resize(620, 520);

  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(list_, &QListWidget::itemChanged, this,
          [this] { buttons_->button(QDialogButtonBox::Ok)->setEnabled(!chosenIndices().empty()); });
  connect(list_, &QListWidget::itemSelectionChanged, this,
          [this] { buttons_->button(QDialogButtonBox::Ok)->setEnabled(!chosenIndices().empty()); });
  connect(&watcher_, &QFutureWatcher<Expected<ValidationSamples>>::finished, this,
          &ProbeSampleDialog::onLoaded);
  const TrainingConfig copy = config_;
  watcher_.setFuture(QtConcurrent::run([copy] { return readValidationSamples(copy, 0, kListed); }));
}

ProbeSampleDialog::~ProbeSampleDialog() {
  watcher_.waitForFinished();
}

void ProbeSampleDialog::onLoaded() {
  const Expected<ValidationSamples> result = watcher_.result();
  if (!result.ok()) {
    status_->setText(
        tr("Cannot read the validation samples: %1").arg(QString::fromStdString(result.error())));
    Q_EMIT loaded();
    return;
  }
  const QSignalBlocker block(list_);
  for (const SamplePrediction& sample : result->samples) {
    auto* item = new QListWidgetItem(caption(sample), list_);
    item->setData(Qt::UserRole, sample.sample_index);
    item->setToolTip(QString::fromStdString(sample.input).left(2000));
    const ImageBuffer* picture = inputOf(sample.payloads, {}).image;
    if (picture != nullptr && picture->width > 0) {
      const QImage image = toRgbImage(*picture).toQImage();
      item->setIcon(QPixmap::fromImage(
          image.scaled(kThumbnailPx, kThumbnailPx, Qt::KeepAspectRatio, Qt::FastTransformation)));
    }
    const bool probed = std::find(config_.probe_samples.begin(), config_.probe_samples.end(),
                                  sample.sample_index) != config_.probe_samples.end();
    if (single_) {
      item->setSelected(probed && sample.sample_index == config_.probe_samples.front());
    } else {
      item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
      item->setCheckState(probed ? Qt::Checked : Qt::Unchecked);
    }
  }
  status_->setText(
      tr("%1 of %2 validation samples.").arg(result->samples.size()).arg(result->total));
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(!chosenIndices().empty());
  Q_EMIT loaded();
}

std::vector<int> ProbeSampleDialog::chosenIndices() const {
  std::vector<int> chosen;
  for (int i = 0; i < list_->count(); ++i) {
    const QListWidgetItem* item = list_->item(i);
    const bool taken = single_ ? item->isSelected() : item->checkState() == Qt::Checked;
    if (taken) chosen.push_back(item->data(Qt::UserRole).toInt());
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

}  // namespace ascope
