#include "widgets/common/combo_tool_tip.h"

#include <QComboBox>
#include <QVariant>

namespace ascope {
namespace {

const char* const kDescription = "ascopeToolTipDescription";

void update(QComboBox* box) {
  const QString description = box->property(kDescription).toString();
  const QString text = box->currentText();
  box->setToolTip(text.isEmpty()          ? description
                  : description.isEmpty() ? text
                                          : text + QStringLiteral("\n\n") + description);
}

}  // namespace

void followCurrentTextInToolTip(QComboBox* box, const QString& description) {
  const bool following = box->property(kDescription).isValid();
  box->setProperty(kDescription, description);
  if (!following) {
    QObject::connect(box, &QComboBox::currentTextChanged, box, [box] { update(box); });
  }
  update(box);
}

void refreshCurrentTextToolTip(QComboBox* box) {
  if (box->property(kDescription).isValid()) update(box);
}

}  // namespace ascope
