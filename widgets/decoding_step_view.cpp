#include "widgets/decoding_step_view.h"

#include "widgets/empty_hint.h"
#include "widgets/export_menu.h"
#include "widgets/plot_exporter.h"
#include "widgets/plot_theme.h"
#include "widgets/themed_plot.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QGlyphRun>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QResizeEvent>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStyle>
#include <QTextLayout>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

enum Page { kEmptyPage, kStepsPage };

const QString kDecoderSelf = QStringLiteral("decoder self");
const QString kCross = QStringLiteral("cross");

constexpr int kStripSide = 10;      // px left and right of a strip's cells
constexpr int kMaxTokenChars = 14;  // longer tokens are cut so one cannot crowd out the rest

QString shortToken(const QString& token) {
  return token.size() > kMaxTokenChars ? token.left(kMaxTokenChars - 1) + QStringLiteral("…")
                                       : token;
}

double luma(const QColor& c) {
  return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

// Text on a coloured cell or bar: black on bright, white on dark, so values stay legible on every
// part of the colour map.
QColor textOn(const QColor& fill) {
  return luma(fill) > 140 ? QColor(Qt::black) : QColor(Qt::white);
}

// Whether `text` renders with real glyphs, font fallback included; media symbols such as ⏮ are
// missing from many default fonts and would show as empty boxes.
bool fontShows(const QFont& font, const QString& text) {
  QTextLayout layout(text, font);
  layout.beginLayout();
  layout.createLine();
  layout.endLayout();
  for (const QGlyphRun& run : layout.glyphRuns())
    for (quint32 glyph : run.glyphIndexes())
      if (glyph == 0) return false;
  return true;
}

// "⏮ Start", "Next ▶": the symbol leads or trails the word; without a font for it the style's
// media icon takes its place, on the same side.
QPushButton* makeNavButton(const QString& symbol, const QString& word, bool symbol_first,
                           QStyle::StandardPixmap icon, const QString& name, const QString& tip,
                           QWidget* parent) {
  auto* button = new QPushButton(parent);
  button->setObjectName(name);
  button->setToolTip(tip);
  button->setAutoDefault(false);
  // Focus stays on the view, so the arrow keys keep stepping after a button was clicked.
  button->setFocusPolicy(Qt::NoFocus);
  if (fontShows(button->font(), symbol)) {
    button->setText(symbol_first ? symbol + QLatin1Char(' ') + word
                                 : word + QLatin1Char(' ') + symbol);
  } else {
    button->setText(word);
    button->setIcon(button->style()->standardIcon(icon));
    if (!symbol_first) button->setLayoutDirection(Qt::RightToLeft);
  }
  return button;
}

QCPTextElement* titleOf(QCustomPlot* plot) {
  return qobject_cast<QCPTextElement*>(plot->plotLayout()->element(0, 0));
}

void addTitle(ThemedPlot* plot) {
  plot->plotLayout()->insertRow(0);
  auto* title = new QCPTextElement(plot, QString(), plot->theme().title_font);
  title->setTextColor(plot->theme().foreground);
  title->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
  title->setMargins(QMargins(kStripSide, 4, kStripSide, 2));
  plot->plotLayout()->addElement(0, 0, title);
  // The strips are sized to their content (setFixedHeight); a gap between rows would squeeze it.
  plot->plotLayout()->setRowSpacing(0);
}

void setupStrip(ThemedPlot* plot) {
  addTitle(plot);
  for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
    axis->setVisible(false);
    axis->grid()->setVisible(false);
  }
  // Token labels are items below the cells (so masked ones can be greyed), hence fixed margins.
  plot->axisRect()->setAutoMargins(QCP::msNone);
  plot->axisRect()->setMinimumSize(50, 1);  // a strip is one cell high, less than the default
  auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
  map->setGradient(PlotTheme::sequentialGradient());
  // Weights are probabilities: a fixed 0..1 scale keeps colours comparable from step to step.
  map->setDataRange(QCPRange(0.0, 1.0));
  map->setInterpolate(false);
  map->setTightBoundary(false);
  plot->yAxis->setRange(-0.5, 0.5);
}

