#include "app/gui/views/run/pretrained_model_choice.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

#include "engine/vocabulary/task_descriptor.h"
#include "widgets/common/combo_tool_tip.h"

namespace ascope {
namespace {

const char* const kChooseModelFolder = "::folder";

bool isModelFolder(const QString& data) {
  return !data.isEmpty() && data != QLatin1String(kChooseModelFolder);
}

}  // namespace

PretrainedModelChoice::PretrainedModelChoice(QWidget* parent) : QComboBox(parent) {
  setObjectName(QStringLiteral("modelBox"));
  addItem(tr("Own model (from scratch)"), QString());
  insertSeparator(1);
  addItem(tr("Choose model folder…"), QString::fromLatin1(kChooseModelFolder));
  setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  setMinimumContentsLength(12);
  connect(this, &QComboBox::activated, this, &PretrainedModelChoice::onActivated);
}

void PretrainedModelChoice::addModel(const QString& label, const QString& folder) {
  const QString path = QDir(folder).absolutePath();
  if (findData(path) >= 0) return;
  // Between "own model" and the separator, newest first.
  insertItem(1, label, path);
  setItemData(1, QDir::toNativeSeparators(path), Qt::ToolTipRole);
}

void PretrainedModelChoice::chooseFolder(const QString& folder) {
  const QString path = folder.isEmpty() ? QString() : QDir(folder).absolutePath();
  if (!path.isEmpty() && findData(path) < 0) addModel(QFileInfo(path).fileName(), path);
  // A task that cannot fine-tune keeps its own model; the folder waits in the list.
  setCurrentIndex(path.isEmpty() || !task_fine_tunes_ ? 0 : findData(path));
  Q_EMIT modelChosen();
}

QString PretrainedModelChoice::folder() const {
  const QString data = currentData().toString();
  return task_fine_tunes_ && isModelFolder(data) ? data : QString();
}

void PretrainedModelChoice::setTask(const TaskDescriptor* task) {
  task_fine_tunes_ = task != nullptr && task->fine_tunes_pretrained;
  if (!task_fine_tunes_) setCurrentIndex(0);
  followCurrentTextInToolTip(
      this, task_fine_tunes_
                ? tr("The task's own model from scratch, or a pretrained Hugging Face model "
                     "folder to fine-tune (File → Get pretrained model…)")
                : tr("This task trains its own model only"));
}

QStringList PretrainedModelChoice::offeredFolders() const {
  QStringList folders;
  for (int i = 0; i < count(); ++i) {
    const QString data = itemData(i).toString();
    if (isModelFolder(data)) folders << data;
  }
  return folders;
}

void PretrainedModelChoice::onActivated(int index) {
  if (!task_fine_tunes_) {
    setCurrentIndex(0);  // the tooltip says why
    Q_EMIT modelChosen();
    return;
  }
  if (itemData(index).toString() == QLatin1String(kChooseModelFolder)) {
    const QString path = QFileDialog::getExistingDirectory(
        this, tr("Pretrained model folder (config.json, model.safetensors, tokenizer files)"));
    chooseFolder(path);
  }
  Q_EMIT modelChosen();
}

}  // namespace ascope
