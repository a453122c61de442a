#include "widgets/tables/head_ablation_table.h"

#include "widgets/common/empty_hint.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/common/plot_theme.h"
#include "widgets/common/qcustomplot_include.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

double luma(const QColor& c) {
  return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue();
}

// The ends of the diverging map every panel uses (coolwarm): red for worse, blue for better. On a
// dark surface its darkest blue hardly stands out, so the ends move a little inwards there.
QColor worseColor(bool dark) {
  return QColor(PlotTheme::divergingGradient().color(dark ? 0.92 : 1.0, QCPRange(0, 1)));
}
QColor betterColor(bool dark) {
  return QColor(PlotTheme::divergingGradient().color(dark ? 0.12 : 0.0, QCPRange(0, 1)));
}

QString percent(double fraction) {
  return QString::number(fraction * 100.0, 'f', 1) + " %";
}

}  // namespace

HeadAblationTable::HeadAblationTable(QWidget* parent) : QWidget(parent) {
  baseline_label_ = new QLabel(this);
  baseline_label_->setObjectName(QStringLiteral("baselineLabel"));
  baseline_label_->setWordWrap(true);

  group_box_ = new QComboBox(this);
  group_box_->setObjectName(QStringLiteral("groupSelector"));
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_box_->setMinimumContentsLength(8);
  group_box_->setToolTip(tr("Which attention: encoder self, decoder self or cross"));
  measure_box_ = new QComboBox(this);
  measure_box_->setObjectName(QStringLiteral("measureSelector"));
  measure_box_->setToolTip(tr("What the cells compare with the baseline"));
  mode_box_ = new QComboBox(this);
  mode_box_->setObjectName(QStringLiteral("modeSelector"));
  mode_box_->addItem(tr("drop this head"), false);
  mode_box_->addItem(tr("keep only this head"), true);
  mode_box_->setToolTip(
      tr("drop this head: the head's output is zeroed, the rest of its layer kept\n"
         "keep only this head: every other head of the layer is zeroed"));

  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("ablationTable"));
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  table_->viewport()->installEventFilter(this);
  auto* hint = new EmptyHint(tr("Run an ablation to see how much the model needs each head"), this);
  stack_ = new QStackedWidget(this);
  stack_->addWidget(hint);
  stack_->addWidget(table_);

  legend_label_ = new QLabel(this);
  legend_label_->setObjectName(QStringLiteral("legendLabel"));
  legend_label_->setWordWrap(true);
  legend_label_->setTextFormat(Qt::RichText);

  auto* samples_label = new QLabel(tr("Samples"), this);
  samples_box_ = new QSpinBox(this);
  samples_box_->setObjectName(QStringLiteral("samplesBox"));
  samples_box_->setRange(16, 100000);
  samples_box_->setValue(512);
  samples_box_->setToolTip(tr("Validation samples every ablation is measured on"));
  samples_label->setBuddy(samples_box_);
  run_button_ = new QPushButton(tr("Run ablation"), this);
  run_button_->setObjectName(QStringLiteral("runButton"));
  cancel_button_ = new QPushButton(tr("Cancel"), this);
  cancel_button_->setObjectName(QStringLiteral("cancelButton"));
  cancel_button_->hide();
  progress_ = new QProgressBar(this);
  progress_->setFormat(tr("%v of %m"));
  progress_->hide();
  message_label_ = new QLabel(this);
  message_label_->setObjectName(QStringLiteral("messageLabel"));
  message_label_->setWordWrap(true);
  message_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_label_->hide();

  auto* choosers = new QHBoxLayout;
  choosers->addWidget(group_box_);
  choosers->addWidget(measure_box_);
  choosers->addWidget(mode_box_);
  choosers->addStretch(1);
  auto* controls = new QHBoxLayout;
  controls->addWidget(samples_label);
  controls->addWidget(samples_box_);
  controls->addWidget(run_button_);
  controls->addWidget(cancel_button_);
  controls->addWidget(progress_, 1);
  controls->addStretch(0);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(4);
  layout->addWidget(baseline_label_);
  layout->addLayout(choosers);
  layout->addWidget(stack_, 1);
  layout->addWidget(legend_label_);
  layout->addLayout(controls);
  layout->addWidget(message_label_);

  connect(group_box_, &QComboBox::currentIndexChanged, this, [this] { fillTable(); });
  connect(measure_box_, &QComboBox::currentIndexChanged, this, [this] { fillTable(); });
  connect(mode_box_, &QComboBox::currentIndexChanged, this, [this] { fillTable(); });
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int column) {
    if (row < 0 || row >= layers_ || column < 0 || column > heads_) return;
    Q_EMIT headPicked(currentGroup(), row, column < heads_ ? column : -1);
  });
  connect(run_button_, &QPushButton::clicked, this,
          [this] { Q_EMIT runRequested(samples_box_->value()); });
  connect(cancel_button_, &QPushButton::clicked, this, &HeadAblationTable::cancelRequested);

  syncSelectors();
}

