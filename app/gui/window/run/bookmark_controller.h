#pragma once
// The shown run's bookmarks (a note on a step, RUN/bookmarks.json): read off the GUI thread
// whenever another run folder is shown, drawn as markers on the loss and accuracy curves, written
// back atomically off the GUI thread after each change. A click on a marker, or a bookmark chosen
// from the Timeline menu, moves the timeline (and with it every dock) to the bookmarked step.
#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

#include "engine/runfolder/bookmarks/bookmarks.h"
#include "engine/vocabulary/expected.h"

namespace ascope {

class AttentionPresenter;
class CurrentRun;
class CurvesPresenter;

class BookmarkController : public QObject {
  Q_OBJECT

 public:
  /// Marks the bookmarks on `curves`; a jump moves `attention`'s timeline.
  BookmarkController(CurvesPresenter* curves, AttentionPresenter* attention, const CurrentRun* run,
                     QObject* parent = nullptr);
  ~BookmarkController() override;

  /// Adds a note at `step` (replacing the note of a bookmark already there) and saves the file;
  /// returns a message for a person when there is nowhere to save it, else "".
  QString addBookmark(long long step, const QString& note);
  /// Removes the bookmark at `step` and saves the file.
  void removeBookmark(long long step);
  /// Shows the bookmark's step on the timeline.
  void jumpTo(long long step);

  const std::vector<Bookmark>& bookmarks() const { return bookmarks_; }
  /// The message of a bookmarks.json that could not be read ("" when it was fine).
  QString readError() const { return read_error_; }
  /// Blocks until pending reads and writes are done and handled (tests, scripted mode).
  void waitForIo();
  /// Runs `then` once no write of bookmarks.json is under way (at once when none is): resuming a
  /// run deletes half-written temp files in its folder, a bookmark's among them.
  void whenWritten(std::function<void()> then);

 Q_SIGNALS:
  void bookmarksChanged();
  /// A note for the status bar (a damaged file, a failed save).
  void message(const QString& text);

 private:
  struct ReadResult {
    QString folder;
    Expected<std::vector<Bookmark>> bookmarks{std::vector<Bookmark>{}};
  };
  struct WriteJob {
    QString folder;
    std::vector<Bookmark> bookmarks;
  };
  void onFolderChanged(const QString& folder);
  void startRead();
  void onRead();
  void save();
  void startWrite();
  void onSaved();
  void showMarkers();

  CurvesPresenter* curves_;
  AttentionPresenter* attention_;
  const CurrentRun* run_;
  QString folder_;  ///< the folder the bookmarks belong to
  std::vector<Bookmark> bookmarks_;
  QString read_error_;
  QFutureWatcher<ReadResult> read_watcher_;
  QFutureWatcher<QString> write_watcher_;
  bool reading_ = false;
  bool writing_ = false;
  /// Changed while a write was running: the newest state, written next (latest wins).
  std::optional<WriteJob> pending_write_;
  /// Another folder was shown while a write was running: read it once the write is done.
  bool read_after_write_ = false;
  std::vector<std::function<void()>> after_write_;  ///< whenWritten's, run once writes are done
};

}  // namespace ascope
