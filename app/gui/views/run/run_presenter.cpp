#include "app/gui/views/run/run_presenter.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_progress_view.h"
#include "app/gui/views/sample/probe_sample_picker.h"
#include "engine/tasks/registry/run_config_reader.h"
#include "engine/tasks/registry/task_registry.h"
#include "widgets/common/combo_tool_tip.h"

namespace ascope {
namespace {

const char* const kChooseFolder = "::folder";
const char* const kChooseFile = "::file";
const char* const kGetDataset = "::get";

}  // namespace

RunPresenter::RunPresenter(const CurrentRun* run, bool cuda_available, QWidget* parent)
    : QWidget(parent), run_(run) {
  setFocusPolicy(Qt::ClickFocus);
  task_box_ = new QComboBox(this);
  task_box_->setObjectName(QStringLiteral("taskBox"));
  QStringList formats;
  for (const TaskDescriptor* task : TaskRegistry::instance().all()) {
    task_box_->addItem(QString::fromStdString(task->title), QString::fromStdString(task->id));
    formats << QString::fromStdString(task->data_formats);
  }
  data_box_ = new QComboBox(this);
  data_box_->setObjectName(QStringLiteral("dataBox"));
  data_box_->addItem(tr("Built-in (generated)"), QStringLiteral("builtin"));
  data_box_->insertSeparator(1);
  data_box_->addItem(tr("Choose folder…"), QString::fromLatin1(kChooseFolder));
  data_box_->addItem(tr("Choose file…"), QString::fromLatin1(kChooseFile));
#ifdef ATTENTIONSCOPE_HAS_DOWNLOAD
  data_box_->addItem(tr("Get dataset…"), QString::fromLatin1(kGetDataset));
#endif
  followCurrentTextInToolTip(data_box_,
                             tr("Built-in generated data, or a dataset in a format the task "
                                "reads (%1)")
                                 .arg(formats.join(QStringLiteral("; "))));
  preset_box_ = new QComboBox(this);
  preset_box_->setObjectName(QStringLiteral("presetBox"));
  listPresets();
  device_box_ = new QComboBox(this);
  device_box_->setObjectName(QStringLiteral("deviceBox"));
  device_box_->addItem(tr("CPU"), QStringLiteral("cpu"));
  if (cuda_available) device_box_->addItem(tr("CUDA GPU"), QStringLiteral("cuda"));
  model_box_ = new PretrainedModelChoice(this);
  model_box_->setTask(
      TaskRegistry::instance().find(task_box_->currentData().toString().toStdString()));
  for (QComboBox* box :
       {task_box_, data_box_, preset_box_, device_box_, static_cast<QComboBox*>(model_box_)}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  followCurrentTextInToolTip(task_box_, tr("The task: what the model learns, on what data"));
  followCurrentTextInToolTip(preset_box_, tr("Settings that fit the task and the device"));
  followCurrentTextInToolTip(device_box_, tr("Where the model trains"));

  read_only_label_ = new QLabel(this);
  read_only_label_->setWordWrap(true);
  edit_button_ = new QPushButton(tr("Train again with these settings"), this);
  form_ = new HyperparameterForm(this);
  probe_picker_ = new ProbeSamplePicker(
      run_, [this] { return currentConfig(); },
      qobject_cast<QLineEdit*>(form_->field(QStringLiteral("probe_samples"))), this);
  message_label_ = new QLabel(this);
  message_label_->setObjectName(QStringLiteral("validationMessage"));
  message_label_->setWordWrap(true);
  progress_ = new RunProgressView(this);
  buildActions();

  auto* choices = new QFormLayout;
  choices->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  choices->addRow(tr("Task"), task_box_);
  choices->addRow(tr("Data"), data_box_);
  choices->addRow(tr("Preset"), preset_box_);
  choices->addRow(tr("Device"), device_box_);
  choices->addRow(tr("Model"), model_box_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 6, 8, 6);
  layout->setSpacing(6);
  layout->addWidget(read_only_label_);
  layout->addWidget(edit_button_);
  layout->addLayout(choices);
  layout->addWidget(form_);
  layout->addWidget(message_label_);
  layout->addWidget(probe_picker_, 0, Qt::AlignLeft);
  layout->addWidget(progress_);
  layout->addStretch(1);
  read_only_label_->hide();
  edit_button_->hide();

  connect(task_box_, &QComboBox::currentIndexChanged, this, [this] {
    model_box_->setTask(
        TaskRegistry::instance().find(task_box_->currentData().toString().toStdString()));
    listPresets();
    loadPreset();
    followModel();  // the preset and the form's model sizes follow the model kept or dropped
  });
  connect(preset_box_, &QComboBox::currentIndexChanged, this, &RunPresenter::loadPreset);
  connect(data_box_, &QComboBox::activated, this, &RunPresenter::chooseData);
  connect(device_box_, &QComboBox::currentIndexChanged, this, &RunPresenter::revalidate);
  connect(model_box_, &PretrainedModelChoice::modelChosen, this, &RunPresenter::followModel);
  connect(&shape_watcher_, &QFutureWatcher<Expected<ModelShape>>::finished, this,
          &RunPresenter::onPretrainedShapeRead);
  connect(form_, &HyperparameterForm::edited, this, &RunPresenter::revalidate);
  connect(edit_button_, &QPushButton::clicked, this, [this] {
    read_only_ = false;
    run_path_.clear();
    read_only_label_->hide();
    edit_button_->hide();
    form_->setReadOnly(false);
    for (QComboBox* box :
         {task_box_, data_box_, preset_box_, device_box_, static_cast<QComboBox*>(model_box_)})
      box->setEnabled(true);
    revalidate();
  });
  connect(run_, &CurrentRun::stateChanged, this, &RunPresenter::onRunState);
  loadPreset();
}

void RunPresenter::describeDevices(const std::vector<TrainingDevice>& devices) {
  QString description = tr("Where the model trains");
  for (const TrainingDevice& d : devices) {
    const QString id = QString::fromStdString(d.id);
    const QString text = QString::fromStdString(d.text);
    description += QStringLiteral("\n") +
                   (id == QLatin1String("cpu") ? tr("CPU: %1") : tr("CUDA: %1")).arg(text);
    const int index = device_box_->findData(id);
    if (index < 0) continue;
    device_box_->setItemData(index, text, Qt::ToolTipRole);
    if (d.usable && id == QLatin1String("cuda")) {
      device_box_->setItemText(index, tr("CUDA GPU (%1)").arg(QString::fromStdString(d.name)));
    }
  }
  followCurrentTextInToolTip(device_box_, description);
}

RunPresenter::~RunPresenter() {
  shape_watcher_.waitForFinished();
}

void RunPresenter::followModel() {
  const TaskDescriptor* task =
      TaskRegistry::instance().find(task_box_->currentData().toString().toStdString());
  const QString folder = model_box_->folder();
  const bool pretrained = task != nullptr && !folder.isEmpty() && task->pretrained_shape;
  if (!read_only_ && task != nullptr) {
    // A pretrained model trained with a from-scratch preset ends at chance; the
    // preset follows the model, both ways.
    const QString wanted = QString::fromStdString(task->defaultPreset(false, pretrained));
    const bool fine_tune =
        preset_box_->currentData().toString().toStdString() == task->fine_tune_preset;
    if (pretrained || fine_tune) setPreset(wanted);
  }
  if (!pretrained) {
    form_->showPretrainedShape(std::nullopt, {});
  } else if (!shape_watcher_.isRunning()) {
    shape_folder_ = folder;
    const std::function<Expected<ModelShape>(const std::string&)> read = task->pretrained_shape;
    shape_watcher_.setFuture(
        QtConcurrent::run([read, path = shapeSource(folder).toStdString()] { return read(path); }));
  }
  revalidate();
}

QString RunPresenter::shapeSource(const QString& folder) const {
  // An opened run keeps the model's config.json in its own pretrained/: the folder its
  // config.json names is not opened on that file's word.
  return read_only_ && !run_path_.isEmpty() ? run_path_ + QStringLiteral("/pretrained") : folder;
}

void RunPresenter::onPretrainedShapeRead() {
  const Expected<ModelShape> shape = shape_watcher_.result();
  const QString asked = shape_folder_;
  if (model_box_->folder().isEmpty()) return;  // back to the task's own model meanwhile
  if (asked != model_box_->folder()) {
    followModel();  // another folder was chosen while this one was read
    return;
  }
  if (shape.ok()) {
    form_->showPretrainedShape(
        *shape, tr("The sizes of %1 (its config.json): a fine-tune keeps the model as it was "
                   "trained.")
                    .arg(shapeSource(asked)));
  } else {
    form_->showPretrainedShape(std::nullopt, QString::fromStdString(shape.error()));
  }
}

void RunPresenter::listPresets() {
  const QString chosen = preset_box_->currentData().toString();
  const TaskDescriptor* task =
      TaskRegistry::instance().find(task_box_->currentData().toString().toStdString());
  const QSignalBlocker block(preset_box_);
  preset_box_->clear();
  if (task == nullptr) return;
  for (const PresetInfo& preset : task->presets) {
    preset_box_->addItem(QStringLiteral("%1 — %2").arg(QString::fromStdString(preset.name),
                                                       QString::fromStdString(preset.description)),
                         QString::fromStdString(preset.name));
  }
  const int index = preset_box_->findData(chosen);
  preset_box_->setCurrentIndex(index >= 0 ? index : 0);
  refreshCurrentTextToolTip(preset_box_);
}

void RunPresenter::buildActions() {
  start_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("Start"), this);
  start_->setObjectName(QStringLiteral("startAction"));
  start_->setShortcut(Qt::Key_F5);
  start_->setToolTip(tr("Start training (F5)"));
  pause_ = new QAction(style()->standardIcon(QStyle::SP_MediaPause), tr("Pause"), this);
  pause_->setObjectName(QStringLiteral("pauseAction"));
  pause_->setShortcut(Qt::Key_Space);
  pause_->setToolTip(tr("Pause or resume (Space)"));
  step_ = new QAction(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("Step"), this);
  step_->setObjectName(QStringLiteral("stepAction"));
  step_->setShortcut(Qt::Key_F6);
  step_->setToolTip(tr("Run one batch, then pause (F6)"));
  stop_ = new QAction(style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"), this);
  stop_->setObjectName(QStringLiteral("stopAction"));
  stop_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  stop_->setToolTip(tr("Stop after the current batch and write a checkpoint (Shift+F5)"));
  connect(start_, &QAction::triggered, this, [this] {
    if (message_.isEmpty()) Q_EMIT startRequested(currentConfig(), false);
  });
  connect(pause_, &QAction::triggered, this, &RunPresenter::onPauseTriggered);
  connect(step_, &QAction::triggered, this, &RunPresenter::onStepTriggered);
  connect(stop_, &QAction::triggered, this, &RunPresenter::stopRequested);
}

void RunPresenter::onPauseTriggered() {
  const TrainerState state = run_->state();
  if (state == TrainerState::kPaused) {
    Q_EMIT resumeRequested();
  } else if (state == TrainerState::kRunning || state == TrainerState::kPreparing) {
    Q_EMIT pauseRequested();
  }
}

void RunPresenter::onStepTriggered() {
  const TrainerState state = run_->state();
  if (state == TrainerState::kPaused) {
    Q_EMIT stepRequested();
  } else if ((state == TrainerState::kIdle || isFinalState(state)) && message_.isEmpty() &&
             !read_only_) {
    Q_EMIT startRequested(currentConfig(), true);
  }
}

TrainingConfig RunPresenter::currentConfig() const {
  TrainingConfig config;
  buildConfig(config);
  return config;
}

QString RunPresenter::buildConfig(TrainingConfig& config) const {
  config = base_;
  const QString error = form_->applyTo(config);
  config.data = data_box_->currentData().toString().toStdString();
  config.device = device_box_->currentData().toString().toStdString();
  config.pretrained = model_box_->folder().toStdString();
  config.stop_on_nonfinite = false;  // the GUI pauses on a bad loss so the user can react
  config.out_dir.clear();            // a new run gets its own folder
  config.resume = false;
  config.interrupt_at_step = 0;
  return error;
}

void RunPresenter::setTask(const QString& task) {
  const int index = task_box_->findData(task);
  if (index >= 0) task_box_->setCurrentIndex(index);
}

void RunPresenter::setPreset(const QString& preset) {
  const int index = preset_box_->findData(preset);
  if (index >= 0) preset_box_->setCurrentIndex(index);
}

void RunPresenter::setDataSource(const QString& data) {
  int index = data_box_->findData(data);
  if (index < 0) {
    data_box_->insertItem(1, QFileInfo(data).fileName(), data);
    data_box_->setItemData(1, data, Qt::ToolTipRole);
    index = 1;
  }
  data_box_->setCurrentIndex(index);
  revalidate();
}

void RunPresenter::loadPreset() {
  if (read_only_) return;
  const QString task = task_box_->currentData().toString();
  const QString preset = preset_box_->currentData().toString();
  Expected<TrainingConfig> config = makePreset(task.toStdString(), preset.toStdString());
  if (!config.ok()) return;
  base_ = *config;
  form_->setConfig(base_);
  revalidate();
}

void RunPresenter::addDataChoice(const QString& label, const QString& path) {
  if (data_box_->findData(path) >= 0) return;
  data_box_->insertItem(1, label, path);
  data_box_->setItemData(1, path, Qt::ToolTipRole);
}

void RunPresenter::chooseData(int index) {
  const QString choice = data_box_->itemData(index).toString();
  if (choice == QLatin1String(kGetDataset)) {
    data_box_->setCurrentIndex(0);
    revalidate();
    Q_EMIT getDatasetRequested(task_box_->currentData().toString());
    return;
  }
  if (choice != QLatin1String(kChooseFolder) && choice != QLatin1String(kChooseFile)) {
    revalidate();
    return;
  }
  const QString path =
      choice == QLatin1String(kChooseFolder)
          ? QFileDialog::getExistingDirectory(this, tr("Dataset folder"))
          : QFileDialog::getOpenFileName(this, tr("Dataset file"), {},
                                         tr("Datasets (*.csv *.tsv *.jsonl *.json *.txt *.bin);;"
                                            "All files (*)"));
  if (path.isEmpty()) {
    data_box_->setCurrentIndex(0);
    revalidate();
    return;
  }
  setDataSource(path);
}

void RunPresenter::showRunConfig(const TrainingConfig& config, const QString& run_path) {
  read_only_ = false;
  setTask(QString::fromStdString(config.task));  // (lists and loads that task's presets first)
  read_only_ = true;
  run_path_ = run_path;
  base_ = config;
  form_->setConfig(config);
  form_->setReadOnly(true);
  {
    const QSignalBlocker block(preset_box_);
    setPreset(QString::fromStdString(config.preset));
  }
  refreshCurrentTextToolTip(preset_box_);
  model_box_->chooseFolder(QString::fromStdString(config.pretrained));
  const QString data = QString::fromStdString(config.data);
  if (data == QLatin1String("builtin")) {
    data_box_->setCurrentIndex(0);
  } else {
    setDataSource(data);
  }
  keepFocus();
  for (QComboBox* box :
       {task_box_, data_box_, preset_box_, device_box_, static_cast<QComboBox*>(model_box_)})
    box->setEnabled(false);
  read_only_label_->setText(tr("Viewing the run <b>%1</b> (read-only).")
                                .arg(QFileInfo(run_path).fileName().toHtmlEscaped()));
  read_only_label_->setToolTip(run_path);
  read_only_label_->show();
  edit_button_->show();
  revalidate();
}

void RunPresenter::revalidate() {
  TrainingConfig config;
  QString message = buildConfig(config);
  // An opened run's settings are shown, not used: the paths they name (its data, a pretrained
  // folder) are not looked at; its values are checked as readRunConfig checked them.
  if (message.isEmpty()) {
    const Status s = read_only_ ? validateSettings(config) : validateConfig(config);
    if (!s.ok()) message = QString::fromStdString(s.error());
  }
  const QString data = QString::fromStdString(config.data);
  if (message.isEmpty() && !read_only_ && data != QLatin1String("builtin") &&
      !QFileInfo::exists(data)) {
    message = tr("data: %1: no such file or folder").arg(data);
  }
  message_ = message;
  form_->highlightFieldsNamedIn(message);
  message_label_->setVisible(!message.isEmpty());
  message_label_->setText(message.isEmpty()
                              ? QString()
                              : QStringLiteral("<span style=\"color:#d0342c\">⚠ %1</span>")
                                    .arg(message.toHtmlEscaped()));
  updateActions();
  Q_EMIT configEdited();
}

void RunPresenter::onRunState(TrainerState state, const QString& reason) {
  progress_->setState(state, reason);
  const bool busy = run_->isBusy();
  if (busy) keepFocus();
  if (!read_only_) {
    form_->setReadOnly(busy);
    for (QComboBox* box :
         {task_box_, data_box_, preset_box_, device_box_, static_cast<QComboBox*>(model_box_)})
      box->setEnabled(!busy);
  }
  updateActions();
}

void RunPresenter::keepFocus() {
  // Qt passes the focus of a widget being disabled to the next one in the chain, which is often
  // another dock's field (a plot's smoothing box); keep it on this panel instead.
  if (isAncestorOf(window()->focusWidget())) setFocus();
}

void RunPresenter::updateActions() {
  const TrainerState state = run_->state();
  const bool idle = !run_->isBusy();
  const bool can_start = idle && message_.isEmpty() && !read_only_;
  const bool paused = state == TrainerState::kPaused;
  start_->setEnabled(can_start);
  pause_->setEnabled(run_->isBusy());
  pause_->setText(paused ? tr("Resume") : tr("Pause"));
  pause_->setIcon(style()->standardIcon(paused ? QStyle::SP_MediaPlay : QStyle::SP_MediaPause));
  step_->setEnabled(paused || can_start);
  stop_->setEnabled(!idle);
}

void RunPresenter::setProgress(const StepMetrics& progress, std::int64_t batch_size) {
  progress_->setProgress(progress, batch_size);
}

void RunPresenter::setEpoch(const EpochSummary& report, const std::string& task) {
  progress_->setEpoch(report, task);
}

void RunPresenter::setTest(const TestEvaluation& test, const std::string& task) {
  progress_->setTest(test, task);
}

void RunPresenter::clearRun() {
  progress_->reset();
}

void RunPresenter::takeNews(const RunNews& news) {
  if (news.started) progress_->beginRun(*news.started);
  if (news.opened) showRunConfig(news.opened->config, news.opened->path);
  if (!news.steps.empty()) {
    // Live steps feed the progress view's rate; a folder's only say how far the run got.
    if (news.source == RunNews::Source::kLive) {
      progress_->addSteps(news.steps, news.batch_size);
    } else {
      setProgress(news.steps.back(), news.batch_size);
    }
  }
  for (const EpochSummary& epoch : news.epochs) setEpoch(epoch, news.task);
  if (news.test) setTest(*news.test, news.task);
  if (news.state) progress_->setState(news.state->first, news.state->second);
}

}  // namespace ascope