QCPColorMap* colorMapOf(QCustomPlot* plot) {
  return qobject_cast<QCPColorMap*>(plot->plottable(0));
}

void setupCandidates(ThemedPlot* plot) {
  addTitle(plot);
  for (int i = 0; i < 2; ++i) {
    auto* bars = new QCPBars(plot->yAxis, plot->xAxis);
    bars->setWidth(0.68);
    bars->setName(i == 0 ? QStringLiteral("others") : QStringLiteral("chosen"));
  }
  plot->yAxis->setRangeReversed(true);  // best candidate on top
  plot->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  plot->yAxis->setSubTicks(false);
  plot->yAxis->setTickLength(0, 0);
  plot->yAxis->grid()->setVisible(false);
  auto x_ticks = QSharedPointer<QCPAxisTickerText>::create();
  for (int p = 0; p <= 100; p += 25) x_ticks->addTick(p / 100.0, QStringLiteral("%1 %").arg(p));
  plot->xAxis->setTicker(x_ticks);
  plot->xAxis->setSubTicks(false);
  plot->xAxis->setRange(0.0, 1.0001);  // a hair past 1 so the "100 %" tick is drawn
  // Room right of the axis for half of that last tick label, which QCustomPlot would drop.
  plot->axisRect()->setAutoMargins(QCP::msLeft | QCP::msTop | QCP::msBottom);
  plot->axisRect()->setMargins(QMargins(
      0, 0, QFontMetrics(plot->theme().font).horizontalAdvance(QStringLiteral("100 %")) / 2 + 8,
      0));
}

const LabeledMatrix* firstMatrix(const AttentionPlotGroup* g, int layer) {
  if (!g || layer < 0 || layer >= g->layerCount()) return nullptr;
  for (const LabeledMatrix& m : g->layers[static_cast<size_t>(layer)])
    if (m.isValid()) return &m;
  return nullptr;
}

struct StripRow {
  std::vector<float> values;  // NaN where a head has no value
  QStringList labels;
};

// Row `row` of one head, or the mean over the heads of the layer (NaN-aware: a head without a
// value for a key does not pull the mean towards zero).
StripRow attentionRow(const AttentionPlotGroup* g, int layer, int head, int row) {
  StripRow out;
  const LabeledMatrix* first = firstMatrix(g, layer);
  if (!first || row < 0 || row >= first->rows) return out;
  const auto& heads = g->layers[static_cast<size_t>(layer)];
  std::vector<const LabeledMatrix*> used;
  for (int h = 0; h < static_cast<int>(heads.size()); ++h) {
    const LabeledMatrix& m = heads[static_cast<size_t>(h)];
    if ((head == DecodingStepView::kAverageHeads || head == h) && m.isValid() &&
        m.rows == first->rows && m.cols == first->cols)
      used.push_back(&m);
  }
  if (used.empty()) return out;
  out.values.assign(static_cast<size_t>(first->cols), std::nanf(""));
  for (int c = 0; c < first->cols; ++c) {
    double sum = 0;
    int count = 0;
    for (const LabeledMatrix* m : used) {
      const float v = m->at(row, c);
      if (!std::isfinite(v)) continue;
      sum += v;
      ++count;
    }
    if (count > 0) out.values[static_cast<size_t>(c)] = static_cast<float>(sum / count);
  }
  for (int c = 0; c < first->cols; ++c) out.labels << first->colLabel(c);
  return out;
}

}  // namespace