void HeadAblationTable::setResult(HeadAblationData data) {
  data_ = std::move(data);
  syncSelectors();
}

void HeadAblationTable::clear() {
  setResult(HeadAblationData());
}

void HeadAblationTable::setRunning(bool running) {
  running_ = running;
  run_button_->setEnabled(!running);
  samples_box_->setEnabled(!running);
  cancel_button_->setVisible(running);
  cancel_button_->setEnabled(running);
  progress_->setVisible(running);
  if (running) {
    progress_->setRange(0, 0);  // busy until the first setProgress
  }
}

void HeadAblationTable::setProgress(int done, int total) {
  progress_->setRange(0, std::max(0, total));
  progress_->setValue(std::clamp(done, 0, std::max(0, total)));
}

void HeadAblationTable::setMessage(const QString& message) {
  message_label_->setText(message);
  message_label_->setVisible(!message.isEmpty());
}

void HeadAblationTable::setCurrentGroup(const QString& group) {
  const int index = group_box_->findData(group);
  if (index >= 0) group_box_->setCurrentIndex(index);
}

QString HeadAblationTable::currentGroup() const {
  return group_box_->currentData().toString();
}

void HeadAblationTable::setMeasure(const HeadAblationMeasure& measure) {
  const int index = measure_box_->findData(measure.id());
  if (index >= 0) measure_box_->setCurrentIndex(index);
}

HeadAblationMeasure HeadAblationTable::measure() const {
  return measure_box_->count() > 0
             ? HeadAblationMeasure::fromId(data_, measure_box_->currentData().toInt())
             : HeadAblationMeasure::accuracy();
}

void HeadAblationTable::setKeepOnly(bool keep_only) {
  mode_box_->setCurrentIndex(keep_only ? 1 : 0);
}

bool HeadAblationTable::isKeepOnly() const {
  return mode_box_->currentData().toBool();
}

bool HeadAblationTable::isShowingEmptyHint() const {
  return stack_->currentIndex() == 0;
}

std::optional<double> HeadAblationTable::delta(int layer, int head) const {
  const int column = head < 0 ? heads_ : head;
  if (layer < 0 || layer >= layers_ || column > heads_) return std::nullopt;
  return deltas_[static_cast<std::size_t>(layer * (heads_ + 1) + column)];
}

QColor HeadAblationTable::colorFor(double delta) const {
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  const double harm = headAblationHarm(delta, measure());
  const double strength = std::min(1.0, std::abs(harm) / color_limit_);
  return PlotTheme::mix(theme.background,
                        harm > 0 ? worseColor(theme.dark) : betterColor(theme.dark), strength);
}

