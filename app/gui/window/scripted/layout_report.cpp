#include "app/gui/window/scripted/layout_report.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScreen>
#include <QStatusBar>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QToolBar>
#include <QToolButton>

#include <algorithm>
#include <limits>

#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/curves/curves_presenter.h"
#include "app/gui/views/run/live_learning_rate_box.h"
#include "app/gui/views/run/run_control_bar.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/views/run/run_progress_strip.h"
#include "app/gui/window/layout/dock_layout.h"
#include "app/gui/window/main/main_window.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_heatmap_view.h"
#include "widgets/common/fitting_label.h"
#include "widgets/common/themed_plot.h"
#include "widgets/curves/metric_curve_panel.h"

namespace ascope {

namespace {

/// A little slack for rounding at fractional scale factors.
constexpr int kSlackPx = 1;

QJsonObject sizeOf(const QSize& size) {
  return {{QStringLiteral("width"), size.width()}, {QStringLiteral("height"), size.height()}};
}

/// Where a widget is, for a person reading the report: "Attention › groupSelector (QComboBox)".
QString describe(const QWidget* widget) {
  QString where;
  for (const QWidget* p = widget; p != nullptr; p = p->parentWidget()) {
    if (const auto* dock = qobject_cast<const QDockWidget*>(p)) {
      where = dock->windowTitle();
      break;
    }
    if (qobject_cast<const QToolBar*>(p) != nullptr) {
      where = QStringLiteral("toolbar");
      break;
    }
    if (qobject_cast<const QStatusBar*>(p) != nullptr) {
      where = QStringLiteral("status bar");
      break;
    }
  }
  const QString name =
      widget->objectName().isEmpty()
          ? QString::fromLatin1(widget->metaObject()->className())
          : QStringLiteral("%1 (%2)").arg(widget->objectName(), widget->metaObject()->className());
  return where.isEmpty() ? name : where + QStringLiteral(" › ") + name;
}

QString plain(QString text) {
  text.remove(QLatin1Char('&'));
  return text;
}

/// A widget that shortens a text and gives it whole in the tooltip is fine; one that just cuts
/// it off is not.
QString kindOf(const QWidget* widget, const QString& full_text) {
  return widget->toolTip().contains(full_text) ? QStringLiteral("elided")
                                               : QStringLiteral("clipped");
}

QJsonObject misfit(const QString& kind, const QWidget* widget, const QString& text, int needed,
                   int available) {
  return {{QStringLiteral("kind"), kind},
          {QStringLiteral("widget"), describe(widget)},
          {QStringLiteral("text"), text},
          {QStringLiteral("needed"), needed},
          {QStringLiteral("available"), available}};
}

/// A plot's colour scale (bar, ticks and label) must lie inside the plot and beside its cells,
/// not cut at the plot's edge or drawn over the heatmaps.
void checkColorScales(const QCustomPlot* plot, QJsonArray& out) {
  const auto* themed = qobject_cast<const ThemedPlot*>(plot);
  if (themed != nullptr && themed->isEmptyState()) return;  // a hint instead of data: no scale
  for (QCPLayoutElement* element : plot->plotLayout()->elements(true)) {
    const auto* scale = qobject_cast<const QCPColorScale*>(element);
    if (scale == nullptr || !scale->visible() || scale->outerRect().isEmpty()) continue;
    const QRect bar = scale->outerRect();
    const QString label =
        scale->label().isEmpty() ? QStringLiteral("colour scale") : scale->label();
    const QRect inside = plot->viewport().adjusted(-kSlackPx, -kSlackPx, kSlackPx, kSlackPx);
    if (!inside.contains(bar) || bar.width() + kSlackPx < scale->minimumSize().width()) {
      out << misfit(QStringLiteral("clipped"), plot, label, scale->minimumSize().width(),
                    std::min(bar.width(), plot->viewport().right() + 1 - bar.left()));
      continue;
    }
    for (const QCPAxisRect* cells : plot->axisRects()) {
      const QRect overlap = cells->outerRect().intersected(bar);
      if (overlap.width() > kSlackPx && overlap.height() > kSlackPx) {
        out << misfit(QStringLiteral("clipped"), plot, label + QStringLiteral(" (over the cells)"),
                      bar.width(), bar.width() - overlap.width());
        break;
      }
    }
  }
}

void checkLabel(const QLabel* label, QJsonArray& out) {
  const QVariant full = label->property(FittingLabel::kFullTextProperty);
  if (full.isValid()) {
    if (full.toString() != label->text()) {
      out << misfit(kindOf(label, full.toString()), label, full.toString(),
                    label->fontMetrics().horizontalAdvance(full.toString()), label->width());
    }
    return;
  }
  if (label->text().isEmpty()) return;
  if (label->wordWrap()) {
    const int needed = label->heightForWidth(label->width());
    if (needed > label->height() + kSlackPx) {
      out << misfit(QStringLiteral("clipped"), label, label->text(), needed, label->height());
    }
    return;
  }
  const int needed = label->sizeHint().width();
  if (needed > label->width() + kSlackPx) {
    out << misfit(QStringLiteral("clipped"), label, label->text(), needed, label->width());
  }
}

void checkButton(const QAbstractButton* button, QJsonArray& out) {
  const QString text = plain(button->text());
  if (text.isEmpty()) return;
  int needed = 0;
  if (const auto* tool = qobject_cast<const QToolButton*>(button)) {
    if (tool->toolButtonStyle() == Qt::ToolButtonIconOnly) return;
    needed = tool->sizeHint().width();
  } else if (qobject_cast<const QCheckBox*>(button) != nullptr ||
             qobject_cast<const QRadioButton*>(button) != nullptr) {
    needed = button->sizeHint().width();
  } else {
    // Not the push button's size hint: styles give it a minimum width its text does not need.
    const QStyle* style = button->style();
    needed = button->fontMetrics().horizontalAdvance(text) +
             2 * style->pixelMetric(QStyle::PM_ButtonMargin, nullptr, button) +
             2 * style->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, button);
    if (!button->icon().isNull()) needed += button->iconSize().width() + 4;
    // A button as wide as its own size hint shows its whole text, whatever the estimate says.
    needed = std::min(needed, button->sizeHint().width());
  }
  if (needed > button->width() + kSlackPx) {
    out << misfit(QStringLiteral("clipped"), button, text, needed, button->width());
  }
}

void checkComboBox(const QComboBox* box, QJsonArray& out) {
  const QString text = box->currentText();
  if (text.isEmpty() || box->isEditable()) return;
  QStyleOptionComboBox option;
  option.initFrom(box);
  option.editable = false;
  option.currentText = text;
  const QRect field =
      box->style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, box);
  int needed = box->fontMetrics().horizontalAdvance(text);
  if (!box->itemIcon(box->currentIndex()).isNull()) needed += box->iconSize().width() + 4;
  if (needed > field.width() + kSlackPx) {
    out << misfit(kindOf(box, text), box, text, needed, field.width());
  }
}

