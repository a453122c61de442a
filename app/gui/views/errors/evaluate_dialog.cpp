#include "app/gui/views/errors/evaluate_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace ascope {

EvaluateDialog::EvaluateDialog(const QString& data, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Evaluate on…"));
  data_ = new QLineEdit(data, this);
  data_->setObjectName(QStringLiteral("evaluateData"));
  data_->setMinimumWidth(360);
  auto* file = new QPushButton(tr("File…"), this);
  auto* folder = new QPushButton(tr("Folder…"), this);
  auto* data_row = new QHBoxLayout;
  data_row->addWidget(data_, 1);
  data_row->addWidget(file);
  data_row->addWidget(folder);
  split_ = new QComboBox(this);
  split_->setObjectName(QStringLiteral("evaluateSplit"));
  // The default: the run's own test split on its own data, every sample of any other data set.
  split_->addItem(tr("test of the run's data, else all of it"), QString());
  split_->addItem(tr("test"), QStringLiteral("test"));
  split_->addItem(tr("validation"), QStringLiteral("validation"));
  split_->addItem(tr("training"), QStringLiteral("train"));
  split_->addItem(tr("all of it (a held-out file)"), QStringLiteral("all"));
  split_->setToolTip(
      tr("Split as the run split its own data: the run's training data gives its "
         "own validation and test splits back, a data set with a test split of "
         "its own gives that one."));
  errors_ = new QSpinBox(this);
  errors_->setRange(0, 1000);
  errors_->setValue(10);
  errors_->setToolTip(tr("The most confidently wrong samples, explained with their attention"));
  auto* form = new QFormLayout;
  form->addRow(tr("Data set"), data_row);
  form->addRow(tr("Split"), split_);
  form->addRow(tr("Worst errors"), errors_);
  auto* note = new QLabel(tr("<small>The run's best weights (else its last) answer every sample "
                             "of the split, in the background; the Errors dock then shows the "
                             "figures, the confusion matrix and the samples.</small>"),
                          this);
  note->setWordWrap(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Evaluate"));
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(note);
  layout->addWidget(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(file, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Data set file"), data_->text());
    if (!path.isEmpty()) data_->setText(path);
  });
  connect(folder, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getExistingDirectory(this, tr("Data set folder"), data_->text());
    if (!path.isEmpty()) data_->setText(path);
  });
}

EvaluationRequest EvaluateDialog::request() const {
  EvaluationRequest r;
  r.data = data_->text().trimmed().toStdString();
  const QString split = split_->currentData().toString();
  r.whole_data = split == QStringLiteral("all");
  if (!split.isEmpty() && !r.whole_data) r.split = parseSplit(split.toStdString());
  r.errors = errors_->value();
  return r;
}

}  // namespace ascope
