#include "widgets/decoding/decoding_step_view.h"

#include "widgets/common/empty_hint.h"
#include "widgets/common/export_menu.h"
#include "widgets/common/navigation_button.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/common/plot_theme.h"
#include "widgets/decoding/attention_row_strip.h"
#include "widgets/decoding/next_token_candidates_plot.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>

namespace ascope {
namespace {

enum DecodingPage { kHintPage, kStepsPage };

}  // namespace

DecodingStepView::DecodingStepView(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("Decoding steps appear for translation runs"), this);
  hint->setObjectName(QStringLiteral("decodingEmptyHint"));

  auto* page = new QWidget(this);
  using Side = NavigationButton::SymbolSide;
  const struct {
    QPushButton** button;
    QString symbol, word;
    Side side;
    QStyle::StandardPixmap icon;
    QString name, tip;
  } nav_buttons[] = {
      {&start_button_, QStringLiteral("⏮"), tr("Start"), Side::Leading,
       QStyle::SP_MediaSkipBackward, QStringLiteral("decodingStart"), tr("First step (Home)")},
      {&prev_button_, QStringLiteral("◀"), tr("Previous"), Side::Leading,
       QStyle::SP_MediaSeekBackward, QStringLiteral("decodingPrev"),
       tr("Previous step (Left arrow)")},
      {&next_button_, QStringLiteral("▶"), tr("Next"), Side::Trailing, QStyle::SP_MediaSeekForward,
       QStringLiteral("decodingNext"), tr("Next step (Right arrow)")},
      {&end_button_, QStringLiteral("⏭"), tr("End"), Side::Trailing, QStyle::SP_MediaSkipForward,
       QStringLiteral("decodingEnd"), tr("Last step (End)")},
  };
  for (const auto& nav : nav_buttons) {
    *nav.button = new NavigationButton(nav.symbol, nav.word, nav.side, nav.icon, page);
    (*nav.button)->setObjectName(nav.name);
    (*nav.button)->setToolTip(nav.tip);
  }
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

  self_plot_ = new AttentionRowStrip(tr("No decoder self-attention for this step"), page);
  self_plot_->setObjectName(QStringLiteral("decodingSelfAttention"));
  cross_plot_ = new AttentionRowStrip(tr("No cross-attention for this step"), page);
  cross_plot_->setObjectName(QStringLiteral("decodingCrossAttention"));
  candidates_plot_ = new NextTokenCandidatesPlot(tr("No candidates recorded for this step"), page);
  candidates_plot_->setObjectName(QStringLiteral("decodingCandidates"));

  auto* page_layout = new QVBoxLayout(page);
  page_layout->setContentsMargins(6, 4, 6, 4);
  page_layout->setSpacing(4);
  page_layout->addLayout(bar);
  page_layout->addLayout(sentence_row);
  page_layout->addWidget(caption_label_);
  page_layout->addWidget(self_plot_);
  page_layout->addWidget(cross_plot_);
  page_layout->addWidget(candidates_plot_, 1);

  // A dock shorter than what the steps need (a 720-line screen at font zoom +2) scrolls instead
  // of squashing the candidates' bars to a strip.
  auto* scroll = new QScrollArea(this);
  scroll->setObjectName(QStringLiteral("decodingScroll"));
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(page);
  stack_ = new QStackedWidget(this);
  stack_->insertWidget(kHintPage, hint);
  stack_->insertWidget(kStepsPage, scroll);
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

  setContextMenuPolicy(Qt::CustomContextMenu);
  connect(this, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) { showContextMenu(mapToGlobal(pos)); });
  render();
}

void DecodingStepView::setSnapshot(AttentionPlotData data) {
  setSnapshot(std::make_shared<const AttentionPlotData>(std::move(data)));
}

void DecodingStepView::setSnapshot(SharedPlotData data) {
  transcript_ = DecodingTranscript(std::move(data));
  const int layers = transcript_.layerCount();
  if (!head_chosen_ || layer_ >= layers) {
    layer_ = std::max(0, layers - 1);
    head_ = 0;
  }
  if (head_ >= transcript_.headCount(layer_)) head_ = 0;
  rebuildHeadChoices();
  const int old_step = step_;
  step_ = std::clamp(step_, 0, std::max(0, stepCount() - 1));
  render();
  if (step_ != old_step) Q_EMIT stepChanged(step_);
}

void DecodingStepView::clear() {
  setSnapshot(SharedPlotData());
}