DecodingStepView::DecodingStepView(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("Decoding steps appear for translation runs"), this);
  hint->setObjectName(QStringLiteral("decodingEmptyHint"));

  auto* page = new QWidget(this);
  start_button_ =
      makeNavButton(QStringLiteral("⏮"), tr("Start"), true, QStyle::SP_MediaSkipBackward,
                    QStringLiteral("decodingStart"), tr("First step (Home)"), page);
  prev_button_ =
      makeNavButton(QStringLiteral("◀"), tr("Previous"), true, QStyle::SP_MediaSeekBackward,
                    QStringLiteral("decodingPrev"), tr("Previous step (Left arrow)"), page);
  next_button_ = makeNavButton(QStringLiteral("▶"), tr("Next"), false, QStyle::SP_MediaSeekForward,
                               QStringLiteral("decodingNext"), tr("Next step (Right arrow)"), page);
  end_button_ = makeNavButton(QStringLiteral("⏭"), tr("End"), false, QStyle::SP_MediaSkipForward,
                              QStringLiteral("decodingEnd"), tr("Last step (End)"), page);
  layer_box_ = new QComboBox(page);
  layer_box_->setObjectName(QStringLiteral("decodingLayer"));
  layer_box_->setToolTip(tr("Decoder layer whose attention is shown"));
  head_box_ = new QComboBox(page);
  head_box_->setObjectName(QStringLiteral("decodingHead"));
  head_box_->setToolTip(tr("One attention head, or the mean of all heads of the layer"));
  step_label_ = new QLabel(page);
  step_label_->setForegroundRole(QPalette::PlaceholderText);
  auto* bar = new QHBoxLayout;
  bar->setSpacing(4);
  for (QPushButton* b : {start_button_, prev_button_, next_button_, end_button_}) bar->addWidget(b);
  bar->addStretch(1);
  bar->addWidget(step_label_);

  sentence_label_ = new QLabel(page);
  sentence_label_->setTextFormat(Qt::RichText);
  // The sentence grows with every step; it drops its oldest words (renderText) instead of making
  // the whole view wider.
  sentence_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  QFont sentence_font = sentence_label_->font();
  if (sentence_font.pointSizeF() > 0)
    sentence_font.setPointSizeF(sentence_font.pointSizeF() * 1.15);
  sentence_label_->setFont(sentence_font);
  sentence_label_->installEventFilter(this);
  // The head picker shares the sentence's row, which keeps the view narrow enough for a dock.
  auto* sentence_row = new QHBoxLayout;
  sentence_row->setSpacing(4);
  sentence_row->addWidget(sentence_label_, 1);
  sentence_row->addWidget(layer_box_);
  sentence_row->addWidget(head_box_);

  caption_label_ = new QLabel(page);
  caption_label_->setObjectName(QStringLiteral("decodingCaption"));
  caption_label_->setTextFormat(Qt::RichText);
  caption_label_->setAlignment(Qt::AlignCenter);
  caption_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  // The one line a class should read from the back of the room.
  QFont caption_font = caption_label_->font();
  if (caption_font.pointSizeF() > 0) caption_font.setPointSizeF(caption_font.pointSizeF() * 1.7);
  caption_label_->setFont(caption_font);

  self_plot_ = new ThemedPlot(page);
  self_plot_->setObjectName(QStringLiteral("decodingSelfAttention"));
  setupStrip(self_plot_);
  cross_plot_ = new ThemedPlot(page);
  cross_plot_->setObjectName(QStringLiteral("decodingCrossAttention"));
  setupStrip(cross_plot_);
  candidates_plot_ = new ThemedPlot(page);
  candidates_plot_->setObjectName(QStringLiteral("decodingCandidates"));
  candidates_plot_->setMinimumHeight(90);
  setupCandidates(candidates_plot_);

  auto* page_layout = new QVBoxLayout(page);
  page_layout->setContentsMargins(6, 4, 6, 4);
  page_layout->setSpacing(4);
  page_layout->addLayout(bar);
  page_layout->addLayout(sentence_row);
  page_layout->addWidget(caption_label_);
  page_layout->addWidget(self_plot_);
  page_layout->addWidget(cross_plot_);
  page_layout->addWidget(candidates_plot_, 1);

  stack_ = new QStackedWidget(this);
  stack_->insertWidget(kEmptyPage, hint);
  stack_->insertWidget(kStepsPage, page);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  setFocusPolicy(Qt::StrongFocus);
  connect(start_button_, &QPushButton::clicked, this, &DecodingStepView::toStart);
  connect(prev_button_, &QPushButton::clicked, this, &DecodingStepView::previous);
  connect(next_button_, &QPushButton::clicked, this, &DecodingStepView::next);
  connect(end_button_, &QPushButton::clicked, this, &DecodingStepView::toEnd);
  connect(layer_box_, &QComboBox::activated, this, [this](int index) { setHead(index, head_); });
  connect(head_box_, &QComboBox::activated, this,
          [this](int index) { setHead(layer_, head_box_->itemData(index).toInt()); });
  // Cell and bar colours come from each plot's theme; redraw when it follows a palette change.
  connect(self_plot_, &ThemedPlot::themeChanged, this,
          [this] { renderStrip(self_plot_, group(kDecoderSelf), true); });
  connect(cross_plot_, &ThemedPlot::themeChanged, this,
          [this] { renderStrip(cross_plot_, group(kCross), false); });
  connect(candidates_plot_, &ThemedPlot::themeChanged, this, [this] { renderCandidates(); });
  // Label rotation and cell text depend on the strip width.
  self_plot_->installEventFilter(this);
  cross_plot_->installEventFilter(this);

  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(this, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) { showContextMenu(mapToGlobal(pos)); });
  render();
}

