#pragma once
// The editable settings of a run (schedule and main model sizes), as a form. It reads and writes
// a TrainingConfig and can mark the fields a validation message names.
#include <QHash>
#include <QString>
#include <QWidget>

#include <optional>

#include "engine/vocabulary/task_descriptor.h"
#include "engine/vocabulary/training_config.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ascope {

class HyperparameterForm : public QWidget {
  Q_OBJECT

 public:
  explicit HyperparameterForm(QWidget* parent = nullptr);

  /// Shows the values of `config` (its task decides which model fields apply).
  void setConfig(const TrainingConfig& config);
  /// Writes the form's values into `config`; returns a message naming the field when one cannot
  /// be read (e.g. a learning rate that is not a number), "" otherwise.
  QString applyTo(TrainingConfig& config) const;

  /// Marks every field whose config name appears as a word in `message` (e.g. "d_model (64) must be
  /// divisible by heads (3)" marks d_model and heads) and shows the message on them; an empty
  /// message clears all marks. Returns the marked fields' keys.
  QStringList highlightFieldsNamedIn(const QString& message);
  QStringList highlightedFields() const;
  /// The editor of a field by its key ("epochs", "max_steps", "batch_size", "lr", "schedule",
  /// "warmup_steps", "grad_clip", "seed", "layers", "heads", "d_model", "d_ff", "patch_size").
  QWidget* field(const QString& key) const { return fields_.value(key); }
  /// The keys of every field (for field()), in no particular order.
  QStringList fieldKeys() const { return fields_.keys(); }

  void setReadOnly(bool read_only);

  /// A pretrained model's own sizes instead of the task's model: shown, never edited and never
  /// written into a config (a fine-tune keeps the architecture it was given). nullopt: the task's
  /// own model again. `note` says where they come from (or why they cannot be read).
  void showPretrainedShape(const std::optional<ModelShape>& shape, const QString& note);
  bool showsPretrainedShape() const { return pretrained_shown_; }

 Q_SIGNALS:
  void edited();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void mark(QWidget* field, const QString& message);
  void showShape(const ModelShape& shape);
  QList<QWidget*> modelFields() const;

  QHash<QString, QWidget*> fields_;
  QHash<QString, QLabel*> labels_;
  QHash<QString, QStringList> aliases_;  // config names (from validate()) → field key
  QString message_;                      // the message the marks show
  bool read_only_ = false;
  bool pretrained_shown_ = false;
  /// The task's own model sizes of the config last set: shown again when a pretrained model's
  /// are taken away (an opened run after a fine-tune kept the fine-tune's).
  ModelShape own_shape_;
  QStringList shape_fields_;  ///< the model fields the task shows (TaskDescriptor::shape_fields)
  QLabel* model_title_ = nullptr;
  QSpinBox* epochs_ = nullptr;
  QSpinBox* max_steps_ = nullptr;
  QSpinBox* batch_size_ = nullptr;
  QLineEdit* lr_ = nullptr;
  QLineEdit* probes_ = nullptr;  // the probe set: "0, 1, 2, 3"
  QComboBox* schedule_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QDoubleSpinBox* grad_clip_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QSpinBox* layers_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QSpinBox* d_model_ = nullptr;
  QSpinBox* d_ff_ = nullptr;
  QSpinBox* patch_ = nullptr;
};

}  // namespace ascope
