#include "widgets/tables/head_stats_grid_panel.h"

#include "widgets/common/empty_hint.h"
#include "widgets/common/plot_exporter.h"
#include "widgets/tables/head_stats_grid.h"
#include "widgets/tables/head_stats_text.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStackedWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace ascope {
namespace {

constexpr int kNoteRole = Qt::UserRole + 1;

/// Replaces a chooser's items when they differ from `names`, keeping the chosen name when it is
/// still there. Returns true when the items changed.
bool syncItems(QComboBox* box, const QStringList& names, const QStringList& labels) {
  QStringList current;
  for (int i = 0; i < box->count(); ++i) current << box->itemData(i).toString();
  if (current == names) return false;
  const QString chosen = box->currentData().toString();
  const QSignalBlocker block(box);
  box->clear();
  for (int i = 0; i < names.size(); ++i) box->addItem(labels[i], names[i]);
  box->setCurrentIndex(std::max(0, static_cast<int>(names.indexOf(chosen))));
  return true;
}

}  // namespace

HeadStatsGridPanel::HeadStatsGridPanel(QWidget* parent) : QWidget(parent) {
  auto* hint = new EmptyHint(tr("Head statistics appear at the first attention probe"), this);

  group_box_ = new QComboBox(this);
  group_box_->setObjectName(QStringLiteral("groupSelector"));
  group_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  group_box_->setMinimumContentsLength(8);
  group_box_->setToolTip(tr("Which attention: encoder self, decoder self or cross"));
  metric_box_ = new QComboBox(this);
  metric_box_->setObjectName(QStringLiteral("metricSelector"));
  metric_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  metric_box_->setMinimumContentsLength(10);
  // Scale and description share one wrapping line: a narrow dock at a large font still shows
  // all of it.
  info_label_ = new QLabel(this);
  info_label_->setObjectName(QStringLiteral("metricInfo"));
  info_label_->setWordWrap(true);
  info_label_->setTextFormat(Qt::RichText);

  grid_ = new HeadStatsGrid(&store_, this);
  scroll_ = new QScrollArea(this);
  scroll_->setWidget(grid_);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setBackgroundRole(QPalette::Base);

  notes_box_ = new QWidget(this);
  auto* notes_title = new QLabel(tr("Notes"), notes_box_);
  QFont title_font = notes_title->font();
  title_font.setBold(true);
  notes_title->setFont(title_font);
  notes_list_ = new QListWidget(notes_box_);
  notes_list_->setObjectName(QStringLiteral("notesList"));
  notes_list_->setWordWrap(true);
  notes_list_->setToolTip(tr("Click a note to look at that head at that step"));
  auto* notes_layout = new QVBoxLayout(notes_box_);
  notes_layout->setContentsMargins(6, 2, 6, 2);
  notes_layout->setSpacing(2);
  notes_layout->addWidget(notes_title);
  notes_layout->addWidget(notes_list_, 1);
  notes_box_->hide();

  split_ = new QSplitter(Qt::Vertical, this);
  split_->addWidget(scroll_);
  split_->addWidget(notes_box_);
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 0);
  split_->setChildrenCollapsible(false);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(6, 2, 6, 0);
  bar->addWidget(group_box_);
  bar->addSpacing(6);
  bar->addWidget(metric_box_);
  bar->addStretch(1);
  auto* content = new QWidget(this);
  auto* content_layout = new QVBoxLayout(content);
  content_layout->setContentsMargins(0, 0, 0, 0);
  content_layout->setSpacing(2);
  content_layout->addLayout(bar);
  auto* info_row = new QHBoxLayout;
  info_row->setContentsMargins(6, 0, 6, 0);
  info_row->addWidget(info_label_);
  content_layout->addLayout(info_row);
  content_layout->addWidget(split_, 1);

  stack_ = new QStackedWidget(this);
  stack_->addWidget(hint);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(group_box_, &QComboBox::currentIndexChanged, this, [this] { showSelection(); });
  connect(metric_box_, &QComboBox::currentIndexChanged, this, [this] { showSelection(); });
  connect(grid_, &HeadStatsGrid::cellClicked, this, [this](int layer, int head, qint64 step) {
    Q_EMIT headPicked(currentGroup(), layer, head, step);
  });
  connect(notes_list_, &QListWidget::itemClicked, this, &HeadStatsGridPanel::pickNote);
}

void HeadStatsGridPanel::setMetrics(std::vector<HeadStatsMetric> metrics) {
  metric_info_ = std::move(metrics);
  metric_box_->clear();  // relabelled and reordered by syncSelectors
  syncSelectors();
}

