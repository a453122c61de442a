#include "app/gui/bridge/run_folder_follower.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

namespace ascope {

RunFolderFollower::RunFolderFollower(QObject* parent) : QObject(parent) {
  timer_.setInterval(kPollIntervalMs);
  connect(&timer_, &QTimer::timeout, this, &RunFolderFollower::poll);
}

RunFolderFollower::~RunFolderFollower() = default;

void RunFolderFollower::follow(std::shared_ptr<RunFolderTail> tail) {
  stop();
  tail_ = std::move(tail);
  timer_.start();
}

void RunFolderFollower::stop() {
  timer_.stop();
  tail_.reset();
  polling_ = false;
  ++generation_;
}

void RunFolderFollower::poll() {
  if (polling_ || !tail_) return;  // the previous poll is still reading: this one is skipped
  polling_ = true;
  const int generation = generation_;
  // The job owns the tail with us: a folder given up (stop, a destroyed follower) while its poll
  // still reads is freed by the job. The news goes to the application's thread, the GUI thread,
  // where the guard tells whether the follower is still there.
  QThreadPool::globalInstance()->start(
      [tail = tail_, generation, self = QPointer<RunFolderFollower>(this)] {
        RunFolderNews news = tail->poll();
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, generation, news = std::move(news)] {
              if (self) self->onPolled(generation, news);
            },
            Qt::QueuedConnection);
      });
}

void RunFolderFollower::onPolled(int generation, const RunFolderNews& news) {
  if (generation != generation_) return;  // of a folder no longer followed
  polling_ = false;
  if (news.folder_gone) {
    stop();
    Q_EMIT folderGone();
    return;
  }
  if (news.any()) Q_EMIT newsArrived(news);
  if (news.writer.kind != RunFolderWriterState::Kind::kWriting) {
    stop();
    Q_EMIT writerEnded(news.writer);
  }
}

}  // namespace ascope
