#pragma once

#include "widgets/common/exportable.h"
#include "widgets/samples/sample_prediction.h"

#include <QWidget>

class QLabel;
class QStackedWidget;
class QTextBrowser;

namespace ascope {

class PixelImageView;
class TextAlignmentView;

/// The probe sample and what the model currently makes of it: an image with true and predicted
/// class, a review with its label, a translation with the words that differ from the reference
/// highlighted, or an answer lined up character by character against the expected one. Right
/// answers are green, wrong ones red.
class SamplePanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  enum class Mode { Empty, Image, Text, Translation, Alignment };

  explicit SamplePanel(QWidget* parent = nullptr);

  void setImagePrediction(const ImagePrediction& prediction);
  void setTextPrediction(const TextPrediction& prediction);
  void setTranslation(const TranslationPrediction& translation);
  void setAlignment(const AlignmentPrediction& alignment);
  void clear();

  Mode mode() const { return mode_; }
  /// Whether the prediction matches the true label (image and text modes).
  bool isCorrect() const;

  PixelImageView* imageView() const { return image_view_; }
  QLabel* verdictLabel() const;
  QTextBrowser* textView() const { return text_view_; }
  QTextBrowser* translationView() const { return translation_view_; }
  TextAlignmentView* alignmentView() const { return alignment_view_; }

  QString exportBaseName() const override { return QStringLiteral("sample"); }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void render();
  QString verdictHtml(const QString& true_label, const QString& predicted, float probability) const;
  QString translationHtml() const;
  void showContextMenu(const QPoint& global_pos);

  Mode mode_ = Mode::Empty;
  ImagePrediction image_;
  TextPrediction text_;
  TranslationPrediction translation_;
  AlignmentPrediction alignment_;

  QStackedWidget* stack_ = nullptr;
  PixelImageView* image_view_ = nullptr;
  QLabel* image_verdict_ = nullptr;
  QLabel* text_verdict_ = nullptr;
  QTextBrowser* text_view_ = nullptr;
  QTextBrowser* translation_view_ = nullptr;
  QLabel* alignment_input_ = nullptr;
  TextAlignmentView* alignment_view_ = nullptr;
};

}  // namespace ascope