void HeadStatsGridPanel::appendStatistics(std::int64_t step,
                                          const std::vector<HeadStatsPoint>& rows) {
  store_.append(step, rows);
  syncSelectors();
}

void HeadStatsGridPanel::setStatistics(const std::vector<HeadStatsProbe>& probes) {
  store_.set(probes);
  syncSelectors();
}

void HeadStatsGridPanel::addNote(const HeadKindNote& note) {
  notes_.push_back(note);
  fillNotesList();
  grid_->setNotes(notes_);
}

void HeadStatsGridPanel::setNotes(std::vector<HeadKindNote> notes) {
  notes_ = std::move(notes);
  fillNotesList();
  grid_->setNotes(notes_);
}

void HeadStatsGridPanel::clear() {
  store_.clear();
  notes_.clear();
  fillNotesList();
  grid_->setNotes({});
  grid_->setPickedCell(-1, -1);
  syncSelectors();
}

void HeadStatsGridPanel::setCursorStep(std::int64_t step) {
  grid_->setCursorStep(step);
}

std::int64_t HeadStatsGridPanel::cursorStep() const {
  return grid_->cursorStep();
}

void HeadStatsGridPanel::setCurrentGroup(const QString& group) {
  const int index = group_box_->findData(group);
  if (index >= 0) group_box_->setCurrentIndex(index);
}

void HeadStatsGridPanel::setCurrentMetric(const QString& metric) {
  const int index = metric_box_->findData(metric);
  if (index >= 0) metric_box_->setCurrentIndex(index);
}

QString HeadStatsGridPanel::currentGroup() const {
  return group_box_->currentData().toString();
}

QString HeadStatsGridPanel::currentMetric() const {
  return metric_box_->currentData().toString();
}

bool HeadStatsGridPanel::isShowingEmptyHint() const {
  return stack_->currentIndex() == 0;
}

const HeadStatsMetric* HeadStatsGridPanel::metricInfo(const QString& name) const {
  for (const HeadStatsMetric& m : metric_info_)
    if (m.name == name) return &m;
  return nullptr;
}

QString HeadStatsGridPanel::scaleText() const {
  const HeadStatsMetric* info = metricInfo(currentMetric());
  const auto [low, high] = valueRange();
  const QString range =
      tr("scale %1 – %2")
          .arg(low == 0.0 ? QStringLiteral("0") : headStatsValueText(low),
               info && info->unit_range ? QStringLiteral("1") : headStatsValueText(high));
  return info && info->unit_range ? range : tr("%1 (largest of all heads)").arg(range);
}

std::pair<double, double> HeadStatsGridPanel::valueRange() const {
  const HeadStatsMetric* info = metricInfo(currentMetric());
  if (info && info->unit_range) return {0.0, 1.0};
  const auto range = store_.valueRange(currentGroup(), currentMetric());
  if (!range) return {0.0, 1.0};
  const double low = std::min(0.0, range->first);
  const double high = range->second > low ? range->second : low + 1.0;
  return {low, high};
}

void HeadStatsGridPanel::syncSelectors() {
  QStringList groups = store_.groups();
  QStringList metrics;
  for (const HeadStatsMetric& m : metric_info_)
    if (store_.metrics().contains(m.name)) metrics << m.name;
  for (const QString& m : store_.metrics())
    if (!metrics.contains(m)) metrics << m;
  QStringList metric_labels;
  for (const QString& m : metrics) metric_labels << headStatsMetricLabel(m);
  syncItems(group_box_, groups, groups);
  if (syncItems(metric_box_, metrics, metric_labels)) {
    for (int i = 0; i < metric_box_->count(); ++i) {
      const HeadStatsMetric* info = metricInfo(metrics[i]);
      metric_box_->setItemData(i, info ? info->description : QString(), Qt::ToolTipRole);
    }
  }
  group_box_->setVisible(groups.size() > 1);
  stack_->setCurrentIndex(store_.isEmpty() ? 0 : 1);
  showSelection();
}

void HeadStatsGridPanel::showSelection() {
  const QString metric = currentMetric();
  const auto [low, high] = valueRange();
  grid_->setSelection(currentGroup(), metric, low, high);
  const HeadStatsMetric* info = metricInfo(metric);
  const QString description = info ? info->description : QString();
  QString text = scaleText().toHtmlEscaped();
  if (!description.isEmpty()) {
    const QColor muted = palette().color(QPalette::PlaceholderText);
    text += QStringLiteral(" &nbsp;·&nbsp; <span style='color:%1'>%2</span>")
                .arg(muted.name(), description.toHtmlEscaped());
  }
  info_label_->setText(text);
  metric_box_->setToolTip(info ? info->description : QString());
}

