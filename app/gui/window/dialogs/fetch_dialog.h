#pragma once
// What "Get dataset…" and "Get pretrained model…" share: a chooser row, a details line, a progress
// bar and a status line over Close and one action button that reads Download, Cancel, Retry or
// Use it as the fetch goes. The subclass picks what to fetch and starts its WorkerJob; this class
// shows the job's progress, lets Download cancel a running fetch and cancels it when closed.
#include <QDialog>
#include <QString>
#include <QStringList>

class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QProgressBar;
class QPushButton;

namespace ascope {

class WorkerJob;

class FetchDialog : public QDialog {
  Q_OBJECT

 public:
  QPushButton* downloadButton() const { return download_; }
  QLabel* statusLabel() const { return status_; }
  QProgressBar* progressBar() const { return progress_; }

  /// "1.5 MB", as the status line writes sizes and rates.
  static QString bytesText(qint64 bytes);

 protected:
  /// `status_name`: the status label's objectName.
  FetchDialog(const QString& status_name, QWidget* parent);

  /// Adds `chooser` (what to fetch) as the first row; it is disabled while a fetch runs.
  void addChooser(const QString& label, QWidget* chooser);
  /// The Download button starts startFetch() or, while `job` runs, cancels it; so does closing.
  void watch(WorkerJob* job);
  virtual void startFetch() = 0;

  QLabel* details() const { return details_; }

  /// Whether what is chosen is there already: the status, the bar and the button say so.
  void showPresence(bool present);
  /// A fetch was started.
  void showStarted();
  /// `downloading` ("Downloading…", "Downloading config.json…") then the bytes and rate.
  void showProgress(const QString& downloading, qint64 done, qint64 total, double bytes_per_s);
  /// The job finished: "Failed: `error`", or `ready` followed by one line per warning.
  void showFinished(bool ok, const QString& ready, const QString& error,
                    const QStringList& warnings);

  void reject() override;

 private:
  WorkerJob* job_ = nullptr;
  QWidget* chooser_ = nullptr;
  QFormLayout* form_ = nullptr;
  QLabel* details_ = nullptr;
  QLabel* status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* download_ = nullptr;
  QDialogButtonBox* buttons_ = nullptr;
};

}  // namespace ascope