void HeadAblationTable::syncSelectors() {
  QStringList groups;
  for (const HeadAblationRow& row : data_.rows) {
    if (!groups.contains(row.group)) groups << row.group;
  }
  // A figure is a choice when the baseline and some row have it (a translation's BLEU).
  std::vector<HeadAblationMeasure> measures{HeadAblationMeasure::accuracy()};
  for (int f = 0; f < static_cast<int>(data_.figures.size()); ++f) {
    const HeadAblationMeasure m = HeadAblationMeasure::figureOf(data_, f);
    const bool some_row = std::any_of(data_.rows.begin(), data_.rows.end(), [&](const auto& row) {
      return headAblationDelta(row, data_.baseline, m).has_value();
    });
    if (some_row) measures.push_back(m);
  }
  measures.push_back(HeadAblationMeasure::loss());
  {
    const QSignalBlocker block_group(group_box_);
    const QString chosen = currentGroup();
    group_box_->clear();
    for (const QString& g : groups) group_box_->addItem(g, g);
    group_box_->setCurrentIndex(std::max(0, static_cast<int>(groups.indexOf(chosen))));
  }
  group_box_->setVisible(groups.size() > 1);
  {
    const QSignalBlocker block_measure(measure_box_);
    const int chosen = measure_box_->count() > 0 ? measure_box_->currentData().toInt() : -1;
    const bool had_items = measure_box_->count() > 0;
    measure_box_->clear();
    for (const HeadAblationMeasure& m : measures) {
      measure_box_->addItem(headAblationMeasureName(m), m.id());
    }
    const int index = had_items ? measure_box_->findData(chosen) : 0;
    measure_box_->setCurrentIndex(std::max(0, index));
  }
  updateBaseline();
  fillTable();
}

void HeadAblationTable::updateBaseline() {
  const HeadAblationBaseline& b = data_.baseline;
  if (data_.isEmpty()) {
    baseline_label_->hide();
    return;
  }
  QString values = tr("accuracy %1").arg(percent(b.accuracy));
  for (std::size_t f = 0; f < data_.figures.size() && f < b.figures.size(); ++f) {
    if (!b.figures[f]) continue;
    const HeadAblationFigure& info = data_.figures[f];
    values += QStringLiteral(", %1 %2").arg(info.title).arg(*b.figures[f], 0, 'f', info.decimals);
  }
  values += tr(", loss %1").arg(b.loss, 0, 'f', 3);
  baseline_label_->setText(tr("Baseline: %1 on %2 validation samples").arg(values).arg(b.samples));
  baseline_label_->show();
}

QString HeadAblationTable::cellToolTip(const HeadAblationRow& row) const {
  const HeadAblationBaseline& b = data_.baseline;
  const QString where = row.head >= 0
                            ? tr("%1 layer %2 head %3").arg(row.group).arg(row.layer).arg(row.head)
                            : tr("%1 layer %2").arg(row.group).arg(row.layer);
  QStringList lines{where + QStringLiteral(", ") + headAblationKindName(row.ablation)};
  const HeadAblationMeasure accuracy = HeadAblationMeasure::accuracy();
  lines << tr("accuracy %1 (%2)")
               .arg(percent(row.accuracy),
                    headAblationDeltaText(*headAblationDelta(row, b, accuracy), accuracy));
  for (int f = 0; f < static_cast<int>(data_.figures.size()); ++f) {
    const HeadAblationMeasure m = HeadAblationMeasure::figureOf(data_, f);
    if (const auto d = headAblationDelta(row, b, m))
      lines << QStringLiteral("%1 %2 (%3)")
                   .arg(m.info.title,
                        QString::number(*row.figures[static_cast<std::size_t>(f)], 'f',
                                        m.info.decimals),
                        headAblationDeltaText(*d, m));
  }
  const HeadAblationMeasure loss = HeadAblationMeasure::loss();
  lines << tr("loss %1 (%2)")
               .arg(QString::number(row.loss, 'f', 3),
                    headAblationDeltaText(*headAblationDelta(row, b, loss), loss));
  return lines.join(QLatin1Char('\n'));
}