void checkTabBar(const QTabBar* bar, QJsonArray& out) {
  const int padding = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
  for (int i = 0; i < bar->count(); ++i) {
    if (!bar->isTabVisible(i)) continue;
    const QString text = plain(bar->tabText(i));
    if (text.isEmpty()) continue;
    int needed = bar->fontMetrics().horizontalAdvance(text);
    if (!bar->tabIcon(i).isNull()) needed += bar->iconSize().width() + 4;
    const QRect tab = bar->tabRect(i);
    const int available = tab.width() - padding;
    const bool cut = needed > available + kSlackPx;
    const bool out_of_view = !bar->rect().contains(tab);
    if (!cut && !out_of_view) continue;
    QJsonObject item = misfit(
        bar->tabToolTip(i).contains(text) ? QStringLiteral("elided") : QStringLiteral("clipped"),
        bar, text, needed, out_of_view ? 0 : available);
    item.insert(QStringLiteral("widget"), describe(bar) + QStringLiteral(" › tab %1").arg(i));
    out << item;
  }
}

void checkProgressBar(const QProgressBar* bar, QJsonArray& out) {
  if (!bar->isTextVisible() || bar->maximum() == 0) return;
  const QString text = bar->text();
  const int needed = bar->fontMetrics().horizontalAdvance(text);
  const int available = bar->contentsRect().width() - 4;
  if (needed > available + kSlackPx) {
    out << misfit(QStringLiteral("clipped"), bar, text, needed, available);
  }
}

}  // namespace

QRect LayoutReport::unclippedRect(const QWidget* widget, const QWidget* top) {
  QRect rect = widget->rect();
  QPoint offset(0, 0);  // of `widget` in the coordinates of `w`
  for (const QWidget* w = widget; w != top && w->parentWidget() != nullptr; w = w->parentWidget()) {
    offset += w->pos();
    rect &= w->parentWidget()->rect().translated(-offset);
  }
  return rect;
}

bool LayoutReport::fullyVisible(const QWidget* widget, const QWidget* top) {
  if (widget == nullptr || !widget->isVisible() || widget->width() <= 0 || widget->height() <= 0)
    return false;
  return unclippedRect(widget, top) == widget->rect();
}

QJsonArray LayoutReport::textsThatDoNotFit(const QWidget* top) {
  QJsonArray out;
  for (const QWidget* w : top->findChildren<QWidget*>()) {
    if (!w->isVisible() || unclippedRect(w, top).isEmpty()) continue;
    if (const auto* label = qobject_cast<const QLabel*>(w)) {
      checkLabel(label, out);
    } else if (const auto* button = qobject_cast<const QAbstractButton*>(w)) {
      checkButton(button, out);
    } else if (const auto* box = qobject_cast<const QComboBox*>(w)) {
      checkComboBox(box, out);
    } else if (const auto* bar = qobject_cast<const QTabBar*>(w)) {
      checkTabBar(bar, out);
    } else if (const auto* progress = qobject_cast<const QProgressBar*>(w)) {
      checkProgressBar(progress, out);
    } else if (const auto* plot = qobject_cast<const QCustomPlot*>(w)) {
      checkColorScales(plot, out);
    }
  }
  return out;
}

