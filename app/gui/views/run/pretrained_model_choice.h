#pragma once
// The Run dock's model choice: the task's own model trained from scratch, or a pretrained Hugging
// Face model folder to fine-tune (TrainingConfig::pretrained, as `train --model FOLDER`): the
// downloaded ones ("Get pretrained model…" adds them), any folder chosen on disk. Only tasks whose
// descriptor fine-tunes pretrained models offer more than their own model.
#include <QComboBox>

namespace ascope {

struct TaskDescriptor;

class PretrainedModelChoice : public QComboBox {
  Q_OBJECT

 public:
  explicit PretrainedModelChoice(QWidget* parent = nullptr);

  /// Offers `folder` under `label` without choosing it (nothing when it is offered already).
  void addModel(const QString& label, const QString& folder);
  /// Chooses `folder` (offered first when new) where the task can fine-tune; "" chooses the
  /// task's own model. modelChosen() follows.
  void chooseFolder(const QString& folder);
  /// The chosen model folder; "" for the task's own model.
  QString folder() const;
  /// Follows the chosen task: a task that cannot fine-tune keeps its own model and the box is
  /// disabled with a tooltip saying why.
  void setTask(const TaskDescriptor* task);
  /// The folders offered, in order (tests).
  QStringList offeredFolders() const;

 Q_SIGNALS:
  void modelChosen();

 private:
  void onActivated(int index);

  bool task_fine_tunes_ = false;
};

}  // namespace ascope
