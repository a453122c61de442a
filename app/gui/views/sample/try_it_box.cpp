#include "app/gui/views/sample/try_it_box.h"

#include <algorithm>

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/sample/minimal_pair_question.h"
#include "app/gui/views/sample/ranked_answer_html.h"
#include "engine/core/regular_file.h"
#include "engine/imaging/image_header.h"
#include "engine/inference/checkpoint_inference.h"
#include "engine/runfolder/run_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "engine/vocabulary/payloads/sample_input.h"

namespace ascope {
namespace {

QString html(const std::string& text) {
  return QString::fromStdString(text).toHtmlEscaped();
}

/// Channel-planar RGB bytes of `image` scaled to side × side (the engine's ImageBuffer layout).
std::vector<std::uint8_t> planarImage(const QImage& image, int side) {
  const QImage rgb = image.convertToFormat(QImage::Format_RGB888)
                         .scaled(side, side, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  const std::size_t plane = static_cast<std::size_t>(side) * side;
  std::vector<std::uint8_t> pixels(plane * 3);
  for (int y = 0; y < side; ++y) {
    const uchar* line = rgb.constScanLine(y);
    for (int x = 0; x < side; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * side + x;
      for (int c = 0; c < 3; ++c) pixels[c * plane + i] = line[x * 3 + c];
    }
  }
  return pixels;
}

/// A reply without an answer: `text` says why.
TryItBox::Reply failed(const QString& text) {
  TryItBox::Reply reply;
  reply.text = text;
  return reply;
}

/// The answer as the box shows it; `beam_width` as asked (0: as the run's settings say).
QString describe(const InferenceAnswer& a, int beam_width) {
  QString text;
  const TaskDescriptor* task = TaskRegistry::instance().find(a.task);
  if (task != nullptr && task->sample_terms.free_text) {
    text = QStringLiteral("<b>%1</b>").arg(html(a.label));
    // A beam's hypotheses (score: log-probability normalised for length): the tree is drawn in
    // the Decoding dock.
    if (a.ranking.size() > 1) {
      text += QStringLiteral("<br><small>") +
              TryItBox::tr("beam of %1: %2 hypotheses in the Decoding dock")
                  .arg(beam_width > 0 ? beam_width : static_cast<int>(a.ranking.size()))
                  .arg(a.ranking.size()) +
              QStringLiteral("</small>");
    }
  } else {
    text = rankedAnswerHtml(a);
    // Said only where it changes what is read: a run without a temperature answers as before.
    if (a.temperature != 1.0) {
      text += QStringLiteral("<br><small>") +
              TryItBox::tr("probabilities calibrated: temperature %1 from calibration.json")
                  .arg(a.temperature, 0, 'g', 4) +
              QStringLiteral("</small>");
    } else if (a.calibration_for_other_weights) {
      text += QStringLiteral("<br><small>%1</small>").arg(html(a.calibration));
    }
    if (!a.calibration_warning.empty()) {
      text += QStringLiteral("<br><small>%1</small>").arg(html(a.calibration_warning));
    }
  }
  return text + QStringLiteral("<br><small>checkpoint at step %1</small>").arg(a.step);
}

}  // namespace

/// Runs on the worker: the run's files are checked first (a FIFO among them would block the
/// pool thread in open()), then the checkpoint answers.
TryItBox::Reply TryItBox::askJob(const InferenceRequest& request, const QString& image_name) {
  if (Status files = checkRunFilesReadable(request.run_dir); !files.ok()) {
    return failed(html(files.error()));
  }
  Expected<InferenceAnswer> answer = inferFromCheckpoint(request);
  if (!answer.ok()) return failed(html(answer.error()));
  return replyOf(*answer, request, image_name);
}

TryItBox::Reply TryItBox::pairJob(const InferenceRequest& request, const std::string& text_b) {
  if (Status files = checkRunFilesReadable(request.run_dir); !files.ok()) {
    return failed(html(files.error()));
  }
  Expected<MinimalPairReply> asked = askMinimalPair(request, text_b);
  if (!asked.ok()) return failed(html(asked.error()));
  Reply reply = replyOf(asked->a, request, {});
  MinimalPairPlotData& pair = asked->pair;
  reply.text = tr("<b>A</b>: %1<br><b>B</b>: %2")
                   .arg(pair.answer_a.toHtmlEscaped(), pair.answer_b.toHtmlEscaped());
  if (!pair.ranking.isEmpty()) {
    const MinimalPairPlotData::HeadChange& top = pair.ranking.front();
    reply.text += tr("<br><small>most changed: %1 · layer %2 · head %3 (%4)</small>")
                      .arg(pair.a.groups[static_cast<size_t>(top.group)].name.toHtmlEscaped())
                      .arg(top.layer)
                      .arg(top.head)
                      .arg(top.change, 0, 'f', 2);
  }
  reply.caption = tr("<b>A minimal pair under the scope</b>: “%1” | “%2”")
                      .arg(pair.input_a.toHtmlEscaped(), pair.input_b.toHtmlEscaped());
  // Moved, not copied: a long pair of a large model is hundreds of megabytes.
  reply.pair = std::move(pair);
  return reply;
}

TryItBox::Reply TryItBox::replyOf(const InferenceAnswer& answer, const InferenceRequest& request,
                                  const QString& image_name) {
  Reply reply;
  reply.text = describe(answer, request.beam_width);
  reply.ok = true;
  if (!answer.attention.groups.empty()) {
    reply.attention = toAttentionPlotData(answer.attention);
    reply.attention->step = answer.step;
    SamplePrediction& sample = reply.sample;
    sample.step = answer.step;
    sample.task = answer.task;
    sample.sample_index = -1;
    sample.input = request.text;
    // The picture the attention is drawn over, shared with the attention: not copied.
    sample.payloads.put(sharedInputOf(answer.attention.payloads));
    sample.answer = answer.label;
    sample.probability = answer.probability;
    const QString input = request.text.empty()
                              ? image_name
                              : QStringLiteral("“%1”").arg(QString::fromStdString(request.text));
    reply.caption = tr("<b>Your input under the scope</b>: %1 → <b>%2</b> (checkpoint at step "
                       "%3)")
                        .arg(input.toHtmlEscaped(), html(answer.label))
                        .arg(answer.step);
  }
  return reply;
}

/// Runs on the worker: reads and decodes the image only once it is known to be a regular file of
/// a sane size whose header announces a sane number of pixels, then asks.
TryItBox::Reply TryItBox::imageJob(InferenceRequest request, const QString& path, int side) {
  const std::string file = path.toStdString();
  Expected<std::string> bytes = readRegularFile(file, kMaxImageFileBytes);
  if (!bytes.ok()) return failed(html(bytes.error()));
  if (Expected<ImageSize> size = checkImageHeader(*bytes, file); !size.ok()) {
    return failed(html(size.error()));
  }
  QImage image;
  if (!image.loadFromData(
          QByteArray::fromRawData(bytes->data(), static_cast<int>(bytes->size())))) {
    return failed(tr("%1: not an image Qt can read").arg(path.toHtmlEscaped()));
  }
  request.image_width = request.image_height = side;
  request.image_planar = planarImage(image, side);
  return askJob(request, QFileInfo(path).fileName());
}

TryItBox::TryItBox(const CurrentRun* run, QWidget* parent) : QWidget(parent), run_(run) {
  input_ = new QLineEdit(this);
  input_->setObjectName(QStringLiteral("tryItInput"));
  input_->setClearButtonEnabled(true);
  ask_ = new QPushButton(tr("Ask"), this);
  image_button_ = new QPushButton(tr("Choose image…"), this);
  answer_ = new QLabel(this);
  answer_->setObjectName(QStringLiteral("tryItAnswer"));
  answer_->setWordWrap(true);
  answer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  beam_ = new QSpinBox(this);
  beam_->setObjectName(QStringLiteral("tryItBeam"));
  beam_->setRange(1, 1);  // the task's max_beam_width, once a task that has one is chosen
  beam_->setPrefix(tr("beam "));
  beam_->setToolTip(
      tr("Translate with a beam search keeping this many hypotheses at each step "
         "(1: greedy). The Decoding dock draws the beam; click a hypothesis there "
         "to step through its attention."));
  auto* title = new QLabel(tr("<b>Try it</b>"), this);
  auto* row = new QHBoxLayout;
  row->addWidget(input_, 1);
  row->addWidget(image_button_, 1);
  row->addWidget(beam_);
  row->addWidget(ask_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 6);
  layout->setSpacing(3);
  layout->addWidget(title);
  layout->addLayout(row);
  layout->addWidget(answer_);

  connect(ask_, &QPushButton::clicked, this, [this] { askText(input_->text()); });
  connect(input_, &QLineEdit::returnPressed, this, [this] { askText(input_->text()); });
  connect(image_button_, &QPushButton::clicked, this, &TryItBox::chooseImage);
  connect(&watcher_, &QFutureWatcher<Reply>::finished, this, &TryItBox::onFinished);
  connect(run_, &CurrentRun::runChanged, this, &TryItBox::refresh);
  connect(run_, &CurrentRun::folderChanged, this, &TryItBox::refresh);
  // The newest checkpoint is written when a run ends: worth a fresh hint then.
  connect(run_, &CurrentRun::stateChanged, this, [this](TrainerState state) {
    if (isFinalState(state)) refresh();
  });
  refresh();
}

TryItBox::~TryItBox() {
  watcher_.waitForFinished();
}

void TryItBox::setPendingTask(const QString& task) {
  pending_task_ = task;
  refresh();
}

int TryItBox::imageSide() const {
  return run_->task() ? run_->task()->image_side(run_->config()) : 0;
}

void TryItBox::refresh() {
  const TaskDescriptor* task =
      run_->task() ? run_->task() : TaskRegistry::instance().find(pending_task_.toStdString());
  const bool image = task != nullptr && task->input == TaskInput::kImage;
  input_->setVisible(!image);
  ask_->setVisible(!image);
  // Only a task that decodes token by token has a beam to search.
  const bool decodes = task != nullptr && task->max_beam_width > 0;
  if (decodes) beam_->setMaximum(task->max_beam_width);
  beam_->setVisible(decodes);
  image_button_->setVisible(image);
  input_->setPlaceholderText(task ? QString::fromStdString(task->input_hint) : QString());
  const QString folder = run_->folder();
  const bool ready = !folder.isEmpty() && !isBusy();
  for (QWidget* w : {static_cast<QWidget*>(input_), static_cast<QWidget*>(ask_),
                     static_cast<QWidget*>(image_button_), static_cast<QWidget*>(beam_)}) {
    w->setEnabled(ready);
  }
  if (folder.isEmpty()) {
    answer_->setText(
        tr("<small>Ask the model once a run has a checkpoint (end of each "
           "epoch).</small>"));
  } else if (!isBusy()) {
    answer_->setText(image ? tr("<small>Pick a PNG or JPEG; it is resized to %1 × %1 and "
                                "classified by the run's newest checkpoint.</small>")
                                 .arg(imageSide())
                           : tr("<small>Asks the run's newest checkpoint (written at the end "
                                "of each epoch).</small>"));
  }
}

void TryItBox::askText(const QString& text) {
  if (run_->folder().isEmpty() || isBusy()) return;
  if (text.trimmed().isEmpty()) {
    // Said, not ignored: a scripted --ask " " would otherwise wait for an answer that never comes.
    answer_->setText(tr("the text is empty: type a text for the model"));
    Q_EMIT answered(answer_->text(), false);
    return;
  }
  InferenceRequest request;
  request.run_dir = run_->folder().toStdString();
  request.text = text.trimmed().toStdString();
  if (beam_->isVisibleTo(this)) request.beam_width = beam_->value();
  asked_text_ = QString::fromStdString(request.text);
  asked_image_.clear();
  // "too big | too small": a minimal pair, both asked and compared head by head.
  if (const auto pair = splitPair(text)) {
    request.text = pair->first.toStdString();
    asked_text_ = pair->first;
    start([request, b = pair->second.toStdString()] { return pairJob(request, b); });
    return;
  }
  start([request] { return askJob(request); });
}

void TryItBox::askImage(const QString& path) {
  const int side = imageSide();
  if (run_->folder().isEmpty() || isBusy() || side <= 0) return;
  // Nothing of the file is touched here: opening a FIFO or decoding a decompression bomb on the
  // GUI thread would freeze the window.
  InferenceRequest request;
  request.run_dir = run_->folder().toStdString();
  asked_text_.clear();
  asked_image_ = path;
  start([request, path, side] { return imageJob(request, path, side); });
}

void TryItBox::start(const std::function<Reply()>& job) {
  answer_->setText(tr("<i>thinking…</i>"));
  ask_->setEnabled(false);
  image_button_->setEnabled(false);
  watcher_.setFuture(QtConcurrent::run(job));
}

void TryItBox::onFinished() {
  const Reply reply = watcher_.result();
  answer_->setText(reply.text);
  ask_->setEnabled(!run_->folder().isEmpty());
  image_button_->setEnabled(!run_->folder().isEmpty());
  if (reply.attention) Q_EMIT inputExamined(*reply.attention, reply.sample, reply.caption);
  if (reply.pair) Q_EMIT pairExamined(*reply.pair);
  Q_EMIT answered(reply.text, reply.ok);
}

void TryItBox::chooseImage() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Image to classify"), {},
                                                    tr("Images (*.png *.jpg *.jpeg *.bmp *.ppm)"));
  if (!path.isEmpty()) askImage(path);
}

}  // namespace ascope
