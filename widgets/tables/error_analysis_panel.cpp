#include "widgets/tables/error_analysis_panel.h"

#include <QFile>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPdfWriter>
#include <QPushButton>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/tables/confusion_matrix_view.h"
#include "widgets/tables/reliability_diagram_view.h"

namespace ascope {
namespace {

QString csvField(QString text) {
  if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
      text.contains(QLatin1Char('\n'))) {
    text.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + text + QLatin1Char('"');
  }
  return text;
}

QString oneLine(QString text, int n = 160) {
  text.replace(QLatin1Char('\n'), QLatin1Char(' '));
  return text.size() > n ? text.left(n) + QStringLiteral("…") : text;
}

}  // namespace

ErrorAnalysisPanel::ErrorAnalysisPanel(QWidget* parent) : QWidget(parent) {
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("errorsSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("errorsMessage"));
  message_->setWordWrap(true);
  message_->hide();
  evaluate_ = new QPushButton(tr("Evaluate on…"), this);
  evaluate_->setToolTip(tr("Score the shown run on a data set and split, then analyse its errors"));
  hint_ = new QLabel(tr("<small>Evaluate the shown run on a data set (Run → Evaluate on…): the "
                        "confusion matrix and the most confidently wrong samples appear here; "
                        "click one to see what the model looked at.</small>"),
                     this);
  hint_->setWordWrap(true);
  matrix_ = new ConfusionMatrixView(this);
  reliability_ = new ReliabilityDiagramView(this);
  list_title_ = new QLabel(this);
  list_title_->setObjectName(QStringLiteral("errorsListTitle"));
  all_errors_ = new QPushButton(tr("All errors"), this);
  all_errors_->setToolTip(tr("List every wrong answer again, highest loss first"));
  list_ = new QTableWidget(this);
  list_->setObjectName(QStringLiteral("errorsList"));
  list_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  list_->setSelectionBehavior(QAbstractItemView::SelectRows);
  list_->setSelectionMode(QAbstractItemView::SingleSelection);
  list_->verticalHeader()->hide();
  list_->horizontalHeader()->setStretchLastSection(true);
  list_->setWordWrap(false);

  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(evaluate_, 0, Qt::AlignTop);
  auto* list_bar = new QHBoxLayout;
  list_bar->addWidget(list_title_, 1);
  list_bar->addWidget(all_errors_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(4);
  layout->addLayout(top);
  layout->addWidget(message_);
  layout->addWidget(hint_);
  // The confusion matrix says which answers are wrong, the diagram how far to trust the right.
  auto* figures = new QHBoxLayout;
  figures->addWidget(matrix_, 3);
  figures->addWidget(reliability_, 2);
  layout->addLayout(figures, 2);
  layout->addLayout(list_bar);
  layout->addWidget(list_, 3);

  connect(evaluate_, &QPushButton::clicked, this, &ErrorAnalysisPanel::evaluateRequested);
  connect(all_errors_, &QPushButton::clicked, this, &ErrorAnalysisPanel::showErrors);
  connect(matrix_, &ConfusionMatrixView::cellPicked, this, &ErrorAnalysisPanel::showCell);
  connect(list_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (row >= 0 && row < static_cast<int>(listed_.size())) {
      Q_EMIT samplePicked(listed_[static_cast<std::size_t>(row)]);
    }
  });
  clear();
}

void ErrorAnalysisPanel::setData(ErrorAnalysisData data) {
  data_ = std::move(data);
  hint_->setVisible(data_.isEmpty());
  summary_->setText(
      QStringLiteral("<b>%1</b><br>%2").arg(data_.title.toHtmlEscaped(), data_.summary));
  matrix_->setVisible(data_.hasClasses() && !data_.isEmpty());
  if (data_.hasClasses()) {
    matrix_->setMatrix(data_.classes, data_.confusion);
  } else {
    matrix_->clearMatrix();
  }
  reliability_->setVisible(!data_.reliability.isEmpty());
  reliability_->setDiagram(data_.reliability);
  showErrors();
}

void ErrorAnalysisPanel::clear() {
  data_ = ErrorAnalysisData{};
  listed_.clear();
  summary_->setText(tr("<b>Errors</b>"));
  hint_->show();
  matrix_->clearMatrix();
  matrix_->hide();
  reliability_->clearDiagram();
  reliability_->hide();
  list_->clear();
  list_->setRowCount(0);
  list_->setColumnCount(0);
  list_title_->clear();
  all_errors_->setEnabled(false);
  setMessage({});
}

void ErrorAnalysisPanel::setMessage(const QString& message) {
  message_->setText(message);
  message_->setVisible(!message.isEmpty());
}

void ErrorAnalysisPanel::showErrors() {
  std::vector<int> wrong;
  for (std::size_t i = 0; i < data_.samples.size(); ++i) {
    if (!data_.samples[i].correct) wrong.push_back(static_cast<int>(i));
  }
  const bool free_text = data_.terms.free_text;
  list(std::move(wrong), [free_text](int n) {
    return free_text ? tr("%1 answers not exactly right, highest loss first").arg(n)
                     : tr("%1 wrong answers, highest loss first").arg(n);
  });
}

void ErrorAnalysisPanel::showCell(int true_class, int predicted_class) {
  std::vector<int> samples;
  for (std::size_t i = 0; i < data_.samples.size(); ++i) {
    const ErrorAnalysisSample& s = data_.samples[i];
    if (s.true_class == true_class && s.predicted_class == predicted_class) {
      samples.push_back(static_cast<int>(i));
    }
  }
  const QString truth = data_.classes.value(true_class);
  const QString answer = data_.classes.value(predicted_class);
  list(std::move(samples), [truth, answer](int n) {
    return tr("%1 samples of %2 answered %3, highest loss first").arg(n).arg(truth, answer);
  });
}

void ErrorAnalysisPanel::list(std::vector<int> samples,
                              const std::function<QString(int count)>& title) {
  std::stable_sort(samples.begin(), samples.end(), [this](int a, int b) {
    return data_.samples[static_cast<std::size_t>(a)].loss >
           data_.samples[static_cast<std::size_t>(b)].loss;
  });
  const int total = static_cast<int>(samples.size());
  if (total > kMaxListed) samples.resize(kMaxListed);
  listed_ = std::move(samples);
  QString shown = title(total);
  if (total > kMaxListed) shown += tr(" (the first %1 listed)").arg(kMaxListed);
  list_title_->setText(data_.isEmpty() ? QString() : shown);
  all_errors_->setEnabled(!data_.isEmpty());

  list_->clear();
  // Free-text answers read best beside their input; class answers are short, their input long.
  const ErrorAnalysisTerms& terms = data_.terms;
  const bool free_text = terms.free_text;
  const QStringList headers =
      free_text ? QStringList{tr("#"), tr("loss"), terms.input, terms.answer, terms.truth}
                : QStringList{tr("#"), tr("loss"), terms.truth, terms.answer, tr("p"), terms.input};
  list_->setColumnCount(static_cast<int>(headers.size()));
  list_->setHorizontalHeaderLabels(headers);
  list_->setRowCount(static_cast<int>(listed_.size()));
  for (int row = 0; row < static_cast<int>(listed_.size()); ++row) {
    const ErrorAnalysisSample& s = data_.samples[static_cast<std::size_t>(listed_[row])];
    QStringList cells{QString::number(s.index), QString::number(s.loss, 'f', 3)};
    if (free_text) {
      cells << oneLine(s.input) << oneLine(s.answer) << oneLine(s.truth);
    } else {
      cells << s.truth << s.answer << QString::number(s.probability, 'f', 3) << oneLine(s.input);
    }
    for (int column = 0; column < cells.size(); ++column) {
      auto* item = new QTableWidgetItem(cells[column]);
      if (column == cells.size() - 1 || (free_text && column >= 2)) {
        item->setToolTip(column == 2 && free_text ? s.input
                                                  : (free_text ? cells[column] : s.input));
      }
      list_->setItem(row, column, item);
    }
  }
  list_->resizeColumnsToContents();
}

ExportResult ErrorAnalysisPanel::exportImage(const QString& path, ImageFormat format,
                                             const ExportSize& size) {
  // The dock as it is laid out, fitted into the requested page.
  const QSize shown = this->size().isEmpty() ? QSize(size.width, size.height) : this->size();
  const double fit = std::min(static_cast<double>(size.width) / shown.width(),
                              static_cast<double>(size.height) / shown.height());
  auto paint = [&](QPaintDevice* device) {
    QPainter painter(device);
    painter.scale(fit, fit);
    render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  };
  if (format == ImageFormat::Png) {
    QImage image(QSize(size.width, size.height) * size.scale, QImage::Format_ARGB32);
    image.fill(palette().color(QPalette::Window));
    image.setDevicePixelRatio(size.scale);
    paint(&image);
    if (!image.save(path, "PNG")) return ExportResult::failure(tr("cannot write %1").arg(path));
    return ExportResult::success();
  }
  if (format == ImageFormat::Pdf) {
    QPdfWriter writer(path);
    writer.setPageSize(QPageSize(QSizeF(size.width, size.height), QPageSize::Point));
    writer.setPageMargins(QMarginsF(0, 0, 0, 0));
    writer.setResolution(72);
    paint(&writer);
    return QFile::exists(path) ? ExportResult::success()
                               : ExportResult::failure(tr("cannot write %1").arg(path));
  }
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(QSize(size.width, size.height));
  svg.setViewBox(QRect(0, 0, size.width, size.height));
  paint(&svg);
  return QFile::exists(path) ? ExportResult::success()
                             : ExportResult::failure(tr("cannot write %1").arg(path));
}

ExportResult ErrorAnalysisPanel::exportCsv(const QString& path) const {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly | QIODevice::Text)) {
    return ExportResult::failure(tr("cannot write %1: %2").arg(path, file.errorString()));
  }
  QTextStream out(&file);
  if (data_.hasClasses() && !data_.isEmpty()) {
    out << "true\\answered";
    for (const QString& c : data_.classes) out << ',' << csvField(c);
    out << '\n';
    for (int t = 0; t < data_.confusion.size(); ++t) {
      out << csvField(data_.classes.value(t));
      for (qint64 v : data_.confusion[t]) out << ',' << v;
      out << '\n';
    }
    out << '\n';
  }
  out << "index,loss,true,answered,probability,correct,input\n";
  for (int i : listed_) {
    const ErrorAnalysisSample& s = data_.samples[static_cast<std::size_t>(i)];
    out << s.index << ',' << s.loss << ',' << csvField(s.truth) << ',' << csvField(s.answer) << ','
        << s.probability << ',' << (s.correct ? 1 : 0) << ',' << csvField(s.input) << '\n';
  }
  out.flush();
  if (!file.commit()) {
    return ExportResult::failure(tr("cannot write %1: %2").arg(path, file.errorString()));
  }
  return ExportResult::success();
}

}  // namespace ascope
