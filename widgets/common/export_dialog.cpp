#include "widgets/common/export_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ascope {

ExportDialog::ExportDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Export figure"));
  format_ = new QComboBox(this);
  format_->addItem(tr("PNG image"), static_cast<int>(ImageFormat::Png));
  format_->addItem(tr("PDF document (vector)"), static_cast<int>(ImageFormat::Pdf));
  format_->addItem(tr("SVG drawing (vector)"), static_cast<int>(ImageFormat::Svg));
  text_size_ = new QComboBox(this);
  text_size_->setObjectName(QStringLiteral("exportTextSize"));
  text_size_->addItem(tr("Slide, large text (a lecture hall)"), 0);
  text_size_->addItem(tr("Slide, screen-size text"), 1);
  text_size_->addItem(tr("Custom size"), 2);
  text_size_->setToolTip(
      tr("Both slides are 16:9 and 2560 x 1440 pixels as PNG; the first lays the figure out "
         "smaller, so its text is 1.6 times larger"));
  width_ = new QSpinBox(this);
  width_->setRange(16, 20000);
  width_->setSuffix(tr(" px"));
  height_ = new QSpinBox(this);
  height_->setRange(16, 20000);
  height_->setSuffix(tr(" px"));
  scale_ = new QDoubleSpinBox(this);
  scale_->setRange(0.25, 8.0);
  scale_->setSingleStep(0.5);
  scale_->setDecimals(2);
  scale_->setToolTip(tr("Multiplies the PNG resolution; text and lines grow with it"));
  summary_ = new QLabel(this);
  summary_->setForegroundRole(QPalette::PlaceholderText);

  auto* form = new QFormLayout;
  form->addRow(tr("Format:"), format_);
  form->addRow(tr("Text:"), text_size_);
  form->addRow(tr("Width:"), width_);
  form->addRow(tr("Height:"), height_);
  form->addRow(tr("Scale:"), scale_);
  form->addRow(QString(), summary_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(format_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateSummary);
  connect(text_size_, &QComboBox::activated, this, [this](int index) {
    const ExportSize size = index == 0 ? ExportSize::forSlides() : ExportSize{};
    if (index == 2) return;
    const QSignalBlocker block_w(width_), block_h(height_), block_s(scale_);
    width_->setValue(size.width);
    height_->setValue(size.height);
    scale_->setValue(size.scale);
    updateSummary();
  });
  connect(width_, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
  connect(height_, &QSpinBox::valueChanged, this, &ExportDialog::updateSummary);
  connect(scale_, &QDoubleSpinBox::valueChanged, this, &ExportDialog::updateSummary);
  setChoice(Choice{});
}

void ExportDialog::setChoice(const Choice& choice) {
  format_->setCurrentIndex(format_->findData(static_cast<int>(choice.format)));
  width_->setValue(choice.size.width);
  height_->setValue(choice.size.height);
  scale_->setValue(choice.size.scale);
  updateSummary();
}

ExportDialog::Choice ExportDialog::choice() const {
  Choice c;
  c.format = static_cast<ImageFormat>(format_->currentData().toInt());
  c.size.width = width_->value();
  c.size.height = height_->value();
  c.size.scale = c.format == ImageFormat::Png ? scale_->value() : 1.0;
  return c;
}

void ExportDialog::updateSummary() {
  const Choice c = choice();
  ExportSize png = c.size;
  png.scale = scale_->value();
  text_size_->setCurrentIndex(png == ExportSize::forSlides() ? 0 : png == ExportSize{} ? 1 : 2);
  scale_->setEnabled(c.format == ImageFormat::Png);
  if (c.format == ImageFormat::Png)
    summary_->setText(tr("Image of %1 x %2 pixels")
                          .arg(qRound(c.size.width * c.size.scale))
                          .arg(qRound(c.size.height * c.size.scale)));
  else
    summary_->setText(
        tr("Laid out for %1 x %2 px, scales without loss").arg(c.size.width).arg(c.size.height));
}

std::optional<ExportDialog::Choice> ExportDialog::ask(QWidget* parent, const Choice& initial) {
  ExportDialog dialog(parent);
  dialog.setChoice(initial);
  if (dialog.exec() != QDialog::Accepted) return std::nullopt;
  return dialog.choice();
}

}  // namespace ascope