void HeadAblationTable::fillTable() {
  const QString group = currentGroup();
  const HeadAblationMeasure shown = measure();
  const HeadAblationKind kind =
      isKeepOnly() ? HeadAblationKind::KeepOnlyHead : HeadAblationKind::DropHead;
  layers_ = 0;
  heads_ = 0;
  for (const HeadAblationRow& row : data_.rows) {
    if (row.group != group) continue;
    layers_ = std::max(layers_, row.layer + 1);
    heads_ = std::max(heads_, row.head + 1);
  }
  deltas_.assign(static_cast<std::size_t>(layers_ * (heads_ + 1)), std::nullopt);
  std::vector<const HeadAblationRow*> sources(deltas_.size(), nullptr);
  for (const HeadAblationRow& row : data_.rows) {
    if (row.group != group || row.layer < 0) continue;
    int column = -1;
    if (row.ablation == HeadAblationKind::DropLayer)
      column = heads_;
    else if (row.ablation == kind && row.head >= 0)
      column = row.head;
    if (column < 0) continue;
    const auto index = static_cast<std::size_t>(row.layer * (heads_ + 1) + column);
    deltas_[index] = headAblationDelta(row, data_.baseline, shown);
    sources[index] = &row;  // a later row for the same cell wins (a re-run)
  }
  // The scale ends at the largest single-head change; whole layers usually matter far more and
  // would leave every head near the middle colour, so their column saturates instead.
  double head_limit = 0.0, layer_limit = 0.0;
  for (int l = 0; l < layers_; ++l)
    for (int c = 0; c <= heads_; ++c)
      if (const auto& d = deltas_[static_cast<std::size_t>(l * (heads_ + 1) + c)])
        (c < heads_ ? head_limit : layer_limit) =
            std::max(c < heads_ ? head_limit : layer_limit, std::abs(*d));
  color_limit_ = head_limit > 0 ? head_limit : layer_limit > 0 ? layer_limit : 1.0;

  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  table_->clear();
  table_->setRowCount(layers_);
  table_->setColumnCount(layers_ > 0 ? heads_ + 1 : 0);
  QStringList columns;
  for (int h = 0; h < heads_; ++h) columns << QStringLiteral("H%1").arg(h);
  columns << tr("drop layer");
  QStringList rows;
  for (int l = 0; l < layers_; ++l) rows << QStringLiteral("L%1").arg(l);
  if (layers_ > 0) {
    table_->setHorizontalHeaderLabels(columns);
    table_->setVerticalHeaderLabels(rows);
  }
  const QFontMetrics fm(table_->font());
  table_->horizontalHeader()->setMinimumSectionSize(
      fm.horizontalAdvance(QStringLiteral("\u221288.8 pt")) + fm.height());
  for (int l = 0; l < layers_; ++l) {
    for (int c = 0; c <= heads_; ++c) {
      const auto index = static_cast<std::size_t>(l * (heads_ + 1) + c);
      auto* item = new QTableWidgetItem;
      item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
      item->setTextAlignment(Qt::AlignCenter);
      if (const auto& d = deltas_[index]) {
        const QColor fill = colorFor(*d);
        item->setText(headAblationDeltaText(*d, shown));
        item->setBackground(fill);
        // Whichever palette colour stands out more from the fill keeps strong cells readable.
        const bool fg = std::abs(luma(fill) - luma(theme.foreground)) >=
                        std::abs(luma(fill) - luma(theme.background));
        item->setForeground(fg ? theme.foreground : theme.background);
        item->setToolTip(cellToolTip(*sources[index]));
      } else {
        item->setText(QStringLiteral("–"));
        item->setForeground(theme.muted);
        item->setToolTip(sources[index] ? cellToolTip(*sources[index]) : tr("not measured"));
      }
      table_->setItem(l, c, item);
    }
  }
  fitRows();
  stack_->setCurrentIndex(layers_ > 0 ? 1 : 0);
  updateLegend();
}

