#include "app/gui/window/dialogs/pretrained_inspection_window.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/views/attention/attention_plot_conversion.h"
#include "app/gui/views/attention/attention_presenter.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/sample/ranked_answer_html.h"
#include "engine/inference/pretrained_inspection.h"
#include "widgets/attention/attention_head_grid_panel.h"
#include "widgets/attention/attention_model_view.h"

namespace ascope {
namespace {

QString html(const std::string& text) {
  return QString::fromStdString(text).toHtmlEscaped();
}

QString describeInspection(const InferenceAnswer& a) {
  QString text = rankedAnswerHtml(a);
  if (!a.note.empty()) text += QStringLiteral("<br><small>%1</small>").arg(html(a.note));
  return text;
}

}  // namespace

PretrainedInspectionWindow::Reply PretrainedInspectionWindow::inspectJob(
    const PretrainedInspectionRequest& request, const QString& input) {
  Reply reply;
  Expected<InferenceAnswer> answer = inspectPretrained(request);
  if (!answer.ok()) {
    reply.text = html(answer.error());
    return reply;
  }
  reply.ok = true;
  reply.text = describeInspection(*answer);
  if (!answer->attention.groups.empty()) {
    reply.attention = toAttentionPlotData(answer->attention);
    reply.caption =
        tr("<b>%1 under the scope</b>: %2 → <b>%3</b> (pretrained, no training)")
            .arg(QFileInfo(QString::fromStdString(request.model_folder)).fileName().toHtmlEscaped(),
                 input.toHtmlEscaped(), html(answer->label));
  }
  return reply;
}

PretrainedInspectionWindow::PretrainedInspectionWindow(AttentionPresenter* attention,
                                                       const PretrainedModelChoice* offered,
                                                       QWidget* parent)
    : QWidget(parent, Qt::Window), attention_(attention), offered_(offered) {
  setObjectName(QStringLiteral("pretrainedInspectionWindow"));
  setWindowTitle(tr("Inspect pretrained model"));
  model_box_ = new QComboBox(this);
  model_box_->setObjectName(QStringLiteral("inspectModelBox"));
  model_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  model_box_->setMinimumContentsLength(24);
  auto* choose = new QPushButton(tr("Choose folder…"), this);
  text_ = new QLineEdit(this);
  text_->setObjectName(QStringLiteral("inspectText"));
  text_->setClearButtonEnabled(true);
  text_->setPlaceholderText(tr("BERT: a sentence, e.g. the movie was great"));
  pair_ = new QLineEdit(this);
  pair_->setObjectName(QStringLiteral("inspectPair"));
  pair_->setClearButtonEnabled(true);
  pair_->setPlaceholderText(tr("optional second sentence (token type 1)"));
  inspect_ = new QPushButton(tr("Inspect"), this);
  inspect_->setDefault(true);
  image_button_ = new QPushButton(tr("Image…"), this);
  image_button_->setToolTip(tr("ViT: a PNG or JPEG image"));
  answer_ = new QLabel(tr("<small>Choose a model folder (config.json, model.safetensors, "
                          "tokenizer files), type a sentence and press Inspect.</small>"),
                       this);
  answer_->setObjectName(QStringLiteral("inspectAnswer"));
  answer_->setWordWrap(true);
  answer_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  tokens_ = new QLabel(this);
  tokens_->setObjectName(QStringLiteral("inspectTokens"));
  tokens_->setWordWrap(true);
  tokens_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  model_view_ = new AttentionModelView(this);

  auto* model_row = new QHBoxLayout;
  model_row->addWidget(model_box_, 1);
  model_row->addWidget(choose);
  auto* text_row = new QHBoxLayout;
  text_row->addWidget(text_, 2);
  text_row->addWidget(pair_, 1);
  text_row->addWidget(inspect_);
  text_row->addWidget(image_button_);
  auto* form = new QFormLayout;
  form->addRow(tr("Model"), model_row);
  form->addRow(tr("Input"), text_row);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(answer_);
  layout->addWidget(tokens_);
  layout->addWidget(model_view_, 1);

  connect(choose, &QPushButton::clicked, this, &PretrainedInspectionWindow::chooseFolder);
  const auto ask = [this] { inspectText(text_->text(), pair_->text()); };
  connect(inspect_, &QPushButton::clicked, this, ask);
  connect(text_, &QLineEdit::returnPressed, this, ask);
  connect(pair_, &QLineEdit::returnPressed, this, ask);
  connect(image_button_, &QPushButton::clicked, this, &PretrainedInspectionWindow::chooseImage);
  connect(&watcher_, &QFutureWatcher<Reply>::finished, this,
          &PretrainedInspectionWindow::onFinished);
  connect(model_view_, &AttentionModelView::headClicked, this,
          &PretrainedInspectionWindow::showHead);
  resize(900, 640);
}

PretrainedInspectionWindow::~PretrainedInspectionWindow() {
  watcher_.waitForFinished();
}

void PretrainedInspectionWindow::open() {
  listOfferedModels();
  show();
  raise();
  activateWindow();
  text_->setFocus();
}

void PretrainedInspectionWindow::listOfferedModels() {
  if (offered_ == nullptr) return;
  for (const QString& folder : offered_->offeredFolders()) {
    if (model_box_->findData(folder) >= 0) continue;
    model_box_->addItem(offered_->itemText(offered_->findData(folder)), folder);
    model_box_->setItemData(model_box_->count() - 1, QDir::toNativeSeparators(folder),
                            Qt::ToolTipRole);
  }
}

void PretrainedInspectionWindow::setModelFolder(const QString& folder) {
  const QString path = QDir(folder).absolutePath();
  if (model_box_->findData(path) < 0) {
    model_box_->insertItem(0, QFileInfo(path).fileName(), path);
    model_box_->setItemData(0, QDir::toNativeSeparators(path), Qt::ToolTipRole);
  }
  model_box_->setCurrentIndex(model_box_->findData(path));
}

QString PretrainedInspectionWindow::modelFolder() const {
  return model_box_->currentData().toString();
}

void PretrainedInspectionWindow::chooseFolder() {
  const QString folder = QFileDialog::getExistingDirectory(
      this, tr("Pretrained model folder (config.json, model.safetensors, tokenizer files)"));
  if (!folder.isEmpty()) setModelFolder(folder);
}

void PretrainedInspectionWindow::chooseImage() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Image for the model"), {},
                                                    tr("Images (*.png *.jpg *.jpeg *.ppm)"));
  if (!path.isEmpty()) inspectImage(path);
}

