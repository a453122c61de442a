#pragma once

#include "widgets/common/exportable.h"
#include "widgets/decoding/decoding_transcript.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace ascope {

class AttentionRowStrip;
class NextTokenCandidatesPlot;
class ThemedPlot;

/// Greedy decoding of a translation replayed one token at a time, for explaining it to a class:
/// at step i the decoder is fed target token i and predicts the next one. Shows the output so far
/// with the token being produced highlighted, "fed ‹x› → predicts ‹y›", the decoder self-attention
/// row i (later tokens masked, greyed), the cross-attention row i over the source, and the top-k
/// next-token probabilities with the chosen one highlighted. Left/Right/Home/End step through it.
class DecodingStepView : public QWidget, public Exportable {
  Q_OBJECT

 public:
  /// Head index that stands for the mean over all heads of the layer.
  static constexpr int kAverageHeads = DecodingTranscript::kAverageHeads;

  explicit DecodingStepView(QWidget* parent = nullptr);

  /// Reads the "decoder self" and "cross" groups and `decoding`. Keeps the current step and head
  /// when the new snapshot still has them, so a lecturer's place survives a new probe step.
  void setSnapshot(SharedPlotData data);
  /// A snapshot made here (tests): it becomes the shared one.
  void setSnapshot(AttentionPlotData data);
  void clear();
  bool hasDecoding() const { return stepCount() > 0; }

  /// Whose attention rows are shown: `head` of `layer`, or kAverageHeads. Out-of-range values are
  /// clamped. Defaults to the last layer, head 0.
  void setHead(int layer, int head);
  int layer() const { return layer_; }
  int head() const { return head_; }

  int step() const { return step_; }
  void setStep(int step);
  int stepCount() const { return transcript_.stepCount(); }

  /// Token fed to the decoder at `step` and the token it predicted there.
  QString fedToken(int step) const { return transcript_.fedToken(step); }
  QString predictedToken(int step) const { return transcript_.predictedToken(step); }
  /// The caption as plain text, e.g. "fed <sos> → predicts le".
  QString captionText() const;

  ThemedPlot* selfAttentionPlot() const;
  ThemedPlot* crossAttentionPlot() const;
  ThemedPlot* candidatesPlot() const;

  QString exportBaseName() const override { return QStringLiteral("decoding_steps"); }
  /// The whole view, laid out at the asked size.
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// One row per step: step, fed token, predicted token, then the top-k token/probability pairs.
  ExportResult exportCsv(const QString& path) const override;

 public Q_SLOTS:
  void next() { setStep(step_ + 1); }
  void previous() { setStep(step_ - 1); }
  void toStart() { setStep(0); }
  void toEnd() { setStep(stepCount() - 1); }

 Q_SIGNALS:
  void stepChanged(int step);

 protected:
  void keyPressEvent(QKeyEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rebuildHeadChoices();
  void render();
  void renderText();
  void renderStrips();
  void renderCandidates();
  void updateButtons();
  void showContextMenu(const QPoint& global_pos);

  DecodingTranscript transcript_;
  int step_ = 0;
  int layer_ = 0;
  int head_ = 0;
  bool head_chosen_ = false;  // the user picked a head; stop following "last layer" defaults

  QStackedWidget* stack_ = nullptr;
  QPushButton* start_button_ = nullptr;
  QPushButton* prev_button_ = nullptr;
  QPushButton* next_button_ = nullptr;
  QPushButton* end_button_ = nullptr;
  QComboBox* layer_box_ = nullptr;
  QComboBox* head_box_ = nullptr;
  QLabel* sentence_label_ = nullptr;
  QLabel* step_label_ = nullptr;
  QLabel* caption_label_ = nullptr;
  AttentionRowStrip* self_plot_ = nullptr;
  AttentionRowStrip* cross_plot_ = nullptr;
  NextTokenCandidatesPlot* candidates_plot_ = nullptr;
};

}  // namespace ascope
