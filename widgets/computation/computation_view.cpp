#include "widgets/computation/computation_view.h"

#include "widgets/common/fitting_label.h"
#include "widgets/computation/cell_breakdown_view.h"
#include "widgets/computation/computation_bar_plot.h"
#include "widgets/computation/stage_figure.h"
#include "widgets/computation/stage_heatmap_view.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace ascope {

ComputationView::ComputationView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(3);
  heading_ = new FittingLabel(this);
  heading_->setObjectName(QStringLiteral("computationHeading"));
  QFont bold = heading_->font();
  bold.setBold(true);
  heading_->setFont(bold);
  weights_ = new FittingLabel(this);
  weights_->setObjectName(QStringLiteral("computationWeights"));
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("computationStatus"));
  status_->setWordWrap(true);
  status_->setVisible(false);
  button_row_ = new QWidget(this);
  auto* buttons = new QHBoxLayout(button_row_);
  buttons->setContentsMargins(0, 0, 0, 0);
  buttons->setSpacing(2);
  buttons->addStretch(1);
  button_group_ = new QButtonGroup(this);
  button_group_->setExclusive(true);
  connect(button_group_, &QButtonGroup::idClicked, this, &ComputationView::setCurrentStage);

  split_ = new QSplitter(Qt::Horizontal, this);
  split_->setChildrenCollapsible(false);
  stack_ = new QStackedWidget(split_);
  breakdown_ = new CellBreakdownView(split_);
  breakdown_->setMinimumWidth(220);
  auto* button_layout = static_cast<QHBoxLayout*>(button_row_->layout());
  for (int i = 0; i < kStages; ++i) {
    auto* figure = new StageFigure(stack_);
    stack_->addWidget(figure);
    connect(figure, &StageFigure::cellClicked, this, &ComputationView::cellChosen);
    figures_.push_back(figure);
    stale_.push_back(false);
    auto* button = new QToolButton(button_row_);
    button->setCheckable(true);
    button->setObjectName(QStringLiteral("computationStage%1").arg(i));
    button_group_->addButton(button, i);
    button_layout->insertWidget(i, button);
    buttons_.append(button);
    full_texts_.append(QString());
    short_texts_.append(QString());
  }
  split_->addWidget(stack_);
  split_->addWidget(breakdown_);
  split_->setStretchFactor(0, 3);
  split_->setStretchFactor(1, 2);
  // The stage is the figure; the breakdown beside it takes two fifths.
  split_->setSizes({600, 400});

  layout->addWidget(heading_);
  layout->addWidget(weights_);
  layout->addWidget(status_);
  layout->addWidget(button_row_);
  // The row asks for no more than its names need; fitStageButtons picks the texts that fit.
  button_row_->installEventFilter(this);
  layout->addWidget(split_, 1);
  clear();
}

ComputationView::~ComputationView() = default;

void ComputationView::clear() {
  data_.reset();
  cell_query_ = cell_key_ = -1;
  heading_->setVersions({tr("Computation: choose a head in the Attention dock")});
  weights_->setVersions({});
  breakdown_->clear();
  rebuildStages();
}

int ComputationView::stageCount() const {
  return data_ ? static_cast<int>(data_->stages.size()) : 0;
}

StageFigure* ComputationView::stageFigure(int index) const {
  syncFigure(index);
  return index >= 0 && index < static_cast<int>(figures_.size())
             ? figures_[static_cast<std::size_t>(index)]
             : nullptr;
}

void ComputationView::setStatus(const QString& text) {
  status_->setText(text);
  status_->setVisible(!text.isEmpty());
}

QString ComputationView::status() const {
  return status_->isVisible() ? status_->text() : QString();
}

QString ComputationView::figureTitle() const {
  return data_ ? data_->heading : QString();
}

void ComputationView::setComputation(std::shared_ptr<const ComputationPlotData> data) {
  data_ = std::move(data);
  if (!data_ || data_->isEmpty()) {
    const QString status = this->status();
    clear();
    setStatus(status);
    return;
  }
  breakdown_->setSlideHeading(data_->heading);
  heading_->setVersions({data_->answer.isEmpty()
                             ? data_->heading
                             : tr("%1 · answer: %2").arg(data_->heading, data_->answer),
                         data_->heading});
  if (data_->step_warning.isEmpty()) {
    weights_->setVersions({data_->weights_note});
  } else {
    const QString warning = QStringLiteral("<b>%1</b>").arg(data_->step_warning.toHtmlEscaped());
    weights_->setVersions({warning});
  }
  rebuildStages();
}

