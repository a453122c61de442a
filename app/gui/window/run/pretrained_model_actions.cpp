#include "app/gui/window/run/pretrained_model_actions.h"

#include <QAction>
#include <QWidget>

#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/window/dialogs/get_pretrained_model_dialog.h"

namespace ascope {

PretrainedModelActions::PretrainedModelActions(RunPresenter* run_panel, QWidget* window,
                                               const QString& models_dir)
    : QObject(window),
      run_panel_(run_panel),
      window_(window),
      models_dir_(models_dir.isEmpty() ? GetPretrainedModelDialog::modelsFolder() : models_dir) {
  get_model_ = new QAction(tr("Get &pretrained model…"), this);
  get_model_->setObjectName(QStringLiteral("getPretrainedModelAction"));
  get_model_->setToolTip(tr("Download a Hugging Face model (BERT, ViT) to fine-tune"));
  connect(get_model_, &QAction::triggered, this, [this] { openDialog(); });
}

void PretrainedModelActions::offerDownloadedModels() {
  for (const auto& [label, folder] : GetPretrainedModelDialog::downloadedModels(models_dir_)) {
    run_panel_->modelChoice()->addModel(label, folder);
  }
}

void PretrainedModelActions::openDialog(const QString& endpoint) {
  auto* dialog = new GetPretrainedModelDialog(models_dir_, endpoint, window_);
  dialog->setObjectName(QStringLiteral("getPretrainedModelDialog"));
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  connect(dialog, &GetPretrainedModelDialog::modelReady, this,
          [this](const QString& id, const QString& folder) {
            PretrainedModelChoice* choice = run_panel_->modelChoice();
            choice->addModel(id, folder);
            // Chosen only where the task can fine-tune it; otherwise it waits in the list.
            choice->chooseFolder(folder);
            Q_EMIT message(tr("Pretrained model ready: %1").arg(folder));
          });
  dialog->open();
}

}  // namespace ascope
