#pragma once
// Measures how responsive the GUI thread is, without adding work of its own: the event dispatcher
// says when the loop wakes (awake) and when it is about to wait again (aboutToBlock); the time in
// between is one turn of the event loop, during which no input is handled and nothing repaints.
// The longest turn is the longest stall. Its wall time includes time the OS gave to other threads
// (the trainer's); the GUI thread's CPU time within the turn is the part of its own making.
//
// A ticking timer would measure the same, but on a 2-core machine its wake-ups (200 a second at
// 5 ms) preempt the trainer's BLAS threads and cost training ~10 % (bench/streaming_benchmark.sh).
#include <QElapsedTimer>
#include <QMetaObject>
#include <QObject>

namespace ascope {

class StallMonitor : public QObject {
  Q_OBJECT

 public:
  explicit StallMonitor(QObject* parent = nullptr);

  /// Starts measuring the event loop of the calling thread (the GUI thread).
  void start();
  void stop();
  bool isRunning() const { return running_; }

  /// Longest event-loop turn in milliseconds, wall clock.
  double longestStallMs() const { return longest_ms_; }
  /// The GUI thread's CPU time during its longest-running turn, in milliseconds.
  double longestBusyMs() const { return longest_busy_ms_; }
  long long turns() const { return turns_; }
  /// CPU time of the GUI thread over wall time while running: its share of one core (0..1), i.e.
  /// at most what the GUI can take away from training.
  double busyShare() const;

 private:
  void awake();
  void aboutToBlock();

  bool running_ = false;
  bool in_turn_ = false;
  QMetaObject::Connection awake_connection_, block_connection_;
  QElapsedTimer clock_;
  qint64 turn_start_ns_ = 0;
  qint64 turn_start_cpu_ns_ = 0;
  qint64 start_cpu_ns_ = 0;
  qint64 stop_ns_ = 0;
  qint64 stop_cpu_ns_ = 0;
  double longest_ms_ = 0;
  double longest_busy_ms_ = 0;
  long long turns_ = 0;
};

}  // namespace ascope
