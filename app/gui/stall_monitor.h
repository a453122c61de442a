#pragma once
// Measures how responsive the GUI thread is: a 5 ms precise timer records the longest gap between
// its ticks. A gap much longer than 5 ms means the event loop did not turn for that long, either
// because the GUI thread was busy (our stall) or because the OS ran other threads (the trainer's,
// other processes). The CPU time the GUI thread used within the gap tells the two apart.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace ascope {

class StallMonitor : public QObject {
  Q_OBJECT

 public:
  static constexpr int kTickMs = 5;

  explicit StallMonitor(QObject* parent = nullptr);

  void start();
  void stop();
  bool isRunning() const { return timer_.isActive(); }

  /// Longest time between two ticks, in milliseconds (≥ kTickMs once running).
  double longestGapMs() const { return longest_ms_; }
  /// Most CPU time the GUI thread used between two ticks: the longest stall of its own making.
  double longestBusyMs() const { return longest_busy_ms_; }
  long long ticks() const { return ticks_; }
  /// CPU time of the GUI thread over wall time while running: its share of one core (0..1), i.e.
  /// at most what the GUI can take away from training.
  double busyShare() const;

 private:
  void tick();

  QTimer timer_;
  QElapsedTimer clock_;
  qint64 last_ns_ = 0;
  qint64 last_cpu_ns_ = 0;
  qint64 start_cpu_ns_ = 0;
  double longest_ms_ = 0;
  double longest_busy_ms_ = 0;
  long long ticks_ = 0;
};

}  // namespace ascope