void HeadAblationTable::updateLegend() {
  if (layers_ <= 0) {
    legend_label_->hide();
    return;
  }
  const HeadAblationMeasure shown = measure();
  const bool dark = PlotTheme::fromPalette(palette(), font()).dark;
  const QString swatch = QStringLiteral("<span style='color:%1'>■</span>");
  const QString limit = headAblationDeltaText(color_limit_, shown).remove(QLatin1Char('+'));
  legend_label_->setText(
      tr("%1 worse than baseline &nbsp; %2 better &nbsp;·&nbsp; colours full at ±%3")
          .arg(swatch.arg(worseColor(dark).name()), swatch.arg(betterColor(dark).name()), limit));
  legend_label_->show();
}

void HeadAblationTable::fitRows() {
  // Rows share the height like a heatmap's, but no taller than three lines: a two-layer model
  // would otherwise get two slabs. Too many layers scroll at the height of one line.
  const QFontMetrics fm(table_->font());
  const int min_h = fm.height() + std::max(4, fm.height() / 3);
  const int max_h = 3 * fm.height();
  const int fitting = layers_ > 0 ? table_->viewport()->height() / layers_ : min_h;
  const int row_h = std::clamp(fitting, min_h, max_h);
  if (table_->verticalHeader()->defaultSectionSize() != row_h)
    table_->verticalHeader()->setDefaultSectionSize(row_h);
}

bool HeadAblationTable::eventFilter(QObject* watched, QEvent* event) {
  if (watched == table_->viewport() && event->type() == QEvent::Resize) fitRows();
  return QWidget::eventFilter(watched, event);
}

void HeadAblationTable::changeEvent(QEvent* event) {
  if ((event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange) && table_)
    fillTable();
  QWidget::changeEvent(event);
}

ExportResult HeadAblationTable::exportImage(const QString& path, ImageFormat format,
                                            const ExportSize& size) {
  if (!stack_->isVisible()) stack_->resize(QSize(size.width, size.height));
  const QString title =
      measure_box_ && measure_box_->count() > 0
          ? tr("Head ablation: %1 with each head switched off").arg(measure_box_->currentText())
          : tr("Head ablation");
  return PlotExporter::saveWidget(stack_, path, format, size, title);
}

ExportResult HeadAblationTable::exportCsv(const QString& path) const {
  QStringList header{QStringLiteral("group"),    QStringLiteral("layer"),   QStringLiteral("head"),
                     QStringLiteral("ablation"), QStringLiteral("samples"), QStringLiteral("loss"),
                     QStringLiteral("accuracy")};
  for (const HeadAblationFigure& f : data_.figures) header << f.key;
  return PlotExporter::writeCsv(path, header, [this](QTextStream& out) {
    const auto figures = [this](const HeadAblationFigureValues& values) {
      QString cells;
      for (std::size_t f = 0; f < data_.figures.size(); ++f) {
        cells += QLatin1Char(',');
        if (f < values.size() && values[f]) cells += QString::number(*values[f], 'g', 7);
      }
      return cells;
    };
    const HeadAblationBaseline& base = data_.baseline;
    out << "baseline,-1,-1,none," << base.samples << ',' << QString::number(base.loss, 'g', 7)
        << ',' << QString::number(base.accuracy, 'g', 7) << figures(base.figures) << '\n';
    for (const HeadAblationRow& row : data_.rows) {
      out << PlotExporter::csvField(row.group) << ',' << row.layer << ',' << row.head << ','
          << PlotExporter::csvField(headAblationKindName(row.ablation)) << ',' << base.samples
          << ',' << QString::number(row.loss, 'g', 7) << ','
          << QString::number(row.accuracy, 'g', 7) << figures(row.figures) << '\n';
    }
  });
}

}  // namespace ascope
