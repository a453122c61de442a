// Times the attention panel at the sizes a lecture demo reaches: 64, 256 and 512 tokens, 12 layers
// x 12 heads of random softmax rows, the panel at 1280x720 (a 1080p projector at 150 %), offscreen.
// For each size it prints
//   first paint: setSnapshot + show + events until the panel has painted (grab()),
//   scrub:       setSnapshot with another snapshot of the same shape, repainted (mean / max),
//   layer:       the next layer chosen, repainted (mean / max),
//   head:        the next head enlarged, repainted (mean / max).
// Snapshot copies are made outside the timed part: the app moves each loaded snapshot in.
// QT_SCALE_FACTOR=1.5 renders at the projector's device pixel ratio.
#include "widgets/attention/attention_head_grid_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

using ascope::AttentionHeadGridPanel;
using ascope::AttentionPlotData;
using ascope::AttentionPlotGroup;
using ascope::LabeledMatrix;

namespace {

constexpr int kLayers = 12;
constexpr int kHeads = 12;
constexpr int kRepeats = 6;
const QSize kPanelSize(1280, 720);

AttentionPlotData randomSnapshot(int tokens, unsigned seed) {
  std::mt19937 rng(seed);
  // Peaked logits so rows look like trained attention (a few keys dominate), not uniform noise.
  std::normal_distribution<float> logit(0.0f, 2.0f);
  QStringList labels;
  for (int i = 0; i < tokens; ++i) labels << QStringLiteral("tok%1").arg(i);
  AttentionPlotGroup group;
  group.name = QStringLiteral("encoder self");
  for (int l = 0; l < kLayers; ++l) {
    std::vector<LabeledMatrix> heads;
    for (int h = 0; h < kHeads; ++h) {
      LabeledMatrix m(tokens, tokens);
      m.row_labels = labels;
      m.col_labels = labels;
      for (int r = 0; r < tokens; ++r) {
        float sum = 0.0f;
        for (int c = 0; c < tokens; ++c) sum += (m.at(r, c) = std::exp(logit(rng)));
        for (int c = 0; c < tokens; ++c) m.at(r, c) /= sum;
      }
      heads.push_back(std::move(m));
    }
    group.layers.push_back(std::move(heads));
  }
  AttentionPlotData data;
  data.step = seed;
  data.groups.push_back(std::move(group));
  return data;
}

/// Lets queued replots and layouts run, then paints the panel as the screen would.
void paint(AttentionHeadGridPanel& panel) {
  for (int i = 0; i < 3; ++i) QCoreApplication::processEvents();
  const QPixmap shot = panel.grab();
  (void)shot;
}

struct Timing {
  double mean_ms = 0.0;
  double max_ms = 0.0;
};

/// Runs `prepare` (untimed) and then `step` followed by a repaint (timed), kRepeats times.
Timing measure(AttentionHeadGridPanel& panel, const std::function<void(int)>& prepare,
               const std::function<void(int)>& step) {
  Timing t;
  for (int i = 0; i < kRepeats; ++i) {
    prepare(i);
    QElapsedTimer timer;
    timer.start();
    step(i);
    paint(panel);
    const double ms = timer.nsecsElapsed() / 1e6;
    t.mean_ms += ms / kRepeats;
    t.max_ms = std::max(t.max_ms, ms);
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);

  {
    // Fonts, styles and the paint engine load on first use; keep that out of the first row.
    AttentionHeadGridPanel warm_up;
    warm_up.resize(kPanelSize);
    warm_up.setSnapshot(randomSnapshot(8, 0));
    warm_up.show();
    paint(warm_up);
  }
  std::printf("attention panel, %d layers x %d heads, %dx%d at %.2fx, %d repeats (ms)\n", kLayers,
              kHeads, kPanelSize.width(), kPanelSize.height(), qApp->devicePixelRatio(), kRepeats);
  std::printf("%7s %12s %16s %16s %16s\n", "tokens", "first paint", "scrub mean/max",
              "layer mean/max", "head mean/max");
  for (int tokens : {64, 256, 512}) {
    const std::vector<AttentionPlotData> snapshots = {randomSnapshot(tokens, 1),
                                                      randomSnapshot(tokens, 2)};
    AttentionHeadGridPanel panel;
    panel.resize(kPanelSize);
    AttentionPlotData first = snapshots[0];
    QElapsedTimer timer;
    timer.start();
    panel.setSnapshot(std::move(first));
    panel.show();
    paint(panel);
    const double first_paint_ms = timer.nsecsElapsed() / 1e6;

    AttentionPlotData next;
    const Timing scrub = measure(
        panel, [&](int i) { next = snapshots[static_cast<size_t>((i + 1) % 2)]; },
        [&](int) { panel.setSnapshot(std::move(next)); });
    const Timing layer = measure(
        panel, [](int) {}, [&](int i) { panel.setCurrentLayer((i + 1) % kLayers); });
    const Timing head = measure(
        panel, [](int) {}, [&](int i) { panel.setCurrentHead((i + 1) % kHeads); });
    std::printf("%7d %12.1f %7.1f / %6.1f %7.1f / %6.1f %7.1f / %6.1f\n", tokens, first_paint_ms,
                scrub.mean_ms, scrub.max_ms, layer.mean_ms, layer.max_ms, head.mean_ms,
                head.max_ms);
    std::fflush(stdout);
  }
  return 0;
}
