#include "app/gui/window/run/timeline_links.h"

#include <spdlog/spdlog.h>

#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/decoding/decoding_presenter.h"
#include "app/gui/views/encoding/encoding_presenter.h"
#include "app/gui/views/sample/sample_presenter.h"
#include "app/gui/views/sample/try_it_box.h"
#include "app/gui/window/run/run_controller.h"
#include "widgets/attention/attention_head_grid_panel.h"

namespace ascope {

TimelineLinks::TimelineLinks(AttentionPresenter* timeline, CurvesPresenter* curves,
                             SamplePresenter* sample, EncodingPresenter* encoding,
                             DecodingPresenter* decoding, RunController* controller,
                             QObject* parent)
    : QObject(parent) {
  connect(
      timeline, &AttentionPresenter::stepShown, this,
      [controller, sample, encoding](long long step, const std::optional<SamplePrediction>& shown,
                                     const std::optional<PositionalEncodingSnapshot>& pe) {
        controller->followStep(step);
        sample->showStep(shown);
        encoding->showStep(pe);
      });
  // The probe set's samples arrive with the attention; the chooser picks the one shown.
  connect(
      timeline, &AttentionPresenter::liveShown, this,
      [controller, sample, encoding](long long step, const std::optional<SamplePrediction>& shown) {
        controller->followStep(step);
        sample->showLive(shown);
        encoding->showLive();
      });
  // Decoding follows what the Attention dock shows, with the head chosen there.
  connect(timeline, &AttentionPresenter::attentionShown, decoding,
          &DecodingPresenter::showAttention);
  connect(timeline->panel(), &AttentionHeadGridPanel::headSelected, decoding,
          [decoding](int, int layer, int head) { decoding->setHead(layer, head); });
  connect(timeline, &AttentionPresenter::askedShown, this, [sample](bool shown) {
    if (!shown) sample->leaveAsked();
  });
  connect(curves, &CurvesPresenter::stepPicked, timeline, &AttentionPresenter::showStep);
  connect(timeline, &AttentionPresenter::snapshotLeftOut, this, [](const QString& error) {
    spdlog::warn("attention snapshot left out: {}", error.toStdString());
  });
  connect(sample->tryIt(), &TryItBox::inputExamined, this,
          [timeline, sample](const AttentionPlotData& attention, const SamplePrediction& asked,
                             const QString& caption) {
            timeline->showAsked(attention, caption);
            sample->showAsked(asked);
          });
  connect(sample->tryIt(), &TryItBox::pairExamined, timeline, &AttentionPresenter::showPair);
}

}  // namespace ascope
