#pragma once
// The Errors dock: a run scored on a data set (figures on top), its confusion matrix
// (classification), and a list of samples, highest loss first: every wrong answer, or the samples
// of the matrix cell clicked. Clicking a sample asks for it to be put under the scope (the app
// shows its attention, decoding and prediction in every dock).
#include <QWidget>

#include <functional>
#include <vector>

#include "widgets/common/exportable.h"
#include "widgets/tables/error_analysis_data.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ascope {

class ConfusionMatrixView;
class ReliabilityDiagramView;

class ErrorAnalysisPanel : public QWidget, public Exportable {
  Q_OBJECT

 public:
  /// Samples the list shows at most: the rest are further down the loss order than anyone reads.
  static constexpr int kMaxListed = 500;

  explicit ErrorAnalysisPanel(QWidget* parent = nullptr);

  void setData(ErrorAnalysisData data);
  const ErrorAnalysisData& data() const { return data_; }
  void clear();
  /// Lists the samples of true class `true_class` answered as `predicted_class`.
  void showCell(int true_class, int predicted_class);
  /// Lists every wrong answer (translation: every sentence not exactly right).
  void showErrors();
  /// A line under the figures: progress of an evaluation, or why it failed; empty hides it.
  void setMessage(const QString& message);

  /// Indices into data().samples of the listed samples, in list order.
  const std::vector<int>& listed() const { return listed_; }
  ConfusionMatrixView* matrix() const { return matrix_; }
  ReliabilityDiagramView* reliability() const { return reliability_; }
  QTableWidget* sampleList() const { return list_; }
  QLabel* summaryLabel() const { return summary_; }
  QLabel* listTitle() const { return list_title_; }
  QLabel* messageLabel() const { return message_; }
  QPushButton* evaluateButton() const { return evaluate_; }

  QString exportBaseName() const override { return QStringLiteral("errors"); }
  ExportResult exportImage(const QString& path, ImageFormat format,
                           const ExportSize& size) override;
  /// The confusion matrix (classification) and the listed samples.
  ExportResult exportCsv(const QString& path) const override;

 Q_SIGNALS:
  /// A listed sample was clicked: its index into data().samples.
  void samplePicked(int sample);
  void evaluateRequested();

 private:
  /// Lists `samples` by loss, titled `title(how many)`.
  void list(std::vector<int> samples, const std::function<QString(int count)>& title);

  ErrorAnalysisData data_;
  std::vector<int> listed_;
  QLabel* summary_ = nullptr;
  QLabel* message_ = nullptr;
  QLabel* hint_ = nullptr;
  ConfusionMatrixView* matrix_ = nullptr;
  ReliabilityDiagramView* reliability_ = nullptr;
  QLabel* list_title_ = nullptr;
  QPushButton* all_errors_ = nullptr;
  QPushButton* evaluate_ = nullptr;
  QTableWidget* list_ = nullptr;
};

}  // namespace ascope
