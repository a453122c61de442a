#pragma once

#include "widgets/common/exportable.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ascope {

/// Asks for the format and size of an exported figure (default a 1280 x 720 slide, PNG at 2x).
class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  struct Choice {
    ImageFormat format = ImageFormat::Png;
    ExportSize size;
  };

  explicit ExportDialog(QWidget* parent = nullptr);

  void setChoice(const Choice& choice);
  Choice choice() const;

  /// Runs the dialog; nullopt when cancelled.
  static std::optional<Choice> ask(QWidget* parent, const Choice& initial);

 private:
  void updateSummary();

  QComboBox* format_ = nullptr;
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace ascope
