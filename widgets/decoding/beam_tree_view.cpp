#include "widgets/decoding/beam_tree_view.h"

#include "widgets/common/plot_theme.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace ascope {
namespace {

constexpr double kTreeMargin = 8;
constexpr double kColumnGap = 28;
constexpr double kRowGap = 6;
constexpr double kPadding = 4;

QString fateName(BeamTreeData::Fate fate) {
  switch (fate) {
    case BeamTreeData::Fate::Kept:
      return BeamTreeView::tr("kept");
    case BeamTreeData::Fate::Finished:
      return BeamTreeView::tr("finished");
    case BeamTreeData::Fate::Pruned:
      break;
  }
  return BeamTreeView::tr("pruned");
}

}  // namespace

BeamTreeView::BeamTreeView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("beamTree"));
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
  setToolTip(
      tr("The beam: each column a decoding step, each box a candidate with its score "
         "(log-probability normalised for length). Framed: finished; grey: pruned. "
         "Click a candidate to see the best finished hypothesis through it."));
}

void BeamTreeView::setTree(std::shared_ptr<const BeamTreeData> tree) {
  tree_ = std::move(tree);
  chosen_ = 0;
  step_ = -1;
  layOut();
  updateGeometry();
  update();
}

void BeamTreeView::setChosen(int hypothesis) {
  chosen_ = hypothesis;
  update();
}

void BeamTreeView::setStep(int step) {
  step_ = step;
  update();
}

void BeamTreeView::layOut() {
  rects_.clear();
  extent_ = {};
  if (!tree_) return;
  const QFontMetricsF metrics(font());
  const double line = metrics.height();
  // Each step's candidates, best first; a column as wide as its widest box.
  std::map<int, std::vector<int>> columns;
  for (std::size_t i = 0; i < tree_->nodes.size(); ++i)
    columns[tree_->nodes[i].step].push_back(static_cast<int>(i));
  rects_.assign(tree_->nodes.size(), QRectF());
  double x = kTreeMargin, bottom = 0;
  for (auto& [step, nodes] : columns) {
    std::stable_sort(nodes.begin(), nodes.end(), [this](int a, int b) {
      return tree_->nodes[static_cast<std::size_t>(a)].log_prob >
             tree_->nodes[static_cast<std::size_t>(b)].log_prob;
    });
    double width = 0;
    for (int n : nodes) {
      const BeamTreeData::Node& node = tree_->nodes[static_cast<std::size_t>(n)];
      width = std::max({width, metrics.horizontalAdvance(node.token),
                        metrics.horizontalAdvance(QString::number(node.score, 'f', 2))});
    }
    width += 2 * kPadding;
    double y = kTreeMargin + line;  // room for the step's title
    for (int n : nodes) {
      rects_[static_cast<std::size_t>(n)] = QRectF(x, y, width, 2 * line + kPadding);
      y += 2 * line + kPadding + kRowGap;
    }
    bottom = std::max(bottom, y);
    x += width + kColumnGap;
  }
  extent_ = QSizeF(x - kColumnGap + kTreeMargin, bottom + kTreeMargin);
}

QRectF BeamTreeView::nodeRect(int node) const {
  if (node < 0 || node >= static_cast<int>(rects_.size())) return {};
  return rects_[static_cast<std::size_t>(node)];
}

int BeamTreeView::nodeAt(const QPointF& pos) const {
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    if (rects_[i].contains(pos)) return static_cast<int>(i);
  }
  return -1;
}

QString BeamTreeView::nodeText(int node) const {
  if (!tree_ || node < 0 || node >= static_cast<int>(tree_->nodes.size())) return {};
  const BeamTreeData::Node& n = tree_->nodes[static_cast<std::size_t>(node)];
  return tr("%1 · score %2 · log p %3 · %4")
      .arg(n.token, QString::number(n.score, 'f', 3), QString::number(n.log_prob, 'f', 3),
           fateName(n.fate));
}

QSize BeamTreeView::sizeHint() const {
  return extent_.isEmpty() ? QSize(200, 80) : extent_.toSize();
}

QSize BeamTreeView::minimumSizeHint() const {
  return QSize(100, std::min(sizeHint().height(), 160));
}

