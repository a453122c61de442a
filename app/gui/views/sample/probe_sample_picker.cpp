#include "app/gui/views/sample/probe_sample_picker.h"

#include <QLineEdit>
#include <QStringList>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/sample/probe_sample_dialog.h"

namespace ascope {

ProbeSamplePicker::ProbeSamplePicker(const CurrentRun* run, std::function<TrainingConfig()> config,
                                     QLineEdit* probes, QWidget* parent)
    : QPushButton(tr("Probe samples…"), parent),
      run_(run),
      config_(std::move(config)),
      probes_(probes) {
  setObjectName(QStringLiteral("probeSamplePicker"));
  setToolTip(tr("Browse the validation samples and choose the ones the attention views probe"));
  connect(this, &QPushButton::clicked, this, [this] { openDialog(); });
}

bool ProbeSamplePicker::liveRun() const {
  return run_->isLive() && run_->isBusy();
}

ProbeSampleDialog* ProbeSamplePicker::openDialog() {
  const bool live = liveRun();
  // A live run's own settings (the form may have been edited since), else the form's.
  const TrainingConfig config = live ? run_->config() : config_();
  auto* dialog = new ProbeSampleDialog(config, live, window());
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &QDialog::accepted, this, [this, dialog, live] {
    const std::vector<int> chosen = dialog->chosenIndices();
    if (chosen.empty()) return;
    if (live) {
      if (liveRun()) Q_EMIT probeSampleRequested(chosen.front());
      return;
    }
    if (probes_ == nullptr || !probes_->isEnabled()) return;  // an opened run is read-only
    QStringList text;
    for (int index : chosen) text << QString::number(index);
    probes_->setText(text.join(QStringLiteral(", ")));
  });
  dialog->open();
  return dialog;
}

}  // namespace ascope