void DecodingStepView::setSnapshot(const AttentionPlotData& data) {
  data_ = data;
  const int layers = layerCount();
  if (!head_chosen_ || layer_ >= layers) {
    layer_ = std::max(0, layers - 1);
    head_ = 0;
  }
  if (head_ >= headCount(layer_)) head_ = 0;
  rebuildHeadChoices();
  const int old_step = step_;
  step_ = std::clamp(step_, 0, std::max(0, stepCount() - 1));
  render();
  if (step_ != old_step) Q_EMIT stepChanged(step_);
}

void DecodingStepView::clear() {
  setSnapshot(AttentionPlotData());
}

void DecodingStepView::setHead(int layer, int head) {
  head_chosen_ = true;
  layer_ = std::clamp(layer, 0, std::max(0, layerCount() - 1));
  const int heads = headCount(layer_);
  head_ = head == kAverageHeads ? kAverageHeads : std::clamp(head, 0, std::max(0, heads - 1));
  rebuildHeadChoices();
  render();
}

void DecodingStepView::setStep(int step) {
  if (!hasDecoding()) return;
  step = std::clamp(step, 0, stepCount() - 1);
  if (step == step_) return;
  step_ = step;
  render();
  Q_EMIT stepChanged(step_);
}

const AttentionPlotGroup* DecodingStepView::group(const QString& name) const {
  for (const AttentionPlotGroup& g : data_.groups)
    if (g.name == name) return &g;
  return nullptr;
}

int DecodingStepView::layerCount() const {
  const AttentionPlotGroup* self = group(kDecoderSelf);
  const AttentionPlotGroup* cross = group(kCross);
  return std::max(self ? self->layerCount() : 0, cross ? cross->layerCount() : 0);
}

int DecodingStepView::headCount(int layer) const {
  const AttentionPlotGroup* self = group(kDecoderSelf);
  const AttentionPlotGroup* cross = group(kCross);
  return std::max(self ? self->headCount(layer) : 0, cross ? cross->headCount(layer) : 0);
}

QString DecodingStepView::fedToken(int step) const {
  // Row labels are the tokens fed to the decoder; the same in every layer and head.
  for (const QString& name : {kDecoderSelf, kCross}) {
    const LabeledMatrix* m = firstMatrix(group(name), 0);
    if (m && step >= 0 && step < m->row_labels.size()) return m->row_labels[step];
  }
  // Greedy decoding feeds back what it predicted one step earlier.
  if (step > 0) return predictedToken(step - 1);
  return QString::number(step);
}

QString DecodingStepView::predictedToken(int step) const {
  for (const QString& name : {kDecoderSelf, kCross}) {
    const AttentionPlotGroup* g = group(name);
    if (g && step >= 0 && step < g->row_predictions.size()) return g->row_predictions[step];
  }
  if (step >= 0 && step < stepCount())
    return data_.decoding[static_cast<size_t>(step)].tokens.value(0);
  return QString();
}