QJsonObject LayoutReport::measure(const MainWindow& window) {
  QJsonObject report;
  report.insert(QStringLiteral("window"), sizeOf(window.size()));
  if (const QScreen* screen = window.screen()) {
    QJsonObject s = sizeOf(screen->geometry().size());
    s.insert(QStringLiteral("available_width"), screen->availableGeometry().width());
    s.insert(QStringLiteral("available_height"), screen->availableGeometry().height());
    s.insert(QStringLiteral("device_pixel_ratio"), screen->devicePixelRatio());
    report.insert(QStringLiteral("screen"), s);
  }
  report.insert(QStringLiteral("minimum_window"), sizeOf(window.minimumSizeHint()));

  QJsonArray docks;
  for (const QDockWidget* dock : window.dockLayout()->docks()) {
    if (!dock->isVisible() || dock->visibleRegion().isEmpty()) continue;
    QJsonObject d = sizeOf(dock->size());
    d.insert(QStringLiteral("title"), dock->windowTitle());
    d.insert(QStringLiteral("object_name"), dock->objectName());
    // What keeps the window from getting narrower: the docks side by side add these up.
    d.insert(QStringLiteral("minimum"), sizeOf(dock->minimumSizeHint()));
    docks << d;
  }
  report.insert(QStringLiteral("docks"), docks);

  const RunControlBar* controls = window.runControls();
  const RunPresenter* run = window.runPanel();
  QJsonObject reach;
  bool all = true;
  const auto control = [&](const char* name, const QWidget* widget) {
    const bool visible = fullyVisible(widget, &window);
    all = all && visible;
    reach.insert(QString::fromLatin1(name), visible);
  };
  control("start", controls->button(run->startAction()));
  control("pause", controls->button(run->pauseAction()));
  control("step", controls->button(run->stepAction()));
  control("stop", controls->button(run->stopAction()));
  control("progress", controls->progress()->bar());
  control("state", controls->progress()->stateBadge());
  control("learning_rate", controls->liveLearningRate()->rateEdit());
  reach.insert(QStringLiteral("all"), all);
  reach.insert(QStringLiteral("compactness"), controls->compactness());
  report.insert(QStringLiteral("run_controls"), reach);

  int smallest_plot = std::numeric_limits<int>::max();
  int smallest_area = std::numeric_limits<int>::max();
  for (const MetricCurvePanel* curve : {window.curves()->loss(), window.curves()->accuracy()}) {
    const ThemedPlot* plot = curve->plot();
    if (!plot->isVisible() || unclippedRect(plot, &window).isEmpty()) continue;
    smallest_plot = std::min(smallest_plot, unclippedRect(plot, &window).height());
    smallest_area = std::min(smallest_area, plot->axisRect()->height());
  }
  const bool any_curve = smallest_plot != std::numeric_limits<int>::max();
  report.insert(QStringLiteral("smallest_curve_plot_height"),
                any_curve ? QJsonValue(smallest_plot) : QJsonValue());
  report.insert(QStringLiteral("smallest_curve_area_height"),
                any_curve ? QJsonValue(smallest_area) : QJsonValue());

  // The enlarged head's plot area as the Attention dock leaves it on screen (~45 px
  // square at 1280 × 720 in the Train workspace, titles and axes cut).
  const AttentionHeatmapView* head = window.attention()->panel()->headView();
  const QRect head_shown = unclippedRect(head, &window).intersected(head->axisRect()->rect());
  report.insert(QStringLiteral("enlarged_head"), head->isVisible() && !head_shown.isEmpty()
                                                     ? QJsonValue(sizeOf(head_shown.size()))
                                                     : QJsonValue());

  // Every other window shown (File → Compare, dialogs) must fit the screen it is on too.
  QJsonArray windows;
  bool all_fit = true;
  for (const QWidget* top : QApplication::topLevelWidgets()) {
    if (top == &window || !top->isVisible() || top->windowType() == Qt::ToolTip ||
        top->windowType() == Qt::Popup || top->screen() == nullptr)
      continue;
    const QRect frame = top->frameGeometry();
    const bool fits = top->screen()->availableGeometry().contains(frame);
    all_fit = all_fit && fits;
    QJsonObject w = sizeOf(frame.size());
    w.insert(QStringLiteral("title"), top->windowTitle());
    w.insert(QStringLiteral("x"), frame.x());
    w.insert(QStringLiteral("y"), frame.y());
    w.insert(QStringLiteral("fits_screen"), fits);
    windows << w;
  }
  report.insert(QStringLiteral("windows"), windows);
  report.insert(QStringLiteral("all_windows_fit"), all_fit);

  const QJsonArray misfits = textsThatDoNotFit(&window);
  int clipped = 0;
  for (const QJsonValue& m : misfits) {
    if (m[QStringLiteral("kind")] == QStringLiteral("clipped")) ++clipped;
  }
  report.insert(QStringLiteral("texts_not_fitting"), misfits);
  report.insert(QStringLiteral("clipped_count"), clipped);
  return report;
}

}  // namespace ascope
