#include "app/gui/window/run/remembered_settings.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QSettings>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/run/hyperparameter_form.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/window/run/run_controller.h"

namespace ascope {
namespace {

const QString kTask = QStringLiteral("run/task");
const QString kPreset = QStringLiteral("run/preset");
const QString kDevice = QStringLiteral("run/device");
const QString kFields = QStringLiteral("run/fields");
const QString kLastRun = QStringLiteral("session/lastRun");

QVariant fieldValue(const QWidget* field) {
  if (const auto* spin = qobject_cast<const QSpinBox*>(field)) return spin->value();
  if (const auto* real = qobject_cast<const QDoubleSpinBox*>(field)) return real->value();
  if (const auto* line = qobject_cast<const QLineEdit*>(field)) return line->text();
  if (const auto* box = qobject_cast<const QComboBox*>(field)) return box->currentData();
  return {};
}

/// Sets what a settings file holds into `field`, ignoring values of the wrong kind (a hand-edited
/// or corrupt file must not crash or clamp silently into something odd).
void setFieldValue(QWidget* field, const QVariant& value) {
  bool ok = false;
  if (auto* spin = qobject_cast<QSpinBox*>(field)) {
    const int v = value.toInt(&ok);
    if (ok && v >= spin->minimum() && v <= spin->maximum()) spin->setValue(v);
  } else if (auto* real = qobject_cast<QDoubleSpinBox*>(field)) {
    const double v = value.toDouble(&ok);
    if (ok && v >= real->minimum() && v <= real->maximum()) real->setValue(v);
  } else if (auto* line = qobject_cast<QLineEdit*>(field)) {
    line->setText(value.toString().left(200));
  } else if (auto* box = qobject_cast<QComboBox*>(field)) {
    const int index = box->findData(value.toString());
    if (index >= 0) box->setCurrentIndex(index);
  }
}

}  // namespace

RememberedSettings::RememberedSettings(RunPresenter* panel, CurrentRun* run,
                                       RunController* controller, QObject* parent)
    : QObject(parent), panel_(panel), run_(run), controller_(controller) {
  // Every keystroke edits the form; one write a moment after the last one is enough.
  save_timer_.setSingleShot(true);
  save_timer_.setInterval(400);
  connect(&save_timer_, &QTimer::timeout, this, &RememberedSettings::saveRunSettings);
  connect(panel_, &RunPresenter::configEdited, this, [this] {
    if (!restoring_) save_timer_.start();
  });
  connect(run_, &CurrentRun::folderChanged, this, &RememberedSettings::rememberRun);
  // A remembered run that no longer opens (damaged, refused, unreadable) is forgotten: the next
  // start must not try it again, nor fail on it.
  connect(controller_, &RunController::rememberedRunFailed, this,
          [this](const QString& folder, const QString&) {
            if (lastRun() == folder) QSettings().remove(kLastRun);
          });
}

bool RememberedSettings::restoreRunSettings() {
  QSettings settings;
  const QString task = settings.value(kTask).toString();
  if (task.isEmpty() || panel_->taskBox()->findData(task) < 0) return false;
  restoring_ = true;
  panel_->setTask(task);
  panel_->setPreset(settings.value(kPreset).toString());
  const int device = panel_->deviceBox()->findData(settings.value(kDevice).toString());
  if (device >= 0) panel_->deviceBox()->setCurrentIndex(device);
  settings.beginGroup(kFields);
  for (const QString& key : settings.childKeys()) {
    if (QWidget* field = panel_->form()->field(key)) setFieldValue(field, settings.value(key));
  }
  settings.endGroup();
  restoring_ = false;
  return true;
}

void RememberedSettings::saveRunSettings() {
  save_timer_.stop();  // this write supersedes a pending one
  if (panel_->isReadOnly()) return;
  QSettings settings;
  settings.setValue(kTask, panel_->taskBox()->currentData());
  settings.setValue(kPreset, panel_->presetBox()->currentData());
  settings.setValue(kDevice, panel_->deviceBox()->currentData());
  settings.remove(kFields);
  settings.beginGroup(kFields);
  for (const QString& key : panel_->form()->fieldKeys()) {
    const QVariant value = fieldValue(panel_->form()->field(key));
    if (value.isValid()) settings.setValue(key, value);
  }
  settings.endGroup();
}

QString RememberedSettings::lastRun() const {
  return QSettings().value(kLastRun).toString();
}

void RememberedSettings::rememberRun(const QString& folder) {
  if (folder.isEmpty()) return;
  QSettings().setValue(kLastRun, QDir::cleanPath(QFileInfo(folder).absoluteFilePath()));
}

void RememberedSettings::reopenLastRun() {
  const QString folder = lastRun();
  if (folder.isEmpty()) return;
  const QString task = QSettings().value(kTask).toString();
  auto* watcher = new QFutureWatcher<bool>(this);
  connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, folder, task] {
    watcher->deleteLater();
    if (!watcher->result()) {
      if (lastRun() == folder) QSettings().remove(kLastRun);
      Q_EMIT reopenDecided(folder, false);
      return;
    }
    // The user (or the command line) may have moved on while the worker looked.
    const bool untouched = !run_->isBusy() && run_->folder().isEmpty() &&
                           !controller_->isOpening() &&
                           (task.isEmpty() || panel_->taskBox()->currentData().toString() == task);
    if (untouched) controller_->openRun(folder, RunController::OpenOrigin::kRemembered);
    Q_EMIT reopenDecided(folder, untouched);
  });
  watcher->setFuture(QtConcurrent::run([folder] {
    return QFileInfo::exists(QDir(folder).filePath(QStringLiteral("config.json")));
  }));
}

}  // namespace ascope
