#pragma once

#include "widgets/common/exportable.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace ascope {

/// Asks for the format and size of an exported figure: a slide with large text for a lecture
/// hall (the default), a slide with screen-size text, or any size.
class ExportDialog : public QDialog {
  Q_OBJECT

 public:
  struct Choice {
    ImageFormat format = ImageFormat::Png;
    ExportSize size = ExportSize::forSlides();
  };

  explicit ExportDialog(QWidget* parent = nullptr);

  void setChoice(const Choice& choice);
  Choice choice() const;

  /// Runs the dialog; nullopt when cancelled.
  static std::optional<Choice> ask(QWidget* parent, const Choice& initial);

 private:
  void updateSummary();

  QComboBox* format_ = nullptr;
  QComboBox* text_size_ = nullptr;  ///< the presets; "custom" once a size is edited
  QSpinBox* width_ = nullptr;
  QSpinBox* height_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  QLabel* summary_ = nullptr;
};

}  // namespace ascope