QString DecodingStepView::captionText() const {
  if (!hasDecoding()) return QString();
  return tr("fed %1 → predicts %2").arg(fedToken(step_), predictedToken(step_));
}

void DecodingStepView::rebuildHeadChoices() {
  const QSignalBlocker block_layers(layer_box_);
  const QSignalBlocker block_heads(head_box_);
  layer_box_->clear();
  for (int l = 0; l < layerCount(); ++l) layer_box_->addItem(tr("layer %1").arg(l));
  layer_box_->setCurrentIndex(layer_);
  head_box_->clear();
  for (int h = 0; h < headCount(layer_); ++h) head_box_->addItem(tr("head %1").arg(h), h);
  head_box_->addItem(tr("average of heads"), kAverageHeads);
  head_box_->setCurrentIndex(head_box_->findData(head_));
  layer_box_->setEnabled(layerCount() > 0);
  head_box_->setEnabled(layerCount() > 0);
}

void DecodingStepView::render() {
  updateButtons();
  if (!hasDecoding()) {
    stack_->setCurrentIndex(kEmptyPage);
    return;
  }
  stack_->setCurrentIndex(kStepsPage);
  renderText();
  renderStrip(self_plot_, group(kDecoderSelf), true);
  renderStrip(cross_plot_, group(kCross), false);
  renderCandidates();
}

void DecodingStepView::renderText() {
  if (!hasDecoding()) return;
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  const QString highlight_style =
      QStringLiteral("background-color:%1; color:%2; font-weight:600")
          .arg(theme.accent.name(), palette().color(QPalette::HighlightedText).name());
  // Oldest words go first when the row is too narrow: the token being produced must stay visible.
  QFont bold = sentence_label_->font();
  bold.setBold(true);
  const QFontMetrics fm(bold);  // bold overestimates a little, so the kept words surely fit
  const QString prefix = tr("Output so far");
  const QString more = step_ < stepCount() - 1 ? QStringLiteral(" …") : QString();
  const int available = sentence_label_->contentsRect().width() - 8;
  int first = 0;
  auto plainWidth = [&](int from) {
    QStringList plain;
    for (int i = from; i <= step_; ++i) plain << predictedToken(i);
    const QString cut = from > 0 ? QStringLiteral("… ") : QString();
    return fm.horizontalAdvance(prefix + QStringLiteral("   ") + cut + plain.join(' ') + more);
  };
  while (first < step_ && plainWidth(first) > available) ++first;
  QStringList words;
  if (first > 0) words << QStringLiteral("<span style='color:%1'>…</span>").arg(theme.muted.name());
  for (int i = first; i <= step_; ++i) {
    const QString token = predictedToken(i).toHtmlEscaped();
    words << (i == step_ ? QStringLiteral("<span style='%1'>&nbsp;%2&nbsp;</span>")
                               .arg(highlight_style, token)
                         : token);
  }
  QString html = QStringLiteral("<span style='color:%1'>%2</span>&nbsp;&nbsp;%3")
                     .arg(theme.muted.name(), prefix, words.join(QLatin1Char(' ')));
  if (!more.isEmpty())
    html += QStringLiteral(" <span style='color:%1'>…</span>").arg(theme.muted.name());
  sentence_label_->setText(html);
  step_label_->setText(tr("step %1 of %2").arg(step_ + 1).arg(stepCount()));

  QColor fed_bg = theme.foreground;
  fed_bg.setAlpha(theme.dark ? 60 : 28);
  caption_label_->setText(
      tr("<span style='color:%1'>fed</span> <span style='background-color:%2'>&nbsp;%3&nbsp;"
         "</span> <span style='color:%1'>→ predicts</span> <span style='%4'>&nbsp;%5&nbsp;"
         "</span>")
          .arg(theme.muted.name(), fed_bg.name(QColor::HexArgb), fedToken(step_).toHtmlEscaped(),
               highlight_style, predictedToken(step_).toHtmlEscaped()));
}

