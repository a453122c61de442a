#include "app/gui/views/run/hyperparameter_form.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>
#include <vector>

#include "engine/tasks/registry/task_registry.h"

namespace ascope {
namespace {

/// Section title in the form ("Training", "Model").
QLabel* sectionTitle(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  return label;
}

/// A faint red mixed into the field's own base colour, readable in light and dark palettes.
QColor invalidBase(const QPalette& palette) {
  const QColor base = palette.color(QPalette::Base);
  const QColor red(220, 50, 47);
  const double a = base.lightness() > 128 ? 0.22 : 0.38;
  return QColor::fromRgbF(base.redF() * (1 - a) + red.redF() * a,
                          base.greenF() * (1 - a) + red.greenF() * a,
                          base.blueF() * (1 - a) + red.blueF() * a);
}

}  // namespace

HyperparameterForm::HyperparameterForm(QWidget* parent) : QWidget(parent) {
  auto* training = new QGridLayout;
  auto* model = new QGridLayout;
  for (QGridLayout* grid : {training, model}) {
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(4);
    grid->setColumnStretch(1, 1);
    grid->setColumnStretch(3, 1);
  }
  auto place = [this](QGridLayout* grid, int row, int column, const QString& key,
                      const QString& text, QWidget* editor, const QString& tip) {
    auto* label = new QLabel(text, this);
    label->setBuddy(editor);
    editor->setToolTip(tip);
    label->setToolTip(tip);
    editor->setObjectName(key);
    grid->addWidget(label, row, column * 2);
    grid->addWidget(editor, row, column * 2 + 1);
    fields_.insert(key, editor);
    labels_.insert(key, label);
  };
  auto spin = [this](int minimum, int maximum) {
    auto* box = new QSpinBox(this);
    box->setRange(minimum, maximum);
    box->setAccelerated(true);
    connect(box, &QSpinBox::valueChanged, this, &HyperparameterForm::edited);
    return box;
  };

  // Minimums are below what validate() accepts on purpose: the form shows the engine's own
  // message for a bad value instead of silently clamping it.
  epochs_ = spin(0, 100000);
  max_steps_ = spin(0, std::numeric_limits<int>::max());
  max_steps_->setSpecialValueText(tr("all"));
  batch_size_ = spin(0, 65536);
  seed_ = spin(0, std::numeric_limits<int>::max());
  lr_ = new QLineEdit(this);
  connect(lr_, &QLineEdit::textChanged, this, &HyperparameterForm::edited);
  schedule_ = new QComboBox(this);
  schedule_->addItem(tr("constant"), QStringLiteral("constant"));
  schedule_->addItem(tr("cosine"), QStringLiteral("cosine"));
  connect(schedule_, &QComboBox::currentIndexChanged, this, &HyperparameterForm::edited);
  warmup_ = spin(-1, 10000000);
  grad_clip_ = new QDoubleSpinBox(this);
  grad_clip_->setRange(0, 1000);
  grad_clip_->setDecimals(2);
  grad_clip_->setSingleStep(0.25);
  grad_clip_->setSpecialValueText(tr("off"));
  connect(grad_clip_, &QDoubleSpinBox::valueChanged, this, &HyperparameterForm::edited);
  probes_ = new QLineEdit(this);
  connect(probes_, &QLineEdit::textChanged, this, &HyperparameterForm::edited);
  layers_ = spin(0, 96);
  heads_ = spin(0, 64);
  d_model_ = spin(0, 8192);
  d_ff_ = spin(0, 32768);
  patch_ = spin(0, 64);

  place(training, 0, 0, "epochs", tr("Epochs"), epochs_, tr("Passes over the training set"));
  place(training, 0, 1, "max_steps", tr("Steps"), max_steps_,
        tr("Stop after this many optimizer steps (\"all\": run every epoch)"));
  place(training, 1, 0, "batch_size", tr("Batch"), batch_size_, tr("Samples per step"));
  place(training, 1, 1, "seed", tr("Seed"), seed_, tr("Same seed, same run"));
  place(training, 2, 0, "lr", tr("LR"), lr_, tr("Peak learning rate, e.g. 1e-3"));
  place(training, 2, 1, "schedule", tr("Schedule"), schedule_,
        tr("constant, or linear warm-up then cosine decay"));
  place(training, 3, 0, "warmup_steps", tr("Warm-up"), warmup_, tr("Linear warm-up steps"));
  place(training, 3, 1, "grad_clip", tr("Clip"), grad_clip_,
        tr("Maximum global gradient norm (off: no clipping)"));
  place(training, 4, 0, "probe_samples", tr("Probe"), probes_,
        tr("Validation samples whose attention is probed, e.g. 0, 1, 2, 3: every dock can "
           "switch between them, head statistics average over them (at most 16)"));
  place(model, 0, 0, "layers", tr("Layers"), layers_, tr("Transformer layers"));
  place(model, 0, 1, "heads", tr("Heads"), heads_, tr("Attention heads; must divide d_model"));
  place(model, 1, 0, "d_model", tr("d_model"), d_model_, tr("Model width"));
  place(model, 1, 1, "d_ff", tr("d_ff"), d_ff_, tr("Feed-forward width"));
  place(model, 2, 0, "patch_size", tr("Patch"), patch_, tr("Patch side in pixels (ViT)"));

  aliases_ = {{"epochs", {"epochs"}},
              {"max_steps", {"max_steps"}},
              {"batch_size", {"batch_size"}},
              {"seed", {"seed"}},
              {"lr", {"lr"}},
              {"schedule", {"schedule"}},
              {"warmup_steps", {"warmup_steps"}},
              {"grad_clip", {"grad_clip"}},
              {"probe_samples", {"probe_samples"}},
              {"layers", {"layers", "encoder_layers", "decoder_layers"}},
              {"heads", {"heads"}},
              {"d_model", {"d_model", "hidden"}},
              {"d_ff", {"d_ff", "mlp_dim"}},
              {"patch_size", {"patch_size", "image_size"}}};

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  layout->addWidget(sectionTitle(tr("Training"), this));
  layout->addLayout(training);
  layout->addSpacing(4);
  model_title_ = sectionTitle(tr("Model"), this);
  layout->addWidget(model_title_);
  layout->addLayout(model);
}

void HyperparameterForm::setConfig(const TrainingConfig& config) {
  const QSignalBlocker block(this);  // the fields' changes reach edited() through this object
  epochs_->setValue(config.epochs);
  max_steps_->setValue(
      static_cast<int>(std::min<int64_t>(config.max_steps, max_steps_->maximum())));
  batch_size_->setValue(static_cast<int>(config.batch_size));
  seed_->setValue(static_cast<int>(std::min<uint64_t>(config.seed, seed_->maximum())));
  lr_->setText(QString::number(config.optimization.lr, 'g', 4));
  schedule_->setCurrentIndex(config.optimization.schedule == "cosine" ? 1 : 0);
  warmup_->setValue(static_cast<int>(config.optimization.warmup_steps));
  grad_clip_->setValue(config.optimization.grad_clip);
  QStringList probes;
  for (int index : config.probe_samples) probes.push_back(QString::number(index));
  probes_->setText(probes.join(QStringLiteral(", ")));
  const TaskDescriptor* task = TaskRegistry::instance().find(config.task);
  own_shape_ = task ? task->model_shape(config) : ModelShape{};
  shape_fields_.clear();
  for (const std::string& key : task ? task->shape_fields : TaskDescriptor{}.shape_fields) {
    shape_fields_.push_back(QString::fromStdString(key));
  }
  if (!pretrained_shown_) showShape(own_shape_);
  layers_->setToolTip(QString::fromStdString(task ? task->layers_hint : "Transformer layers"));
  labels_.value("d_model")->setText(QString::fromStdString(task ? task->width_label : "d_model"));
  labels_.value("d_ff")->setText(QString::fromStdString(task ? task->ff_label : "d_ff"));
}

void HyperparameterForm::showShape(const ModelShape& shape) {
  const QSignalBlocker block(this);
  layers_->setValue(static_cast<int>(shape.layers));
  heads_->setValue(static_cast<int>(shape.heads));
  d_model_->setValue(static_cast<int>(shape.d_model));
  d_ff_->setValue(static_cast<int>(shape.d_ff));
  patch_->setValue(static_cast<int>(shape.patch_size));
  for (QWidget* field : modelFields()) {
    const QString key = fields_.key(field);
    field->setVisible(shape_fields_.contains(key));
    labels_.value(key)->setVisible(shape_fields_.contains(key));
  }
}

QList<QWidget*> HyperparameterForm::modelFields() const {
  return {layers_, heads_, d_model_, d_ff_, patch_};
}

void HyperparameterForm::showPretrainedShape(const std::optional<ModelShape>& shape,
                                             const QString& note) {
  const bool was_shown = pretrained_shown_;
  pretrained_shown_ = shape.has_value();
  if (shape) {
    showShape(*shape);
  } else if (was_shown) {
    showShape(own_shape_);
  }
  model_title_->setText(pretrained_shown_ ? tr("Model (pretrained, read-only)") : tr("Model"));
  model_title_->setToolTip(note);
  for (QWidget* field : modelFields()) {
    field->setEnabled(!read_only_ && !pretrained_shown_);
    field->setToolTip(pretrained_shown_ ? note : labels_.value(fields_.key(field))->toolTip());
  }
}

QString HyperparameterForm::applyTo(TrainingConfig& config) const {
  bool ok = false;
  const double lr = lr_->text().trimmed().toDouble(&ok);
  if (!ok) return tr("lr: \"%1\" is not a number").arg(lr_->text().trimmed());
  std::vector<int> probes;
  const QStringList items =
      probes_->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts);
  for (const QString& item : items) {
    const int index = item.toInt(&ok);
    if (!ok || index < 0) return tr("probe_samples: \"%1\" is not a sample number").arg(item);
    probes.push_back(index);
  }
  if (probes.empty()) return tr("probe_samples: name at least one validation sample, e.g. 0");
  config.probe_samples = probes;
  config.epochs = epochs_->value();
  config.max_steps = max_steps_->value();
  config.batch_size = batch_size_->value();
  config.seed = static_cast<uint64_t>(seed_->value());
  config.optimization.lr = lr;
  config.optimization.schedule = schedule_->currentData().toString().toStdString();
  config.optimization.warmup_steps = warmup_->value();
  config.optimization.grad_clip = grad_clip_->value();
  const TaskDescriptor* task = TaskRegistry::instance().find(config.task);
  if (task != nullptr && !pretrained_shown_) {
    ModelShape shape;
    shape.layers = layers_->value();
    shape.heads = heads_->value();
    shape.d_model = d_model_->value();
    shape.d_ff = d_ff_->value();
    if (task->showsShapeField("patch_size")) shape.patch_size = patch_->value();
    task->set_model_shape(config, shape);
  }
  return {};
}