void BeamTreeView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const PlotTheme theme = PlotTheme::fromPalette(palette(), font());
  painter.fillRect(rect(), theme.background);
  if (!tree_ || rects_.empty()) return;
  const QFontMetricsF metrics(font());
  const double line = metrics.height();
  std::vector<int> chosen_path;
  if (chosen_ >= 0 && chosen_ < static_cast<int>(tree_->hypotheses.size()))
    chosen_path = tree_->pathTo(tree_->hypotheses[static_cast<std::size_t>(chosen_)].node);
  const auto onPath = [&chosen_path](int n) {
    return std::find(chosen_path.begin(), chosen_path.end(), n) != chosen_path.end();
  };
  // Step titles and the current step's shade.
  std::map<int, QRectF> columns;
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    QRectF& c = columns[tree_->nodes[i].step];
    c = c.isNull() ? rects_[i] : c.united(rects_[i]);
  }
  for (const auto& [step, column] : columns) {
    if (step == step_) {
      QColor shade = theme.accent;
      shade.setAlphaF(0.12f);
      painter.fillRect(QRectF(column.left() - 4, kTreeMargin - 2, column.width() + 8,
                              height() - 2 * kTreeMargin + 4),
                       shade);
    }
    painter.setPen(theme.muted);
    painter.drawText(QRectF(column.left(), kTreeMargin - 2, column.width() + kColumnGap, line),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("step %1").arg(step + 1));
  }
  // Links first, boxes over them.
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    const BeamTreeData::Node& n = tree_->nodes[i];
    if (n.parent < 0 || n.parent >= static_cast<int>(rects_.size())) continue;
    const QRectF& from = rects_[static_cast<std::size_t>(n.parent)];
    const QRectF& to = rects_[i];
    const bool path = onPath(static_cast<int>(i));
    QColor colour = path ? theme.accent : theme.grid;
    painter.setPen(QPen(colour, path ? 2.0 : 1.0));
    QPainterPath link(QPointF(from.right(), from.center().y()));
    const double mid = (from.right() + to.left()) / 2;
    link.cubicTo(QPointF(mid, from.center().y()), QPointF(mid, to.center().y()),
                 QPointF(to.left(), to.center().y()));
    painter.drawPath(link);
  }
  for (std::size_t i = 0; i < rects_.size(); ++i) {
    const BeamTreeData::Node& n = tree_->nodes[i];
    const QRectF& r = rects_[i];
    const bool path = onPath(static_cast<int>(i));
    const bool pruned = n.fate == BeamTreeData::Fate::Pruned;
    QColor border = path ? theme.accent : (pruned ? theme.grid : theme.muted);
    painter.setPen(QPen(border, n.fate == BeamTreeData::Fate::Finished ? 2.0 : 1.0,
                        pruned ? Qt::DotLine : Qt::SolidLine));
    painter.setBrush(pruned ? Qt::NoBrush : QBrush(theme.background));
    painter.drawRoundedRect(r, 3, 3);
    painter.setPen(pruned ? theme.muted : theme.foreground);
    QFont bold = font();
    bold.setBold(path);
    painter.setFont(bold);
    painter.drawText(QRectF(r.left(), r.top() + kPadding / 2, r.width(), line), Qt::AlignCenter,
                     n.token);
    painter.setFont(font());
    painter.setPen(theme.muted);
    painter.drawText(QRectF(r.left(), r.top() + line + kPadding / 2, r.width(), line),
                     Qt::AlignCenter, QString::number(n.score, 'f', 2));
  }
}

void BeamTreeView::mousePressEvent(QMouseEvent* event) {
  const int node = nodeAt(event->position());
  if (node < 0 || !tree_) return QWidget::mousePressEvent(event);
  const int hypothesis = tree_->hypothesisThrough(node);
  if (hypothesis < 0) return;  // pruned: no finished hypothesis goes through it
  setChosen(hypothesis);
  Q_EMIT hypothesisChosen(hypothesis);
}

bool BeamTreeView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int node = nodeAt(help->pos());
    if (node >= 0) {
      QToolTip::showText(help->globalPos(), nodeText(node), this);
      return true;
    }
  }
  if (event->type() == QEvent::FontChange) layOut();
  return QWidget::event(event);
}

}  // namespace ascope
