#include "app/gui/views/computation/computation_presenter.h"

#include <QJsonArray>

#include "app/gui/bridge/current_run.h"
#include "app/gui/bridge/thread_cpu_clock.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/computation/computation_plot_conversion.h"
#include "engine/analysis/attention_cell_breakdown.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/attention/prediction_round.h"
#include "widgets/computation/computation_view.h"

namespace ascope {
namespace {

/// Changes closer together than this are asked as one (a slider dragged, keys held).
constexpr int kCoalesceMs = 40;

bool sameQuestion(const ComputationQuestion& a, const ComputationQuestion& b) {
  const ExplainRequest& x = a.request;
  const ExplainRequest& y = b.request;
  return a.shown_step == b.shown_step && x.run_dir == y.run_dir &&
         x.model_folder == y.model_folder && x.sample == y.sample && x.text == y.text &&
         x.text_pair == y.text_pair && x.image_file == y.image_file && x.group == y.group &&
         x.layer == y.layer && x.head == y.head;
}

}  // namespace

ComputationPresenter::ComputationPresenter(const CurrentRun* run, AttentionPresenter* attention,
                                           QWidget* parent)
    : QObject(parent), run_(run), attention_(attention) {
  view_ = new ComputationView(parent);
  view_->setObjectName(QStringLiteral("computationView"));
  job_ = new ComputationJob(this);
  debounce_.setSingleShot(true);
  debounce_.setInterval(kCoalesceMs);
  connect(&debounce_, &QTimer::timeout, this, &ComputationPresenter::askNow);
  connect(job_, &ComputationJob::computed, this, &ComputationPresenter::onComputed);
  connect(view_, &ComputationView::cellChosen, this, &ComputationPresenter::showCell);

  AttentionHeadGridPanel* panel = attention_->panel();
  connect(panel, &AttentionHeadGridPanel::headSelected, this, &ComputationPresenter::schedule);
  connect(attention_, &AttentionPresenter::attentionShown, this, &ComputationPresenter::schedule);
  connect(attention_, &AttentionPresenter::askedShown, this, [this](bool shown) {
    if (!shown) asked_.reset();
    schedule();
  });
  connect(panel->headView(), &HeatmapView::cellClicked, this,
          &ComputationPresenter::onHeatmapClicked);
}

QWidget* ComputationPresenter::dockWidget() const {
  return view_;
}

void ComputationPresenter::setAskedInput(const AskedInput& input) {
  asked_ = input;
  schedule();
}

void ComputationPresenter::onHeatmapClicked(int row, int col) {
  // While the class guesses, a click votes for a cell: it must not give the weights away.
  if (attention_->panel()->predictionRound()->isActive()) return;
  if (attention_->panel()->showsWords()) {
    view_->setStatus(
        tr("The computation is per token piece: show pieces, not words, to pick a "
           "cell"));
    Q_EMIT dockWanted(QStringLiteral("computationDock"));
    return;
  }
  openCell(row, col);
}

void ComputationPresenter::openCell(int query, int key) {
  cell_query_ = query;
  cell_key_ = key;
  Q_EMIT dockWanted(QStringLiteral("computationDock"));
  QString why;
  const std::optional<ComputationQuestion> now = question(&why);
  if (now && answer_ && answer_->computation && sameQuestion(answer_->question, *now)) {
    showCell(query, key);
    return;
  }
  cell_wanted_ = true;
  schedule();
}

void ComputationPresenter::dockVisibilityChanged(bool visible) {
  if (visible) schedule();
}

bool ComputationPresenter::isOnScreen() const {
  return view_->isVisible() && !view_->visibleRegion().isEmpty();
}

void ComputationPresenter::refresh() {
  debounce_.stop();
  askNow();
}

void ComputationPresenter::schedule() {
  debounce_.start();
}

std::optional<ComputationQuestion> ComputationPresenter::question(QString* why) const {
  AttentionHeadGridPanel* panel = attention_->panel();
  if (panel->groupCount() == 0) {
    *why =
        tr("Nothing is shown in the Attention dock yet: open or start a run, or inspect a "
           "pretrained model.");
    return std::nullopt;
  }
  const QString group = panel->currentGroupId();
  if (group.isEmpty()) {
    *why =
        tr("The Attention dock shows an aggregate (mean of heads, rollout), which is no one "
           "head's computation: choose a group of the model there.");
    return std::nullopt;
  }
  ComputationQuestion q;
  ExplainRequest& r = q.request;
  r.group = group.toStdString();
  r.layer = panel->currentLayer();
  r.head = panel->currentHead();
  if (attention_->isShowingAsked()) {
    if (!asked_ || asked_->isEmpty()) {
      *why =
          tr("The input under the scope was not asked through Try it or the pretrained "
             "model's window, so it cannot be recomputed here.");
      return std::nullopt;
    }
    if (!asked_->model_folder.isEmpty()) {
      r.model_folder = asked_->model_folder.toStdString();
      r.text_pair = asked_->text_pair.toStdString();
    } else {
      r.run_dir = run_->folder().toStdString();
    }
    r.text = asked_->text.toStdString();
    r.image_file = asked_->image_file.toStdString();
  } else {
    r.run_dir = run_->folder().toStdString();
    const QList<int>& samples = attention_->timeline()->probeSampleIndices();
    const int index = attention_->probeIndex();
    const std::vector<int>& configured = run_->config().probe_samples;
    if (index >= 0 && index < samples.size()) {
      r.sample = samples[index];
    } else if (index >= 0 && index < static_cast<int>(configured.size())) {
      r.sample = configured[static_cast<std::size_t>(index)];
    } else {
      r.sample = 0;
    }
    q.shown_step = attention_->shownStep();
  }
  if (r.run_dir.empty() && r.model_folder.empty()) {
    *why = tr("The run has no folder yet: its weights are not stored anywhere to recompute.");
    return std::nullopt;
  }
  return q;
}

void ComputationPresenter::askNow() {
  // Only what is on screen is computed: a dock behind another tab costs the training nothing.
  if (!isOnScreen()) return;
  QString why;
  const std::optional<ComputationQuestion> q = question(&why);
  if (!q) {
    last_asked_.reset();
    answer_.reset();
    computation_.reset();
    view_->setComputation(nullptr);
    view_->setStatus(why);
    return;
  }
  if (last_asked_ && sameQuestion(*last_asked_, *q)) return;
  last_asked_ = q;
  view_->setStatus(tr("computing %1 · layer %2 · head %3 with the model's own weights…")
                       .arg(QString::fromStdString(q->request.group))
                       .arg(q->request.layer)
                       .arg(q->request.head));
  job_->ask(*q);
}

void ComputationPresenter::onComputed(std::shared_ptr<const ComputationAnswer> answer) {
  const HandlingTimer timer;
  answer_ = answer;
  if (!answer->computation) {
    computation_.reset();
    view_->setComputation(nullptr);
    view_->setStatus(tr("Cannot recompute this head: %1").arg(answer->error));
  } else {
    computation_ = answer->computation;
    view_->setStatus(answer->note);
    view_->setComputation(answer->plot);
    const int queries = static_cast<int>(computation_->query_labels.size());
    const int keys = static_cast<int>(computation_->key_labels.size());
    int query = cell_query_;
    int key = cell_key_;
    if (query < 0 || query >= queries || key < 0 || key >= keys) {
      // First look: the first query's strongest key.
      query = 0;
      key = std::max(0, strongestKey(*computation_, 0));
    }
    cell_wanted_ = false;
    // The cell is taken apart in the next turn of the event loop: the stage and the breakdown
    // drawn in one turn came to 47 ms the first time, beside a training on both cores.
    cell_query_ = query;
    cell_key_ = key;
    QMetaObject::invokeMethod(
        this,
        [this, shown = computation_, query, key] {
          // Unless another answer or another cell came meanwhile.
          if (computation_ == shown && cell_query_ == query && cell_key_ == key)
            showCell(query, key);
        },
        Qt::QueuedConnection);
  }
  recordHandling(timer);
}

void ComputationPresenter::showCell(int query, int key) {
  if (!computation_) return;
  const HandlingTimer timer;
  const Expected<AttentionCellBreakdown> cell = breakDownCell(*computation_, query, key);
  if (!cell.ok()) {
    view_->setStatus(QString::fromStdString(cell.error()));
    return;
  }
  cell_query_ = query;
  cell_key_ = key;
  view_->setBreakdown(toCellBreakdownData(*computation_, *cell));
  recordHandling(timer);
}

ComputationPresenter::HandlingTimer::HandlingTimer() : cpu_start_ns(threadCpuNs()) {
  wall.start();
}

void ComputationPresenter::recordHandling(const HandlingTimer& timer) {
  last_ms_ = static_cast<double>(timer.wall.nsecsElapsed()) / 1e6;
  last_cpu_ms_ = static_cast<double>(threadCpuNs() - timer.cpu_start_ns) / 1e6;
  slowest_ms_ = std::max(slowest_ms_, last_ms_);
  slowest_cpu_ms_ = std::max(slowest_cpu_ms_, last_cpu_ms_);
  ++handled_;
  total_ms_ += last_ms_;
}

void ComputationPresenter::clearRun() {
  last_asked_.reset();
  answer_.reset();
  computation_.reset();
  asked_.reset();
  cell_query_ = cell_key_ = -1;
  view_->clear();
  view_->setStatus({});
}

void ComputationPresenter::takeNews(const RunNews&) {
  // Nothing of its own: it follows what the Attention dock shows (attentionShown).
}

void ComputationPresenter::followStep(long long) {
  schedule();
}

QJsonObject ComputationPresenter::report() const {
  QJsonObject out;
  out.insert(QStringLiteral("on_screen"), isOnScreen());
  out.insert(QStringLiteral("status"), view_->status());
  out.insert(QStringLiteral("asked"), job_->asked());
  out.insert(QStringLiteral("answered"), job_->answered());
  out.insert(QStringLiteral("gui_ms_slowest"), slowest_ms_);
  out.insert(QStringLiteral("gui_ms_last"), last_ms_);
  out.insert(QStringLiteral("gui_cpu_ms_slowest"), slowest_cpu_ms_);
  out.insert(QStringLiteral("gui_handled"), handled_);
  out.insert(QStringLiteral("gui_ms_mean"), handled_ > 0 ? total_ms_ / handled_ : 0.0);
  const ComputationPlotData* data = view_->computation();
  if (data != nullptr && computation_) {
    out.insert(QStringLiteral("heading"), data->heading);
    out.insert(QStringLiteral("weights"), data->weights_note);
    out.insert(QStringLiteral("step_warning"), data->step_warning);
    out.insert(QStringLiteral("weights_step"), static_cast<double>(computation_->step));
    out.insert(QStringLiteral("recorded_difference"), answer_ ? answer_->recorded_difference : -1);
    QJsonArray stages;
    for (const ComputationStage& s : data->stages) {
      QJsonArray matrices;
      for (const StageMatrix& m : s.matrices) matrices.append(m.name);
      stages.append(QJsonObject{{QStringLiteral("title"), s.title},
                                {QStringLiteral("shape"), s.shape()},
                                {QStringLiteral("shape_words"), s.shape_words},
                                {QStringLiteral("formula"), s.formula},
                                {QStringLiteral("matrices"), matrices}});
    }
    out.insert(QStringLiteral("stages"), stages);
    out.insert(QStringLiteral("current_stage"), view_->currentStage());
    if (cell_query_ >= 0) {
      const Expected<AttentionCellBreakdown> cell =
          breakDownCell(*computation_, cell_query_, cell_key_);
      if (cell.ok() && cell->masked) {
        // A masked cell has no number to show, in the report either.
        out.insert(QStringLiteral("cell"), QJsonObject{{QStringLiteral("query"), cell->query},
                                                       {QStringLiteral("key"), cell->key},
                                                       {QStringLiteral("masked"), true},
                                                       {QStringLiteral("weight"), 0}});
      } else if (cell.ok()) {
        QJsonObject c{
            {QStringLiteral("query"), cell->query},
            {QStringLiteral("key"), cell->key},
            {QStringLiteral("query_label"),
             QString::fromStdString(
                 computation_->query_labels[static_cast<std::size_t>(cell->query)])},
            {QStringLiteral("key_label"),
             QString::fromStdString(computation_->key_labels[static_cast<std::size_t>(cell->key)])},
            {QStringLiteral("masked"), cell->masked},
            {QStringLiteral("products"), static_cast<int>(cell->products.size())},
            {QStringLiteral("sum"), cell->sum},
            {QStringLiteral("logit"), cell->logit},
            {QStringLiteral("scale"), cell->scale},
            {QStringLiteral("scaled"), cell->scaled},
            {QStringLiteral("weight"), cell->weight},
            {QStringLiteral("rank_before"), cell->rank_before},
            {QStringLiteral("rank_after"), cell->rank_after},
            {QStringLiteral("has_parts"), cell->has_parts}};
        if (cell->has_parts) {
          QJsonArray parts;
          for (double p : cell->parts) parts.append(p);
          c.insert(QStringLiteral("parts"), parts);
        }
        out.insert(QStringLiteral("cell"), c);
      }
    }
  }
  return QJsonObject{{QStringLiteral("computation"), out}};
}

QList<Exportable*> ComputationPresenter::exportables() const {
  return view_->exportables();
}

}  // namespace ascope
