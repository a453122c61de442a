#pragma once

#include "widgets/samples/sample_prediction.h"

#include <QWidget>

namespace ascope {

/// An answer under its reference, one cell per character: matches plain, substitutions red,
/// characters left out orange with a gap below, characters added blue with a gap above, and the
/// edit distance they add up to. Cells wrap onto further rows when the view is narrow.
class TextAlignmentView : public QWidget {
  Q_OBJECT

 public:
  explicit TextAlignmentView(QWidget* parent = nullptr);

  void setAlignment(const AlignmentPrediction& alignment);
  const AlignmentPrediction& alignment() const { return alignment_; }
  /// Columns that are not matches.
  int distance() const;

  QSize sizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  int cellWidth() const;
  int columnsPerRow(int width) const;

  AlignmentPrediction alignment_;
};

}  // namespace ascope