void ComputationView::rebuildStages() {
  const int count = std::min(stageCount(), kStages);
  for (int i = 0; i < kStages; ++i) {
    QToolButton* button = buttons_[i];
    const bool used = i < count;
    button->setVisible(used);
    stale_[static_cast<std::size_t>(i)] = used;
    if (!used) {
      figures_[static_cast<std::size_t>(i)]->clear();
      continue;
    }
    const ComputationStage& stage = data_->stages[static_cast<std::size_t>(i)];
    full_texts_[i] = QStringLiteral("%1\n%2").arg(stage.short_title, stage.shape());
    short_texts_[i] = stage.short_title;
    button->setToolTip(QStringLiteral("%1 · %2 = %3\n%4")
                           .arg(stage.title, stage.shape_words, stage.shape(), stage.formula));
  }
  button_row_->setVisible(count > 0);
  fitStageButtons();
  setCurrentStage(std::min(current_, std::max(0, count - 1)));
}

void ComputationView::syncFigure(int index) const {
  if (index < 0 || index >= stageCount() || index >= kStages) return;
  const auto at = static_cast<std::size_t>(index);
  if (!stale_[at]) return;
  stale_[at] = false;
  figures_[at]->setStage(data_, index);
  figures_[at]->setCell(cell_query_, cell_key_);
}

bool ComputationView::eventFilter(QObject* watched, QEvent* event) {
  if (watched == button_row_ && event->type() == QEvent::Resize) fitStageButtons();
  return QWidget::eventFilter(watched, event);
}

void ComputationView::fitStageButtons() {
  const auto widths = [this](const QStringList& texts) {
    QList<int> out;
    for (int i = 0; i < buttons_.size(); ++i) {
      QToolButton probe;
      probe.setFont(buttons_[i]->font());
      probe.setText(texts[i]);
      out << probe.sizeHint().width();
    }
    return out;
  };
  const QList<int> full = widths(full_texts_);
  const QList<int> brief = widths(short_texts_);
  const int spacing = button_row_->layout()->spacing();
  int full_sum = 0, brief_sum = 0;
  for (int i = 0; i < buttons_.size(); ++i) {
    if (!buttons_[i]->isVisibleTo(this)) continue;
    full_sum += full[i] + spacing;
    brief_sum += brief[i] + spacing;
  }
  button_row_->setMinimumWidth(brief_sum);
  const bool roomy = button_row_->width() >= full_sum;
  for (int i = 0; i < buttons_.size(); ++i) {
    buttons_[i]->setText(roomy ? full_texts_[i] : short_texts_[i]);
    buttons_[i]->setFixedWidth(roomy ? full[i] : brief[i]);
  }
}

void ComputationView::setCurrentStage(int index) {
  current_ = index;
  for (int i = 0; i < stack_->count(); ++i) {
    // Hidden pages ask for no room: the dock's minimum is the shown stage's.
    const auto policy = i == index ? QSizePolicy::Preferred : QSizePolicy::Ignored;
    stack_->widget(i)->setSizePolicy(policy, policy);
  }
  syncFigure(index);
  if (index >= 0 && index < stack_->count()) stack_->setCurrentIndex(index);
  if (index >= 0 && index < buttons_.size()) buttons_[index]->setChecked(true);
}

void ComputationView::setBreakdown(const CellBreakdownData& cell) {
  cell_query_ = cell.isValid() ? cell.query : -1;
  cell_key_ = cell.isValid() ? cell.key : -1;
  for (int i = 0; i < std::min(stageCount(), kStages); ++i) {
    if (!stale_[static_cast<std::size_t>(i)])
      figures_[static_cast<std::size_t>(i)]->setCell(cell_query_, cell_key_);
  }
  breakdown_->setBreakdown(cell);
}

QList<Exportable*> ComputationView::exportables() const {
  QList<Exportable*> out;
  for (int i = 0; i < std::min(stageCount(), kStages); ++i) {
    syncFigure(i);
    for (StageHeatmapView* view : figures_[static_cast<std::size_t>(i)]->views()) out << view;
  }
  if (cell_query_ >= 0) {
    out << breakdown_->productsPlot() << breakdown_->rowPlot();
    if (breakdown_->partsPlot()->isVisibleTo(breakdown_)) out << breakdown_->partsPlot();
  }
  return out;
}

}  // namespace ascope