void DecodingStepView::renderStrip(ThemedPlot* plot, const AttentionPlotGroup* g, bool self) {
  if (!hasDecoding()) return;
  plot->clearItems();
  QCPColorMap* map = colorMapOf(plot);
  const PlotTheme& theme = plot->theme();
  const QFontMetrics fm(theme.font);
  const QFontMetrics title_fm(theme.title_font);
  const QString fed = shortToken(fedToken(step_));
  // Which head is on show goes into the title, so an exported figure still says it.
  const QString which = head_ == kAverageHeads ? tr("layer %1, mean of heads").arg(layer_)
                                               : tr("layer %1, head %2").arg(layer_).arg(head_);
  const QString title =
      self ? tr("Self-attention of ‹%1› over the tokens fed so far · %2").arg(fed, which)
           : tr("Cross-attention of ‹%1› over the source · %2").arg(fed, which);
  // Elided rather than cut off in a narrow dock; the strip is redrawn when its width changes.
  titleOf(plot)->setText(
      title_fm.elidedText(title, Qt::ElideRight, std::max(60, plot->width() - 2 * kStripSide)));
  titleOf(plot)->setTextColor(theme.foreground);

  const StripRow row = attentionRow(g, layer_, head_, step_);
  const int n = static_cast<int>(row.values.size());
  const int cell_h = qRound(fm.height() * 1.9);
  // Measured the way QCPTextElement measures itself, plus its margins, so the title is never cut.
  const int title_h =
      title_fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip, titleOf(plot)->text()).height() + 6;
  if (n == 0) {
    map->data()->clear();
    plot->setEmptyHint(self ? tr("No decoder self-attention for this step")
                            : tr("No cross-attention for this step"));
    plot->setEmptyState(true);
    plot->setFixedHeight(title_h + cell_h + fm.height() + 8);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  plot->setEmptyState(false);

  // Labels go diagonal, then vertical, when the cells get narrower than the longest token.
  QStringList labels;
  int label_w = 0;
  for (const QString& label : row.labels) {
    labels << shortToken(label);
    label_w = std::max(label_w, fm.horizontalAdvance(labels.last()));
  }
  const double cell_px = std::max(40, plot->width() - 2 * kStripSide) / double(n);
  double rotation = 0;
  int label_margin = fm.height() + 6;
  int left_margin = kStripSide;
  if (label_w + 6 > cell_px) {
    rotation = cell_px >= fm.height() * 1.5 ? -45.0 : -90.0;
    const double a = -rotation * M_PI / 180.0;
    label_margin =
        static_cast<int>(std::ceil(label_w * std::sin(a) + fm.height() * std::cos(a))) + 8;
    // A slanted label hangs left of its cell; the first one must not run off the plot.
    const double overhang = fm.horizontalAdvance(labels.first()) * std::cos(a) +
                            fm.height() * std::sin(a) / 2 - cell_px / 2;
    left_margin = std::max(kStripSide, static_cast<int>(std::ceil(overhang)) + 4);
  }
  plot->axisRect()->setMargins(QMargins(left_margin, 2, kStripSide, label_margin));
  plot->setFixedHeight(title_h + 2 + cell_h + label_margin);
  plot->xAxis->setRange(-0.5, n - 0.5);

  QCPColorGradient gradient = map->gradient();
  const bool show_values = cell_px >= fm.horizontalAdvance(QStringLiteral("0.00")) + 6;
  map->data()->setSize(n, 1);
  map->data()->setRange(n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5), QCPRange(-0.5, 0.5));
  for (int c = 0; c < n; ++c) {
    const float v = row.values[static_cast<size_t>(c)];
    // At decoding step i only tokens 0..i had been fed; later keys did not exist yet, so they are
    // masked (whatever the causal flag or the stored weight says), not shown as small weights.
    const bool masked = (self && c > step_) || !std::isfinite(v);
    const bool query = self && c == step_;
    map->data()->setCell(c, 0, masked ? std::nan("") : double(v));
    if (masked) {
      auto* rect = new QCPItemRect(plot);
      rect->setObjectName(QStringLiteral("maskedCell"));
      rect->topLeft->setCoords(c - 0.5, 0.5);
      rect->bottomRight->setCoords(c + 0.5, -0.5);
      rect->setPen(QPen(theme.grid));
      rect->setBrush(QBrush(theme.grid, Qt::BDiagPattern));
    } else if (show_values) {
      auto* text = new QCPItemText(plot);
      text->position->setCoords(c, 0);
      text->setText(QString::number(v, 'f', 2));
      text->setFont(theme.font);
      text->setColor(textOn(QColor::fromRgb(gradient.color(v, map->dataRange()))));
    }
    if (query) {
      auto* rect = new QCPItemRect(plot);
      rect->setObjectName(QStringLiteral("queryCell"));
      rect->topLeft->setCoords(c - 0.5, 0.5);
      rect->bottomRight->setCoords(c + 0.5, -0.5);
      rect->setPen(QPen(theme.foreground, 2));
      rect->setBrush(Qt::NoBrush);
    }
    if (c + 1 < n) {
      // A gap in the surface colour tells neighbouring cells of similar weight apart.
      auto* gap = new QCPItemLine(plot);
      gap->start->setCoords(c + 0.5, -0.5);
      gap->end->setCoords(c + 0.5, 0.5);
      gap->setPen(QPen(theme.background, 2));
    }
    auto* label = new QCPItemText(plot);
    label->setClipToAxisRect(false);
    label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(c, 1.0);
    label->setText(labels[c]);
    QFont label_font = theme.font;
    label_font.setBold(query);
    label->setFont(label_font);
    label->setColor(masked ? theme.muted : theme.foreground);
    label->setRotation(rotation);
    if (rotation == 0) {
      label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
      label->setPadding(QMargins(0, 3, 0, 0));
    } else {
      label->setPositionAlignment(Qt::AlignRight | Qt::AlignVCenter);
      label->setPadding(QMargins(0, 0, 4, 0));
    }
  }
  plot->replot(QCustomPlot::rpQueuedReplot);
}