void DecodingStepView::setHead(int layer, int head) {
  head_chosen_ = true;
  layer_ = std::clamp(layer, 0, std::max(0, transcript_.layerCount() - 1));
  const int heads = transcript_.headCount(layer_);
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

ThemedPlot* DecodingStepView::selfAttentionPlot() const {
  return self_plot_;
}

ThemedPlot* DecodingStepView::crossAttentionPlot() const {
  return cross_plot_;
}

ThemedPlot* DecodingStepView::candidatesPlot() const {
  return candidates_plot_;
}

QString DecodingStepView::captionText() const {
  if (!hasDecoding()) return QString();
  return tr("fed %1 → predicts %2").arg(fedToken(step_), predictedToken(step_));
}

void DecodingStepView::rebuildHeadChoices() {
  const QSignalBlocker block_layers(layer_box_);
  const QSignalBlocker block_heads(head_box_);
  layer_box_->clear();
  for (int l = 0; l < transcript_.layerCount(); ++l) layer_box_->addItem(tr("layer %1").arg(l));
  layer_box_->setCurrentIndex(layer_);
  head_box_->clear();
  for (int h = 0; h < transcript_.headCount(layer_); ++h)
    head_box_->addItem(tr("head %1").arg(h), h);
  head_box_->addItem(tr("average of heads"), kAverageHeads);
  head_box_->setCurrentIndex(head_box_->findData(head_));
  layer_box_->setEnabled(transcript_.layerCount() > 0);
  head_box_->setEnabled(transcript_.layerCount() > 0);
}

void DecodingStepView::render() {
  updateButtons();
  if (!hasDecoding()) {
    stack_->setCurrentIndex(kHintPage);
    return;
  }
  stack_->setCurrentIndex(kStepsPage);
  renderText();
  renderStrips();
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
  // A training probe feeds the reference (teacher forcing), so its predictions are not a
  // translation being written: say which of the two is on show.
  const bool reference = transcript_.fedReference();
  const QString prefix = reference ? tr("Predicted, the reference fed") : tr("Output so far");
  sentence_label_->setToolTip(
      reference ? tr("Teacher forcing: each step is fed the reference's next word, whatever the "
                     "model predicted before; the Sample dock shows the model's own translation")
                : tr("Greedy decoding: each step is fed the word the model predicted before"));
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

void DecodingStepView::renderStrips() {
  const QString fed = DecodingPlot::shortToken(fedToken(step_));
  // Which head is on show goes into the title, so an exported figure still says it.
  const QString which = head_ == kAverageHeads ? tr("layer %1, mean of heads").arg(layer_)
                                               : tr("layer %1, head %2").arg(layer_).arg(head_);
  // At decoding step i only tokens 0..i had been fed: the strip masks the later ones.
  self_plot_->showRow(tr("Self-attention of ‹%1› over the tokens fed so far · %2").arg(fed, which),
                      transcript_.selfAttentionRow(layer_, head_, step_), step_);
  cross_plot_->showRow(tr("Cross-attention of ‹%1› over the source · %2").arg(fed, which),
                       transcript_.crossAttentionRow(layer_, head_, step_), -1);
}

void DecodingStepView::renderCandidates() {
  candidates_plot_->showCandidates(
      tr("Most probable next tokens after ‹%1›").arg(DecodingPlot::shortToken(fedToken(step_))),
      transcript_.candidates(step_), predictedToken(step_));
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
  if (watched == sentence_label_ && event->type() == QEvent::Resize) {
    // How many of the oldest words the sentence drops depends on its width only.
    auto* resize = static_cast<QResizeEvent*>(event);
    if (resize->oldSize().width() != resize->size().width()) renderText();
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
    for (ThemedPlot* plot : {selfAttentionPlot(), crossAttentionPlot(), candidatesPlot()})
      plot->replot();
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
  for (int s = 0; s < stepCount(); ++s) {
    const DecodingCandidates& c = transcript_.candidates(s);
    k = std::max(k, std::min(static_cast<size_t>(c.tokens.size()), c.probabilities.size()));
  }
  QStringList header = {QStringLiteral("step"), QStringLiteral("fed_token"),
                        QStringLiteral("predicted_token")};
  for (size_t i = 1; i <= k; ++i)
    header << QStringLiteral("token_%1").arg(i) << QStringLiteral("probability_%1").arg(i);
  return PlotExporter::writeCsv(path, header, [this, k](QTextStream& out) {
    for (int s = 0; s < stepCount(); ++s) {
      const DecodingCandidates& c = transcript_.candidates(s);
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
