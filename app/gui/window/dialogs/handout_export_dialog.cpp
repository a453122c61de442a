#include "app/gui/window/dialogs/handout_export_dialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "engine/handout/handout_writer.h"

namespace ascope {

HandoutExportDialog::HandoutExportDialog(const QString& path, double max_mb, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Export for students"));
  path_ = new QLineEdit(path, this);
  path_->setObjectName(QStringLiteral("handoutPath"));
  path_->setMinimumWidth(380);
  auto* choose = new QPushButton(tr("Choose…"), this);
  auto* path_row = new QHBoxLayout;
  path_row->addWidget(path_, 1);
  path_row->addWidget(choose);
  size_ = new QDoubleSpinBox(this);
  size_->setObjectName(QStringLiteral("handoutMaxMb"));
  size_->setRange(kMinHandoutMaxMb, kMaxHandoutMaxMb);
  size_->setDecimals(1);
  size_->setSuffix(tr(" MB"));
  size_->setValue(max_mb);
  size_->setToolTip(
      tr("Over this size, snapshots are thinned evenly, then probe samples, middle "
         "layers and groups are left out; the page says which"));
  auto* form = new QFormLayout;
  form->addRow(tr("HTML file"), path_row);
  form->addRow(tr("At most"), size_);
  auto* note = new QLabel(
      tr("<small>One page with the run's curves, timeline, every probe sample's attention, head "
         "statistics, ablation, positional encodings and settings. It opens offline in any "
         "browser and fetches nothing. The same file as <tt>attentionscope-cli handout</tt>."
         "</small>"),
      this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(choose, &QPushButton::clicked, this, [this] {
    const QString chosen = QFileDialog::getSaveFileName(this, tr("Handout for students"),
                                                        path_->text(), tr("Web page (*.html)"));
    if (!chosen.isEmpty()) path_->setText(chosen);
  });
}

QString HandoutExportDialog::path() const {
  QString p = path_->text().trimmed();
  if (!p.isEmpty() && !p.endsWith(QStringLiteral(".html"), Qt::CaseInsensitive) &&
      !p.endsWith(QStringLiteral(".htm"), Qt::CaseInsensitive)) {
    p += QStringLiteral(".html");
  }
  return p;
}

double HandoutExportDialog::maxMb() const {
  return size_->value();
}

}  // namespace ascope