void HyperparameterForm::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // A new system palette (light ↔ dark): derive the marks' colour from it again.
  if (event->type() == QEvent::PaletteChange && !message_.isEmpty()) {
    const QString message = message_;
    highlightFieldsNamedIn({});
    highlightFieldsNamedIn(message);
  }
}

QStringList HyperparameterForm::highlightFieldsNamedIn(const QString& message) {
  message_ = message;
  QStringList marked;
  for (auto it = fields_.cbegin(); it != fields_.cend(); ++it) {
    bool named = false;
    for (const QString& alias : aliases_.value(it.key())) {
      // \b treats '_' as a word character, so "layers" does not match inside "encoder_layers".
      const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(alias));
      named = named || (!message.isEmpty() && word.match(message).hasMatch());
    }
    mark(it.value(), named ? message : QString());
    if (named) marked.push_back(it.key());
  }
  return marked;
}

QStringList HyperparameterForm::highlightedFields() const {
  QStringList keys;
  for (auto it = fields_.cbegin(); it != fields_.cend(); ++it) {
    if (it.value()->property("invalid").toBool()) keys.push_back(it.key());
  }
  return keys;
}

void HyperparameterForm::mark(QWidget* field, const QString& message) {
  const bool invalid = !message.isEmpty();
  if (field->property("invalid").toBool() == invalid && !invalid) return;
  field->setProperty("invalid", invalid);
  if (invalid) {
    QPalette palette = this->palette();
    palette.setColor(QPalette::Base, invalidBase(palette));
    field->setPalette(palette);
  } else {
    field->setPalette(QPalette());  // follow the window's palette again
  }
  const QString tip = fields_.key(field);
  field->setToolTip(invalid ? message : labels_.value(tip)->toolTip());
}

void HyperparameterForm::setReadOnly(bool read_only) {
  read_only_ = read_only;
  for (QWidget* w : fields_) w->setEnabled(!read_only);
  if (pretrained_shown_) {
    for (QWidget* field : modelFields()) field->setEnabled(false);
  }
}

}  // namespace ascope
