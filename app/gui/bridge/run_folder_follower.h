#pragma once
// A run folder that another process is still writing (a CLI run, rank 0 of a job on a server, a
// folder shared over the network), followed from the GUI: every kPollIntervalMs a worker of the
// global thread pool polls its RunFolderTail (engine/runfolder/run_folder_tail.h: only the bytes
// appended since, never a write into the folder) and the news comes back to the GUI thread as a
// queued call. One poll at a time: a slow file system makes the polls rarer, never the GUI thread
// wait. When the writer lets go of the folder (its .lock), the last news and writerEnded follow
// and the polling stops.
#include <QObject>
#include <QTimer>

#include <memory>

#include "engine/core/run_folder_lock.h"
#include "engine/runfolder/run_folder_tail.h"

namespace ascope {

class RunFolderFollower : public QObject {
  Q_OBJECT

 public:
  static constexpr int kPollIntervalMs = 1000;

  explicit RunFolderFollower(QObject* parent = nullptr);
  ~RunFolderFollower() override;

  /// Follows the folder of `tail` (made before the folder was read, started after what was read)
  /// until its writer ends or stop() is called; replaces any folder followed before.
  void follow(std::shared_ptr<RunFolderTail> tail);
  /// Stops at once; a poll still running is left to finish, and its news is dropped.
  void stop();
  bool isFollowing() const { return tail_ != nullptr; }

 Q_SIGNALS:
  /// What the folder gained (GUI thread).
  void newsArrived(const RunFolderNews& news);
  /// The writer let go of the folder (kNone) or died holding it (kAbandoned); nothing more comes.
  void writerEnded(const RunFolderWriterState& state);
  /// The folder itself was deleted or moved away; nothing more comes.
  void folderGone();

 private:
  void poll();
  /// Back on the GUI thread with the news of poll number `generation`.
  void onPolled(int generation, const RunFolderNews& news);

  QTimer timer_;
  std::shared_ptr<RunFolderTail> tail_;  ///< used by one poll at a time, then by none
  bool polling_ = false;
  int generation_ = 0;  ///< bumped by follow() and stop(): late news of an old folder is dropped
};

}  // namespace ascope
