#pragma once
// "Try it": type a review or an English sentence (or pick an image for ViT) and ask the newest
// checkpoint of the current run. The model is loaded and run on a worker thread (QtConcurrent);
// the GUI thread only formats the answer.
#include <QFutureWatcher>
#include <QWidget>

#include <functional>

class QLabel;
class QLineEdit;
class QPushButton;

namespace ascope {

class TryItBox : public QWidget {
  Q_OBJECT

 public:
  explicit TryItBox(QWidget* parent = nullptr);
  ~TryItBox() override;

  /// The run to ask ("" disables the box); `image_size` is the ViT input side (0 for text tasks).
  void setRun(const QString& run_dir, const QString& task, int image_size);

  /// Asks the model about `text` (text tasks) or the image file at `path` (ViT).
  void askText(const QString& text);
  void askImage(const QString& path);
  bool isBusy() const { return watcher_.isRunning(); }

  QLineEdit* input() const { return input_; }
  QLabel* answerLabel() const { return answer_; }

 Q_SIGNALS:
  /// The answer (or the reason there is none) is shown.
  void answered(const QString& text, bool ok);

 private:
  struct Reply {
    QString text;  ///< rich text for the answer label
    bool ok = false;
  };
  void start(const std::function<Reply()>& job);
  void onFinished();
  void chooseImage();

  QString run_dir_;
  QString task_;
  int image_size_ = 0;
  QFutureWatcher<Reply> watcher_;
  QLineEdit* input_ = nullptr;
  QPushButton* ask_ = nullptr;
  QPushButton* image_button_ = nullptr;
  QLabel* answer_ = nullptr;
};

}  // namespace ascope