void HeadStatsGridPanel::changeEvent(QEvent* event) {
  // The description's colour is written into the label's text.
  if (event->type() == QEvent::PaletteChange && info_label_) showSelection();
  QWidget::changeEvent(event);
}

void HeadStatsGridPanel::fillNotesList() {
  // Newest first; of notes at one step, the one added last first.
  std::vector<int> order(notes_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
    const auto sa = notes_[static_cast<std::size_t>(a)].step;
    const auto sb = notes_[static_cast<std::size_t>(b)].step;
    return sa != sb ? sa > sb : a > b;
  });
  notes_list_->clear();
  for (int index : order) {
    const HeadKindNote& note = notes_[static_cast<std::size_t>(index)];
    auto* item = new QListWidgetItem(
        tr("step %1 · %2: %3")
            .arg(headStatsStepText(note.step), headStatsHeadName(note.group, note.layer, note.head),
                 note.text),
        notes_list_);
    item->setData(kNoteRole, index);
  }
  const bool was_hidden = notes_box_->isHidden();
  notes_box_->setVisible(!notes_.empty());
  if (was_hidden && !notes_.empty()) {
    // The list's own size hint (about 190 px) would take a third of a small dock: start with a
    // few lines and let the splitter give it more.
    const auto box_height = [this](int lines) {
      const QMargins margins = notes_box_->layout()->contentsMargins();
      return notes_list_->fontMetrics().height() * lines + 2 * notes_list_->frameWidth() +
             margins.top() + margins.bottom() + notes_box_->layout()->spacing() +
             notes_box_->fontMetrics().height() + 4;
    };
    // Three lines (the list scrolls): on a short dock (1280 × 720) the grid comes first.
    notes_box_->setMaximumHeight(box_height(3));
    const int total = std::max(split_->height(), 2 * box_height(3));
    split_->setSizes({total - box_height(3), box_height(3)});
  }
}

void HeadStatsGridPanel::pickNote(QListWidgetItem* item) {
  if (!item) return;
  const int index = item->data(kNoteRole).toInt();
  if (index < 0 || index >= static_cast<int>(notes_.size())) return;
  const HeadKindNote note = notes_[static_cast<std::size_t>(index)];
  setCurrentGroup(note.group);
  grid_->setPickedCell(note.layer, note.head);
  Q_EMIT headPicked(note.group, note.layer, note.head, note.step);
}

ExportResult HeadStatsGridPanel::exportImage(const QString& path, ImageFormat format,
                                             const ExportSize& size) {
  // In a dock not shown yet the grid has never been laid out: give it the figure's shape.
  if (!grid_->isVisible())
    grid_->resize(grid_->sizeHint().expandedTo(QSize(size.width, size.height)));
  const QString title = currentMetric().isEmpty()
                            ? tr("Head statistics")
                            : tr("Head statistics: %1 of every head over training, %2")
                                  .arg(metric_box_->currentText(), group_box_->currentText());
  return PlotExporter::saveWidget(grid_, path, format, size, title);
}

ExportResult HeadStatsGridPanel::exportCsv(const QString& path) const {
  return PlotExporter::writeCsv(
      path,
      {QStringLiteral("step"), QStringLiteral("group"), QStringLiteral("metric"),
       QStringLiteral("layer"), QStringLiteral("head"), QStringLiteral("value")},
      [this](QTextStream& out) {
        const std::vector<std::int64_t>& steps = store_.steps();
        for (const QString& group : store_.groups()) {
          for (const QString& metric : store_.metrics()) {
            for (int layer = 0; layer < store_.layerCount(group); ++layer) {
              for (int head = 0; head < store_.headCount(group); ++head) {
                const std::vector<float>* series = store_.series(group, metric, layer, head);
                if (series == nullptr) continue;
                for (std::size_t i = 0; i < series->size() && i < steps.size(); ++i) {
                  if (std::isnan((*series)[i])) continue;
                  out << steps[i] << ',' << PlotExporter::csvField(group) << ','
                      << PlotExporter::csvField(metric) << ',' << layer << ',' << head << ','
                      << QString::number((*series)[i], 'g', 7) << '\n';
                }
              }
            }
          }
        }
      });
}

}  // namespace ascope
