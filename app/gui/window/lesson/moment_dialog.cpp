#include "app/gui/window/lesson/moment_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace ascope {

MomentDialog::MomentDialog(const LessonMoment& moment, const QString& where, QWidget* parent)
    : QDialog(parent), moment_(moment) {
  setWindowTitle(tr("Add a moment to the lesson"));
  question_ = new QLineEdit(QString::fromStdString(moment.question), this);
  question_->setObjectName(QStringLiteral("momentQuestion"));
  question_->setMaxLength(2000);  // what a lesson file takes (lesson_file.cpp)
  question_->setPlaceholderText(tr("What does “it” attend to?"));
  view_ = new QComboBox(this);
  view_->setObjectName(QStringLiteral("momentView"));
  for (const std::string& view : kLessonViews) view_->addItem(QString::fromStdString(view));
  view_->setCurrentText(QString::fromStdString(moment.view));
  hidden_ = new QCheckBox(tr("Hidden until the class has guessed"), this);
  hidden_->setObjectName(QStringLiteral("momentHidden"));
  hidden_->setChecked(moment.hidden);
  auto* where_label = new QLabel(where, this);
  where_label->setWordWrap(true);
  where_label->setTextFormat(Qt::PlainText);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  auto* form = new QFormLayout(this);
  form->addRow(where_label);
  form->addRow(tr("Question:"), question_);
  form->addRow(tr("View:"), view_);
  form->addRow(hidden_);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

LessonMoment MomentDialog::moment() const {
  LessonMoment moment = moment_;
  moment.question = question_->text().trimmed().toStdString();
  moment.view = view_->currentText().toStdString();
  moment.hidden = hidden_->isChecked();
  return moment;
}

}  // namespace ascope
