#pragma once
// File → Export attention video…: one head, one layer's grid of heads or the ViT CLS overlay,
// through every stored snapshot of a run, as an animated GIF or an MP4 with a "step N" caption
// per frame. Snapshots are read and converted on a worker; frames are drawn on the GUI thread by
// off-screen plots (widgets are GUI-thread objects), one per event-loop turn, so the window stays
// responsive; each frame is encoded on a single worker thread in order while the next is drawn.
// The video is written under a temporary name next to the target and renamed over it once
// complete, so a cancelled or failed export leaves no partial file (and an older video intact).
#include <QElapsedTimer>
#include <QFont>
#include <QFutureWatcher>
#include <QObject>
#include <QPalette>
#include <QSize>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <vector>

#include "app/gui/views/attention/attention_aggregates.h"
#include "widgets/attention/attention_color_scale.h"
#include "widgets/attention/attention_frame_renderer.h"
#include "widgets/attention/attention_plot_data.h"
#include "widgets/attention/attention_run_maxima.h"

namespace ascope {

struct AttentionVideoRequest {
  QString path;  ///< .gif or .mp4
  AttentionFrameView view = AttentionFrameView::Head;
  QString group;  ///< attention group by name, e.g. "encoder self"; "" = the snapshot's first
  int layer = 0;
  int head = 0;  ///< ignored by LayerGrid
  int fps = 4;
  /// Even (H.264), 16:9 like the figure exports; text stays readable on a projector.
  QSize size{960, 540};
  int probe_index = 0;  ///< which sample of each stored probe set
  /// Run (default): 0 .. the largest weight of the layer in the whole video, so brighter means
  /// more weight from frame to frame.
  AttentionColorScale scale = AttentionColorScale::Run;
  AggregateSettings aggregates;  ///< for aggregate groups ("… · rollout")
  QString run_name;              ///< in the caption
  QFont font;
  QPalette palette;
};

struct AttentionVideoResult {
  QString error;             ///< for a person; empty on success
  bool bad_request = false;  ///< the error is about a requested value (layer, head, path…)
  bool cancelled = false;
  int frames = 0;   ///< frames written: the snapshots used
  int skipped = 0;  ///< snapshot files that could not be read (named in `warnings`)
  QStringList warnings;
  QSize size;
  int fps = 0;
  qint64 bytes = 0;
  double seconds = 0;  ///< from start to the renamed file
  bool ok() const { return error.isEmpty() && !cancelled; }
};

class AttentionVideoExport : public QObject {
  Q_OBJECT

 public:
  explicit AttentionVideoExport(QObject* parent = nullptr);
  /// Cancels an export under way and waits for its workers.
  ~AttentionVideoExport() override;

  /// What can be told without the run: format from the extension, frame rate, size, and that the
  /// target's folder exists and is writable. Empty when fine.
  static QString checkRequest(const AttentionVideoRequest& request);
  /// Removes the hidden partial videos (".NAME.partial-PID-N.gif") that exports of processes no
  /// longer alive (killed mid-export) left in `folder`; returns how many. start() sweeps the
  /// target's folder, and the window the last export folder at start-up.
  static int removeStalePartialFiles(const QString& folder);

  /// Exports the snapshots of the run folder `run_dir`; finished() follows, also on failure.
  void start(const QString& run_dir, AttentionVideoRequest request);
  /// The export ends as soon as the frame being encoded is done; nothing is left behind.
  void cancel();
  bool isRunning() const { return running_; }
  /// start() and wait for finished(), running the event loop (frames are drawn on this thread):
  /// scripted mode and tests.
  AttentionVideoResult run(const QString& run_dir, AttentionVideoRequest request);

 Q_SIGNALS:
  /// `done` of `total` frames encoded (total is 0 while the snapshots are being read).
  void progress(int done, int total);
  void finished(const AttentionVideoResult& result);

 public:
  /// One snapshot as the video needs it: the chosen group with only the chosen layer kept.
  struct Frame {
    long long step = 0;
    /// layers = {the chosen layer}, of it only the chosen head unless the view is LayerGrid
    AttentionPlotGroup group;
    PatchImageContext image;
  };
  struct Loaded {
    std::vector<Frame> frames;
    /// Each kept head's largest informative weight over all frames (the window's Run scale).
    AttentionRunMaxima run_max;
    QString error;
    bool bad_request = false;
    QStringList warnings;
  };
  /// Encoder state shared with the worker tasks; see the .cpp.
  struct Encoding;

 private:
  void onLoaded();
  void renderNext();
  void finishEncoding();
  void onEncoded();
  void finish(AttentionVideoResult result);
  QString frameTitle(const Frame& frame) const;

  AttentionVideoRequest request_;
  bool running_ = false;
  std::shared_ptr<std::atomic<bool>> cancelled_;
  QFutureWatcher<Loaded> load_watcher_;
  Loaded loaded_;
  std::size_t next_frame_ = 0;
  int reported_ = 0;  ///< frames encoded as last told by progress()
  std::unique_ptr<AttentionFrameRenderer> renderer_;
  std::shared_ptr<Encoding> encoding_;
  QThreadPool encoder_pool_;  ///< one thread: frames are encoded in order
  QFutureWatcher<AttentionVideoResult> encode_watcher_;
  QTimer render_timer_;
  QElapsedTimer clock_;
};

}  // namespace ascope