void DecodingStepView::renderCandidates() {
  if (!hasDecoding()) return;
  ThemedPlot* plot = candidates_plot_;
  plot->clearItems();
  const PlotTheme& theme = plot->theme();
  auto* others = qobject_cast<QCPBars*>(plot->plottable(0));
  auto* chosen = qobject_cast<QCPBars*>(plot->plottable(1));
  others->data()->clear();
  chosen->data()->clear();
  const DecodingCandidates& c = data_.decoding[static_cast<size_t>(step_)];
  const int k =
      static_cast<int>(std::min<qsizetype>(c.tokens.size(), qsizetype(c.probabilities.size())));
  titleOf(plot)->setText(
      tr("Most probable next tokens after ‹%1›").arg(shortToken(fedToken(step_))));
  titleOf(plot)->setTextColor(theme.foreground);
  if (k == 0) {
    plot->setEmptyHint(tr("No candidates recorded for this step"));
    plot->setEmptyState(true);
    plot->replot(QCustomPlot::rpQueuedReplot);
    return;
  }
  plot->setEmptyState(false);

  const QString predicted = predictedToken(step_);
  const int chosen_index = std::max<int>(-1, static_cast<int>(c.tokens.indexOf(predicted)));
  others->setPen(Qt::NoPen);
  others->setBrush(theme.withAlpha(theme.muted, 120));
  chosen->setPen(Qt::NoPen);
  chosen->setBrush(theme.accent);
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < k; ++i) {
    const double p = c.probabilities[static_cast<size_t>(i)];
    const bool is_chosen = i == chosen_index;
    (is_chosen ? chosen : others)->addData(i, p);
    ticker->addTick(i, shortToken(c.tokens[i]));
    auto* value = new QCPItemText(plot);
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
  plot->yAxis->setTicker(ticker);
  plot->yAxis->setRange(-0.6, k - 0.4);
  plot->replot(QCustomPlot::rpQueuedReplot);
}

