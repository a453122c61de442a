#pragma once
// "Evaluate on…": which data set and which of its splits the shown run is scored on, and how many
// of its worst errors are explained with their attention.
#include <QDialog>

#include "engine/evaluation/run_evaluation.h"

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace ascope {

class EvaluateDialog : public QDialog {
  Q_OBJECT

 public:
  /// Starts at `data` (the run's own data set) and its test split.
  EvaluateDialog(const QString& data, QWidget* parent = nullptr);

  /// The request as chosen; run_dir is left to the caller.
  EvaluationRequest request() const;

  QLineEdit* dataEdit() const { return data_; }
  QComboBox* splitBox() const { return split_; }
  QSpinBox* errorsBox() const { return errors_; }

 private:
  QLineEdit* data_ = nullptr;
  QComboBox* split_ = nullptr;
  QSpinBox* errors_ = nullptr;
};

}  // namespace ascope
