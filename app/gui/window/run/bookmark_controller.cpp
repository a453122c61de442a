#include "app/gui/window/run/bookmark_controller.h"

#include <spdlog/spdlog.h>
#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <utility>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"

namespace ascope {

BookmarkController::BookmarkController(CurvesPresenter* curves, AttentionPresenter* attention,
                                       const CurrentRun* run, QObject* parent)
    : QObject(parent), curves_(curves), attention_(attention), run_(run) {
  connect(curves_, &CurvesPresenter::bookmarkPicked, this, &BookmarkController::jumpTo);
  connect(run_, &CurrentRun::folderChanged, this, &BookmarkController::onFolderChanged);
  connect(&read_watcher_, &QFutureWatcher<ReadResult>::finished, this, &BookmarkController::onRead);
  connect(&write_watcher_, &QFutureWatcher<QString>::finished, this, &BookmarkController::onSaved);
}

BookmarkController::~BookmarkController() {
  read_watcher_.waitForFinished();
  write_watcher_.waitForFinished();
}

void BookmarkController::onFolderChanged(const QString& folder) {
  if (folder == folder_) return;
  folder_ = folder;
  bookmarks_.clear();
  read_error_.clear();
  showMarkers();
  if (folder.isEmpty()) return;
  // A continued run shows its folder again while its bookmarks may still be on their way to disk.
  if (writing_) {
    read_after_write_ = true;
    return;
  }
  startRead();
}

void BookmarkController::startRead() {
  read_watcher_.waitForFinished();  // a read of the previous folder: its result is dropped
  reading_ = true;
  read_watcher_.setFuture(QtConcurrent::run([folder = folder_] {
    ReadResult result;
    result.folder = folder;
    result.bookmarks = readBookmarks(folder.toStdString());
    return result;
  }));
}

void BookmarkController::onRead() {
  if (!reading_) return;
  reading_ = false;
  ReadResult result = read_watcher_.result();
  if (result.folder != folder_) return;
  if (!result.bookmarks.ok()) {
    // The run still opens; its bookmarks stay untouched on disk until the file is fixed.
    read_error_ = QString::fromStdString(result.bookmarks.error());
    spdlog::warn("bookmarks not shown: {}", result.bookmarks.error());
    Q_EMIT message(tr("Bookmarks not shown: %1").arg(read_error_));
    return;
  }
  // Bookmarks added while the file was being read come on top of the stored ones.
  std::vector<Bookmark> added = std::move(bookmarks_);
  bookmarks_ = std::move(*result.bookmarks);
  for (Bookmark& b : added) {
    bookmarks_.erase(std::remove_if(bookmarks_.begin(), bookmarks_.end(),
                                    [&b](const Bookmark& old) { return old.step == b.step; }),
                     bookmarks_.end());
    bookmarks_.push_back(std::move(b));
  }
  std::stable_sort(bookmarks_.begin(), bookmarks_.end(),
                   [](const Bookmark& a, const Bookmark& b) { return a.step < b.step; });
  showMarkers();
}

QString BookmarkController::addBookmark(long long step, const QString& note) {
  if (folder_.isEmpty()) return tr("There is no run folder to keep a bookmark in yet.");
  if (!read_error_.isEmpty()) {
    return tr("%1 could not be read; fix or remove it before adding bookmarks (%2)")
        .arg(QString::fromStdString(bookmarksPath(folder_.toStdString())), read_error_);
  }
  if (step < 0) return tr("Choose a step first (the timeline shows none).");
  const bool replaces = std::any_of(bookmarks_.begin(), bookmarks_.end(),
                                    [step](const Bookmark& b) { return b.step == step; });
  if (!replaces && bookmarks_.size() >= kMaxBookmarks)
    return tr("A run keeps at most %1 bookmarks; remove one first.").arg(kMaxBookmarks);
  bookmarks_.erase(std::remove_if(bookmarks_.begin(), bookmarks_.end(),
                                  [step](const Bookmark& b) { return b.step == step; }),
                   bookmarks_.end());
  bookmarks_.push_back({step, note.toStdString()});
  std::stable_sort(bookmarks_.begin(), bookmarks_.end(),
                   [](const Bookmark& a, const Bookmark& b) { return a.step < b.step; });
  showMarkers();
  save();
  return {};
}

void BookmarkController::removeBookmark(long long step) {
  const auto old_size = bookmarks_.size();
  bookmarks_.erase(std::remove_if(bookmarks_.begin(), bookmarks_.end(),
                                  [step](const Bookmark& b) { return b.step == step; }),
                   bookmarks_.end());
  if (bookmarks_.size() == old_size) return;
  showMarkers();
  save();
}

void BookmarkController::jumpTo(long long step) {
  attention_->showStep(step);
  // A run without a snapshot near the bookmark still shows the step on the curves.
  curves_->setCursor(step);
}

void BookmarkController::save() {
  pending_write_ = WriteJob{folder_, bookmarks_};
  if (!writing_) startWrite();
}

void BookmarkController::startWrite() {
  WriteJob job = std::move(*pending_write_);
  pending_write_.reset();
  writing_ = true;
  write_watcher_.setFuture(QtConcurrent::run([job = std::move(job)]() -> QString {
    const Status s = writeBookmarks(job.folder.toStdString(), job.bookmarks);
    return s.ok() ? QString() : QString::fromStdString(s.error());
  }));
}

void BookmarkController::onSaved() {
  writing_ = false;
  const QString error = write_watcher_.result();
  if (!error.isEmpty()) {
    spdlog::error("cannot save bookmarks: {}", error.toStdString());
    Q_EMIT message(tr("Bookmarks not saved: %1").arg(error));
  }
  if (pending_write_) {
    startWrite();
    return;
  }
  for (std::function<void()>& then : std::exchange(after_write_, {})) then();
  if (read_after_write_ && !writing_) {
    read_after_write_ = false;
    if (!folder_.isEmpty()) startRead();
  }
}

void BookmarkController::whenWritten(std::function<void()> then) {
  if (writing_) {
    after_write_.push_back(std::move(then));
  } else {
    then();
  }
}

void BookmarkController::showMarkers() {
  QVector<CurveMarker> markers;
  for (const Bookmark& b : bookmarks_) {
    markers.push_back({static_cast<double>(b.step), QString::fromStdString(b.note)});
  }
  curves_->setBookmarks(markers);
  Q_EMIT bookmarksChanged();
}

void BookmarkController::waitForIo() {
  while (reading_ || writing_) {
    read_watcher_.waitForFinished();
    write_watcher_.waitForFinished();
    QCoreApplication::processEvents();
  }
}

}  // namespace ascope