void DecodingStepView::updateButtons() {
  const bool any = hasDecoding();
  start_button_->setEnabled(any && step_ > 0);
  prev_button_->setEnabled(any && step_ > 0);
  next_button_->setEnabled(any && step_ < stepCount() - 1);
  end_button_->setEnabled(any && step_ < stepCount() - 1);
}

void DecodingStepView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Left:
      previous();
      break;
    case Qt::Key_Right:
      next();
      break;
    case Qt::Key_Home:
      toStart();
      break;
    case Qt::Key_End:
      toEnd();
      break;
    default:
      QWidget::keyPressEvent(event);
      return;
  }
  event->accept();
}

void DecodingStepView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // Caption and sentence colours come from the palette; redo them for light/dark switches.
  if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) renderText();
}

bool DecodingStepView::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Resize) {
    // Only width changes matter; the height is ours (setFixedHeight) and would loop.
    auto* resize = static_cast<QResizeEvent*>(event);
    if (resize->oldSize().width() != resize->size().width()) {
      if (watched == sentence_label_) renderText();
      if (watched == self_plot_) renderStrip(self_plot_, group(kDecoderSelf), true);
      if (watched == cross_plot_) renderStrip(cross_plot_, group(kCross), false);
    }
  }
  return QWidget::eventFilter(watched, event);
}

void DecodingStepView::showContextMenu(const QPoint& global_pos) {
  if (!hasDecoding()) return;
  QMenu menu(this);
  ExportMenu::addActions(&menu, this, this);
  menu.exec(global_pos);
}

ExportResult DecodingStepView::exportImage(const QString& path, ImageFormat format,
                                           const ExportSize& size) {
  // Laid out afresh at the asked size rather than a screen grab scaled up: text stays sharp and
  // the strips get the room the bigger figure offers.
  const QSize old_size = this->size();
  const bool resized = size.width > 0 && size.height > 0;
  auto relayout = [this] {
    for (int pass = 0; pass < 3; ++pass) {
      if (layout()) layout()->activate();
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    }
    for (ThemedPlot* plot : {self_plot_, cross_plot_, candidates_plot_}) plot->replot();
  };
  if (resized) {
    resize(size.width, size.height);
    relayout();
  }
  const ExportResult result = PlotExporter::saveWidget(this, path, format, size);
  if (resized) {
    resize(old_size);
    relayout();
  }
  return result;
}

ExportResult DecodingStepView::exportCsv(const QString& path) const {
  size_t k = 0;
  for (const DecodingCandidates& c : data_.decoding)
    k = std::max(k, std::min(static_cast<size_t>(c.tokens.size()), c.probabilities.size()));
  QStringList header = {QStringLiteral("step"), QStringLiteral("fed_token"),
                        QStringLiteral("predicted_token")};
  for (size_t i = 1; i <= k; ++i)
    header << QStringLiteral("token_%1").arg(i) << QStringLiteral("probability_%1").arg(i);
  return PlotExporter::writeCsv(path, header, [this, k](QTextStream& out) {
    for (int s = 0; s < stepCount(); ++s) {
      const DecodingCandidates& c = data_.decoding[static_cast<size_t>(s)];
      QStringList fields = {QString::number(s), PlotExporter::csvField(fedToken(s)),
                            PlotExporter::csvField(predictedToken(s))};
      const size_t n = std::min(static_cast<size_t>(c.tokens.size()), c.probabilities.size());
      for (size_t i = 0; i < k; ++i) {
        // Steps with fewer candidates leave their last columns empty, so columns line up.
        fields << (i < n ? PlotExporter::csvField(c.tokens[static_cast<qsizetype>(i)]) : QString())
               << (i < n ? QString::number(c.probabilities[i], 'g', 6) : QString());
      }
      out << fields.join(QLatin1Char(',')) << '\n';
    }
  });
}

}  // namespace ascope
