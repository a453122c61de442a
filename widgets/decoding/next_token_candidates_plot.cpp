#include "widgets/decoding/next_token_candidates_plot.h"

#include <algorithm>

namespace ascope {

NextTokenCandidatesPlot::NextTokenCandidatesPlot(const QString& empty_hint, QWidget* parent)
    : DecodingPlot(parent), empty_hint_(empty_hint) {
  others_ = new QCPBars(yAxis, xAxis);
  others_->setWidth(0.68);
  others_->setName(QStringLiteral("others"));
  chosen_bar_ = new QCPBars(yAxis, xAxis);
  chosen_bar_->setWidth(0.68);
  chosen_bar_->setName(QStringLiteral("chosen"));
  yAxis->setRangeReversed(true);  // best candidate on top
  yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  yAxis->setSubTicks(false);
  yAxis->setTickLength(0, 0);
  yAxis->grid()->setVisible(false);
  auto x_ticks = QSharedPointer<QCPAxisTickerText>::create();
  for (int p = 0; p <= 100; p += 25) x_ticks->addTick(p / 100.0, QStringLiteral("%1 %").arg(p));
  xAxis->setTicker(x_ticks);
  xAxis->setSubTicks(false);
  xAxis->setRange(0.0, 1.0001);  // a hair past 1 so the "100 %" tick is drawn
  // Room right of the axis for half of that last tick label, which QCustomPlot would drop.
  axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
  axisRect()->setMargins(QMargins(
      0, 0, QFontMetrics(theme().font).horizontalAdvance(QStringLiteral("100 %")) / 2 + 8, 0));
  // Bar colours come from the theme; redraw when it follows a palette change.
  connect(this, &ThemedPlot::themeChanged, this, [this] {
    fitMinimumHeight();  // the font, and so the room a bar needs, may have changed
    if (has_candidates_) render();
  });
  fitMinimumHeight();
}

void NextTokenCandidatesPlot::fitMinimumHeight() {
  const int line = QFontMetrics(theme().font).height();
  const int bars = std::max(5, static_cast<int>(candidates_.tokens.size()));
  // A bar with its label and the gap to the next: a line and a half; the title and the axis
  // with its labels: four lines.
  setMinimumHeight(line * (3 * bars + 8) / 2 + 2 * kPad);
}

void NextTokenCandidatesPlot::showCandidates(const QString& title,
                                             const DecodingCandidates& candidates,
                                             const QString& chosen) {
  title_ = title;
  const bool recount = candidates.tokens.size() != candidates_.tokens.size();
  candidates_ = candidates;
  if (recount) fitMinimumHeight();
  chosen_ = chosen;
  has_candidates_ = true;
  render();
}

void NextTokenCandidatesPlot::render() {
  clearItems();
  const PlotTheme& theme = this->theme();
  others_->data()->clear();
  chosen_bar_->data()->clear();
  const DecodingCandidates& c = candidates_;
  const int k =
      static_cast<int>(std::min<qsizetype>(c.tokens.size(), qsizetype(c.probabilities.size())));
  setTitle(title_);
  if (k == 0) {
    setEmptyHint(empty_hint_);
    setEmptyState(true);
    replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  setEmptyState(false);

  const int chosen_index = std::max<int>(-1, static_cast<int>(c.tokens.indexOf(chosen_)));
  others_->setPen(Qt::NoPen);
  others_->setBrush(theme.withAlpha(theme.muted, 120));
  chosen_bar_->setPen(Qt::NoPen);
  chosen_bar_->setBrush(theme.accent);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < k; ++i) {
    const double p = c.probabilities[static_cast<size_t>(i)];
    const bool is_chosen = i == chosen_index;
    (is_chosen ? chosen_bar_ : others_)->addData(i, p);
    ticker->addTick(i, shortToken(c.tokens[i]));
    auto* value = new QCPItemText(this);
    value->position->setCoords(p, i);
    value->setText(QStringLiteral("%1 %").arg(100.0 * p, 0, 'f', 1));
    QFont value_font = theme.font;
    value_font.setBold(is_chosen);
    value->setFont(value_font);
    // Long bars carry their value inside, so it never runs off the right edge.
    const bool inside = p >= 0.75;
    value->setPositionAlignment((inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    value->setPadding(inside ? QMargins(0, 0, 5, 0) : QMargins(5, 0, 0, 0));
    const QColor bar_color = is_chosen ? theme.accent : theme.muted;
    value->setColor(inside ? textOn(bar_color) : theme.foreground);
  }
  yAxis->setTicker(ticker);
  yAxis->setRange(-0.6, k - 0.4);
  replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace ascope