void PretrainedInspectionWindow::inspectText(const QString& text, const QString& pair) {
  if (isBusy()) return;
  if (text.trimmed().isEmpty()) {
    answer_->setText(tr("the sentence is empty: type a sentence for the model"));
    Q_EMIT inspected(answer_->text(), false);
    return;
  }
  // Asked from elsewhere (scripted mode), the fields still show what the model read.
  text_->setText(text.trimmed());
  pair_->setText(pair.trimmed());
  PretrainedInspectionRequest request;
  request.model_folder = modelFolder().toStdString();
  request.text = text.trimmed().toStdString();
  request.text_pair = pair.trimmed().toStdString();
  const QString input = pair.trimmed().isEmpty()
                            ? QStringLiteral("“%1”").arg(text.trimmed())
                            : QStringLiteral("“%1” + “%2”").arg(text.trimmed(), pair.trimmed());
  start(request, input);
}

void PretrainedInspectionWindow::inspectImage(const QString& path) {
  if (isBusy()) return;
  PretrainedInspectionRequest request;
  request.model_folder = modelFolder().toStdString();
  request.image_file = path.toStdString();
  start(request, QFileInfo(path).fileName());
}

void PretrainedInspectionWindow::start(const PretrainedInspectionRequest& request,
                                       const QString& input) {
  if (request.model_folder.empty()) {
    answer_->setText(tr("no model chosen: choose a model folder first"));
    Q_EMIT inspected(answer_->text(), false);
    return;
  }
  asked_ = {QString::fromStdString(request.model_folder), QString::fromStdString(request.text),
            QString::fromStdString(request.text_pair), QString::fromStdString(request.image_file)};
  answer_->setText(tr("<i>loading the model and reading the input…</i>"));
  inspect_->setEnabled(false);
  image_button_->setEnabled(false);
  watcher_.setFuture(QtConcurrent::run([request, input] { return inspectJob(request, input); }));
}

void PretrainedInspectionWindow::onFinished() {
  Reply reply = watcher_.result();
  inspect_->setEnabled(true);
  image_button_->setEnabled(true);
  answer_->setText(reply.text);
  if (reply.attention && !reply.attention->groups.empty()) {
    const AttentionPlotGroup& group = reply.attention->groups.front();
    model_view_->setGroup(group);
    const QStringList& tokens = model_view_->tokens();
    tokens_->setText(tr("<small>%1 · %2 layers × %3 heads · %4 tokens: %5</small>")
                         .arg(group.name.toHtmlEscaped())
                         .arg(model_view_->layerCount())
                         .arg(model_view_->headCount())
                         .arg(tokens.size())
                         .arg(tokens.join(QLatin1Char(' ')).toHtmlEscaped()));
    Q_EMIT inputShown(asked_);
    attention_->showAsked(std::move(*reply.attention), reply.caption);
    showHead(0, 0);
  }
  Q_EMIT inspected(QTextDocumentFragment::fromHtml(reply.text).toPlainText(), reply.ok);
}

void PretrainedInspectionWindow::showHead(int layer, int head) {
  model_view_->setSelectedHead(layer, head);
  AttentionHeadGridPanel* panel = attention_->panel();
  const AttentionPlotData& shown = panel->snapshot();
  for (int g = 0; g < static_cast<int>(shown.groups.size()); ++g) {
    if (shown.groups[static_cast<std::size_t>(g)].name != model_view_->groupName()) continue;
    panel->setCurrentGroup(g);
    panel->setCurrentLayer(layer);
    panel->setCurrentHead(head);
    return;
  }
}

}  // namespace ascope
