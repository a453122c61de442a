#pragma once
// "Try it": type a text (or pick an image, for tasks that read images) and ask the newest
// checkpoint of the shown run. The image is read and decoded, and the model loaded and run, on a
// worker thread (QtConcurrent); the GUI thread only formats the answer.
#include <QFutureWatcher>
#include <QWidget>

#include <functional>
#include <optional>

#include "engine/vocabulary/events.h"
#include "widgets/attention/attention_plot_data.h"
#include "widgets/attention/minimal_pair_view.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ascope {

class CurrentRun;
struct InferenceAnswer;
struct InferenceRequest;

class TryItBox : public QWidget {
  Q_OBJECT

 public:
  /// Asks the checkpoints of `run` (the box is disabled while it has no folder).
  explicit TryItBox(const CurrentRun* run, QWidget* parent = nullptr);
  ~TryItBox() override;

  /// Before any run is shown: the task whose kind of input the box asks for.
  void setPendingTask(const QString& task);

  /// Asks the model about `text` (text tasks) or the image file at `path` (image tasks). A text
  /// "A | B" is a minimal pair: both are asked, and compared head by head (pairExamined).
  void askText(const QString& text);
  void askImage(const QString& path);
  bool isBusy() const { return watcher_.isRunning(); }

  QLineEdit* input() const { return input_; }
  /// Translation: the beam width asked with the sentence (1: greedy).
  QSpinBox* beamBox() const { return beam_; }
  QLabel* answerLabel() const { return answer_; }
  /// The text (a pair's first input) or image file last asked; the other one is "".
  const QString& askedText() const { return asked_text_; }
  const QString& askedImage() const { return asked_image_; }

 Q_SIGNALS:
  /// The answer (or the reason there is none) is shown.
  void answered(const QString& text, bool ok);
  /// The asked input's own attention (every kind, layer and head) and the input as a sample, to
  /// put under the scope; `caption` names the input and the answer.
  void inputExamined(const AttentionPlotData& attention, const SamplePrediction& sample,
                     const QString& caption);
  /// A minimal pair was asked: after inputExamined (with A), both inputs' attention lined up.
  void pairExamined(const MinimalPairPlotData& pair);

 public:
  struct Reply {
    QString text;  ///< rich text for the answer label
    bool ok = false;
    /// Converted on the worker: a 512-token, 144-head answer is a large copy.
    std::optional<AttentionPlotData> attention;
    SamplePrediction sample;
    QString caption;
    std::optional<MinimalPairPlotData> pair;  ///< a minimal pair's comparison
  };

 private:
  /// Worker-thread jobs: nothing that opens a file or runs the model runs on the GUI thread.
  static Reply askJob(const InferenceRequest& request, const QString& image_name = {});
  static Reply pairJob(const InferenceRequest& request, const std::string& text_b);
  /// The box's reply to an answer (its text, the attention to put under the scope).
  static Reply replyOf(const InferenceAnswer& answer, const InferenceRequest& request,
                       const QString& image_name);
  static Reply imageJob(InferenceRequest request, const QString& path, int side);
  void start(const std::function<Reply()>& job);
  void onFinished();
  void chooseImage();
  /// Shows the input the run's (or the pending) task takes; enabled once the run has a folder.
  void refresh();
  /// Side of the square image the shown run's model reads; 0 for text tasks.
  int imageSide() const;

  const CurrentRun* run_;
  QString pending_task_;
  QFutureWatcher<Reply> watcher_;
  QLineEdit* input_ = nullptr;
  QPushButton* ask_ = nullptr;
  QPushButton* image_button_ = nullptr;
  QSpinBox* beam_ = nullptr;
  QLabel* answer_ = nullptr;
  QString asked_text_;
  QString asked_image_;
};

}  // namespace ascope
