#pragma once
// Command line of the desktop app. Without options it opens the window; with --task it preselects
// a task, and with --train-steps (or --quit) it trains at once: the scripted mode used for demos,
// screenshots and the end-to-end tests.
//   attentionscope --task vit --data builtin --preset tiny --train-steps 60
//                  --screenshot shot.png --size 1600x1000 --quit
//   attentionscope --open RUNDIR --screenshot shot.png --quit
//   attentionscope --open RUNDIR --step 40 --export-dir figures --quit
//   attentionscope --open RUNDIR --export-video head.gif --layer 0 --head 1 --fps 4 --quit
//   attentionscope --inspect-model FOLDER --text "the movie was great" --pair "it was"
//                  --screenshot model.png --size 1280x720 --quit
//   attentionscope --open RUNDIR --computation --layer 0 --head 1 --cell 3,1 --stage 2
//                  --screenshot qk.png --report qk.json --quit
#include <QSize>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

namespace ascope {

/// --size: from 320x240 to 8K (a larger window only grew the process until the kernel ended it).
inline constexpr QSize kMinWindowSize{320, 240};
inline constexpr QSize kMaxWindowSize{7680, 4320};
/// --timeout: at most about eleven days, so that its milliseconds fit a QTimer's int.
inline constexpr double kMaxTimeoutSeconds = 1e6;

struct AppOptions {
  QString task;  ///< a registered task id; "" = none chosen
  QString data = QStringLiteral("builtin");
  bool data_given = false;  ///< --data was on the command line (else --evaluate scores the run's)
  QString preset;           ///< "" = the task's default preset
  QString device;           ///< "" = the Run dock's default (CPU)
  /// A pretrained model folder to fine-tune (the Run dock's Model choice); the preset then
  /// defaults to the task's fine-tune preset.
  QString model;
  long long train_steps = 0;  ///< > 0: train this many steps at once (kWholeRun: the preset's)
  /// --train-steps all: the run as its preset has it (its epochs), not a step count.
  static constexpr long long kWholeRun = std::numeric_limits<long long>::max();
  QString out_dir;          ///< run folder for the scripted run ("" = runs/<date>_<task>)
  QString open_dir;         ///< run folder to open
  QString screenshot;       ///< PNG of the whole window once done
  QSize size{1600, 1000};   ///< window size
  QString export_dir;       ///< "Export all panels" into this folder once done
  QString report;           ///< JSON with the measured figures and the panels' state
  QString ask;              ///< "Try it" once done: a review or sentence, or an image path (ViT)
  int beam = 0;             ///< with ask, a translation run's beam width (0: the box's, greedy)
  bool words = false;       ///< attention between words, not subword pieces
  long long step = -1;      ///< >= 0: every dock shows the stored snapshot nearest this step
  QString group;            ///< "" or the attention group to show (e.g. "encoder self · rollout")
  int probe_sample = -1;    ///< >= 0: the sample of the probe set every dock shows
  QStringList raise_docks;  ///< dock titles to bring to the front before the screenshot
  int ablate_samples = 0;   ///< > 0: a head ablation on this many samples before finishing
  /// "" or the split ("test", "validation", "train", "all") of --data (when given, else of the
  /// shown run's own data) the Errors dock scores the run on before finishing (its confusion
  /// matrix and reliability diagram in the screenshot).
  QString evaluate_split;
  bool quit = false;           ///< exit once done (exit code 0 on success)
  bool dark = false;           ///< force a dark palette (screenshots of the dark theme)
  bool presentation = false;   ///< start in presentation mode (View → Presentation)
  int zoom = 0;                ///< font zoom steps (FontZoom: -3..8, 0 = none)
  bool high_contrast = false;  ///< View → High contrast
  double timeout_s = 1800;     ///< scripted mode gives up after this long (seconds, may be 0.5)
  /// The run's attention through its stored snapshots, as .gif or .mp4 (AttentionVideoExport):
  /// head `video_head` of layer `video_layer`, that layer's grid, or the CLS overlay.
  QString export_video;
  QString video_view = QStringLiteral("head");  ///< head, grid or overlay
  int video_layer = 0;
  int video_head = 0;
  int video_fps = 4;
  /// With --open: compare the opened run with this one; the screenshot shows the comparison.
  QString compare_dir;
  /// A pretrained model folder to inspect without training (File → Inspect pretrained model…):
  /// it reads `inspect_text` (and `inspect_pair`); the screenshot shows the model view's window.
  QString inspect_model;
  QString inspect_text;
  QString inspect_pair;
  QString inspect_image;  ///< with inspect_model: an image file instead of a text (a ViT)
  /// Show the Computation dock for the head on screen (--layer, --head), waiting for the
  /// worker's answer; `cell_query`/`cell_key` (>= 0) is the weight taken apart, `stage` (>= 0)
  /// the stage drawn (0 = the layer's input).
  bool computation = false;
  int cell_query = -1;
  int cell_key = -1;
  int stage = -1;
  /// A lesson file to open (Lesson → Open lesson…); `lesson_moment` (1-based) is played, then
  /// `lesson_tally` is entered into its prediction round and, with `lesson_reveal`, revealed.
  QString lesson;
  int lesson_moment = 1;
  QString lesson_tally;
  bool lesson_reveal = false;
  /// Builds a lesson from the window: once the run is shown as the other options say (--open,
  /// --step, --probe-sample, --ask, --group, --layer, --head), the moment on screen is added
  /// with this question to `lesson_out` (created when missing), hidden when `hide_query` >= -1
  /// (-1: the whole head, else that query's row), shown in `moment_view`.
  QString add_moment;
  QString lesson_out;
  int hide_query = -2;
  QString moment_view = QStringLiteral("attention");

  /// Scripted: something to do without a person (train, open, screenshot or quit).
  bool scripted() const {
    return train_steps > 0 || !open_dir.isEmpty() || !screenshot.isEmpty() || quit ||
           !inspect_model.isEmpty() || !lesson.isEmpty();
  }

  /// Parses `arguments` (argv as QStrings); on a usage error returns nullopt and sets `error`.
  /// --help and --version print their answer to stdout, set `answered` and return nullopt.
  static std::optional<AppOptions> parse(const QStringList& arguments, QString* error,
                                         bool* answered);
};

}  // namespace ascope
