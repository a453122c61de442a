#pragma once

#include "widgets/common/exportable.h"
#include "widgets/tables/head_stats_series.h"
#include "widgets/tables/head_stats_store.h"

#include <QWidget>

#include <cstdint>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QScrollArea;
class QSplitter;
class QStackedWidget;

namespace ascope {

class HeadStatsGrid;

/// Per-head statistics over training: pick the attention group and the metric, and every head
/// appears as a sparkline in a layers x heads grid (HeadStatsGrid, scrolling when it does not
/// fit), with the value at the run's cursor step. Metrics in [0, 1] share the scale 0..1, others
/// (entropy, distance) go up to the largest value of any head, shown above the grid. Notes (a
/// head became previous-token, …) are marked on their cell and listed below, newest first.
/// Clicking a cell or a note asks to look at that head at that step (headPicked).
class HeadStatsGridPanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  explicit HeadStatsGridPanel(QWidget* parent = nullptr);

  /// Names, descriptions and scales of the metrics, in the order the chooser lists them.
  /// Metrics that only appear in the data are listed after them, on a scale of their own.
  void setMetrics(std::vector<HeadStatsMetric> metrics);
  /// The statistics of one probe (live training); cheap, repaints once.
  void appendStatistics(std::int64_t step, const std::vector<HeadStatsPoint>& rows);
  /// Every probe of an opened run; replaces what was shown.
  void setStatistics(const std::vector<HeadStatsProbe>& probes);
  void addNote(const HeadKindNote& note);
  void setNotes(std::vector<HeadKindNote> notes);
  /// Forgets statistics and notes (a new run); keeps the metric descriptions.
  void clear();

  /// The run's timeline step; cells show their values at it. Negative: the newest values.
  void setCursorStep(std::int64_t step);
  std::int64_t cursorStep() const;

  void setCurrentGroup(const QString& group);
  void setCurrentMetric(const QString& metric);
  QString currentGroup() const;
  QString currentMetric() const;
  /// The value scale of the shown metric: 0..1, or 0 (or the smallest value, when negative) up to
  /// the largest value of any head of the group.
  std::pair<double, double> valueRange() const;
  /// "scale 0 – 1", or "scale 0 – 7.42 (largest of all heads)", shown above the grid.
  QString scaleText() const;

  const HeadStatsStore& store() const { return store_; }
  const std::vector<HeadKindNote>& notes() const { return notes_; }
  HeadStatsGrid* grid() const { return grid_; }
  QScrollArea* gridScrollArea() const { return scroll_; }
  QComboBox* groupSelector() const { return group_box_; }
  QComboBox* metricSelector() const { return metric_box_; }
  /// The scale and the metric's description, above the grid.
  QLabel* infoLabel() const { return info_label_; }
  QListWidget* notesList() const { return notes_list_; }
  bool isShowingEmptyHint() const;

  /// "head_statistics": the grid of the shown group and metric as a figure; every statistic of
  /// every head and probe step as CSV (step, group, metric, layer, head, value).
  QString exportBaseName() const override { return QStringLiteral("head_statistics"); }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  /// 0-based layer and head; `step` is the recorded step nearest the click, or the note's.
  void headPicked(QString group, int layer, int head, qint64 step);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  const HeadStatsMetric* metricInfo(const QString& name) const;
  /// Refills the choosers when the data brought new groups or metrics, keeping the choice.
  void syncSelectors();
  void showSelection();
  void fillNotesList();
  void pickNote(QListWidgetItem* item);

  HeadStatsStore store_;
  std::vector<HeadStatsMetric> metric_info_;
  std::vector<HeadKindNote> notes_;

  QStackedWidget* stack_ = nullptr;
  QComboBox* group_box_ = nullptr;
  QComboBox* metric_box_ = nullptr;
  QLabel* info_label_ = nullptr;
  QScrollArea* scroll_ = nullptr;
  QSplitter* split_ = nullptr;
  HeadStatsGrid* grid_ = nullptr;
  QWidget* notes_box_ = nullptr;
  QListWidget* notes_list_ = nullptr;
};

}  // namespace ascope
