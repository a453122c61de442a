// "Get pretrained model…" against a hub on 127.0.0.1 (tests/download's fixture hub): the dialog
// fetches config.json, the tokenizer files and the weights on a worker thread into a temporary
// models folder, reports failures in its status line, and the model lands in the Run dock's
// model choice, where choosing it sets the config's pretrained folder.
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/bridge/current_run.h"
#include "app/gui/views/run/pretrained_model_choice.h"
#include "app/gui/views/run/run_presenter.h"
#include "app/gui/window/dialogs/get_pretrained_model_dialog.h"
#include "app/gui/window/run/pretrained_model_actions.h"
#include "engine/tasks/sentiment/sentiment_descriptor.h"
#include "fixture_http_server.h"
#include "fixture_model_hub.h"

namespace ascope {

class GetPretrainedModelDialogTest : public QObject {
  Q_OBJECT

 private:
  /// Clicks the dialog's action button and waits for the fetch to end.
  static void clickAndWait(GetPretrainedModelDialog& dialog) {
    QTest::mouseClick(dialog.downloadButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(dialog.downloadButton()->text() != QStringLiteral("Cancel"), 30000);
  }

 private Q_SLOTS:
  void init() {
    qunsetenv("HF_TOKEN");  // a developer's own token must not change what the tests see
    qunsetenv("ATTENTIONSCOPE_HF_ENDPOINT");
  }

  void downloadsIntoTheModelsFolder() {
    testing::FixtureHttpServer server;
    testing::FixtureModelHub hub(server);
    hub.addBertModel("bert-base-uncased", 200000);
    QTemporaryDir models;
    GetPretrainedModelDialog dialog(models.path(), QString::fromStdString(hub.endpoint()));
    dialog.idBox()->setCurrentText(QStringLiteral("bert-base-uncased"));
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Download"));
    QSignalSpy ready(&dialog, &GetPretrainedModelDialog::modelReady);
    clickAndWait(dialog);
    QVERIFY2(ready.size() == 1, qPrintable(dialog.statusLabel()->text()));
    const QString folder = ready.at(0).at(1).toString();
    QCOMPARE(ready.at(0).at(0).toString(), QStringLiteral("bert-base-uncased"));
    QCOMPARE(QDir(folder).absolutePath(),
             QDir(models.filePath(QStringLiteral("bert-base-uncased"))).absolutePath());
    for (const char* file :
         {"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"}) {
      QVERIFY2(QFileInfo::exists(QDir(folder).filePath(QString::fromLatin1(file))), file);
    }
    QCOMPARE(QFileInfo(QDir(folder).filePath(QStringLiteral("model.safetensors"))).size(), 200000);
    QCOMPARE(dialog.progressBar()->value(), 1000);
    QVERIFY2(dialog.statusLabel()->text().startsWith(QStringLiteral("Ready")),
             qPrintable(dialog.statusLabel()->text()));
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Use it"));

    // Listed for the Run dock; a second dialog sees it there.
    const auto listed = GetPretrainedModelDialog::downloadedModels(models.path());
    QCOMPARE(listed.size(), std::size_t{1});
    QCOMPARE(listed.front().first, QStringLiteral("bert-base-uncased"));
    GetPretrainedModelDialog again(models.path(), QString::fromStdString(hub.endpoint()));
    again.idBox()->setCurrentText(QStringLiteral("bert-base-uncased"));
    QCOMPARE(again.downloadButton()->text(), QStringLiteral("Use it"));
  }

  void aMissingModelOrABadIdFailsWithAMessage() {
    testing::FixtureHttpServer server;
    testing::FixtureModelHub hub(server);
    QTemporaryDir models;
    GetPretrainedModelDialog dialog(models.path(), QString::fromStdString(hub.endpoint()));
    dialog.idBox()->setCurrentText(QStringLiteral("../etc"));
    QVERIFY(!dialog.downloadButton()->isEnabled());
    dialog.idBox()->setCurrentText(QStringLiteral("nobody/nothing"));
    QVERIFY(dialog.downloadButton()->isEnabled());
    QSignalSpy ready(&dialog, &GetPretrainedModelDialog::modelReady);
    clickAndWait(dialog);
    QCOMPARE(ready.size(), 0);
    QVERIFY2(dialog.statusLabel()->text().startsWith(QStringLiteral("Failed: ")),
             qPrintable(dialog.statusLabel()->text()));
    QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("config.json")),
             qPrintable(dialog.statusLabel()->text()));
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Retry"));
    QVERIFY(!QFileInfo::exists(models.filePath(QStringLiteral("nobody--nothing"))));
  }

  void aBrokenDownloadResumesOnRetry() {
    testing::FixtureHttpServer server;
    testing::FixtureModelHub hub(server);
    hub.addBertModel("bert-base-uncased", 300000);
    const std::string weights =
        testing::FixtureModelHub::cdnPath("bert-base-uncased", "model.safetensors");
    server.cutAfter(weights, 100000);
    QTemporaryDir models;
    GetPretrainedModelDialog dialog(models.path(), QString::fromStdString(hub.endpoint()));
    dialog.idBox()->setCurrentText(QStringLiteral("bert-base-uncased"));
    QSignalSpy ready(&dialog, &GetPretrainedModelDialog::modelReady);
    clickAndWait(dialog);
    QCOMPARE(ready.size(), 0);
    QVERIFY2(dialog.statusLabel()->text().startsWith(QStringLiteral("Failed: ")),
             qPrintable(dialog.statusLabel()->text()));
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Retry"));
    // The partial download waits beside the folder, which appears only when complete.
    QVERIFY(QFileInfo::exists(models.filePath(QStringLiteral("bert-base-uncased.part"))));
    QVERIFY(!QFileInfo::exists(models.filePath(QStringLiteral("bert-base-uncased"))));
    QVERIFY(GetPretrainedModelDialog::downloadedModels(models.path()).empty());
    clickAndWait(dialog);  // "Retry"
    QVERIFY2(ready.size() == 1, qPrintable(dialog.statusLabel()->text()));
    QCOMPARE(
        QFileInfo(models.filePath(QStringLiteral("bert-base-uncased/model.safetensors"))).size(),
        300000);
    // The second transfer of the weights asked only for what was missing.
    std::vector<std::string> ranges;
    for (const auto& request : server.requests()) {
      if (request.path == weights && request.method == "GET") ranges.push_back(request.range);
    }
    QCOMPARE(ranges.size(), std::size_t{2});
    QVERIFY(ranges[0].empty());
    QCOMPARE(ranges[1], std::string("bytes=100000-"));
  }

  void theModelAppearsInTheRunDocksChoice() {
    testing::FixtureHttpServer server;
    testing::FixtureModelHub hub(server);
    hub.addVitModel("google/vit-base-patch16-224");
    hub.addBertModel("bert-base-uncased");
    QTemporaryDir models;
    QWidget window;
    CurrentRun run;
    auto* panel = new RunPresenter(&run, false, &window);
    panel->setTask(QString::fromLatin1(kSentimentTaskId));
    PretrainedModelActions actions(panel, &window, models.path());
    actions.offerDownloadedModels();
    QVERIFY(panel->modelChoice()->offeredFolders().isEmpty());

    actions.openDialog(QString::fromStdString(hub.endpoint()));
    auto* dialog = window.findChild<GetPretrainedModelDialog*>();
    QVERIFY(dialog != nullptr);
    dialog->idBox()->setCurrentText(QStringLiteral("bert-base-uncased"));
    clickAndWait(*dialog);
    const QString folder =
        QDir(models.filePath(QStringLiteral("bert-base-uncased"))).absolutePath();
    QCOMPARE(panel->modelChoice()->offeredFolders(), QStringList{folder});
    QCOMPARE(QString::fromStdString(panel->currentConfig().pretrained), folder);
    dialog->idBox()->setCurrentText(QStringLiteral("google/vit-base-patch16-224"));
    clickAndWait(*dialog);
    dialog->close();

    // A window opened later finds both in the models folder.
    QWidget later;
    auto* fresh = new RunPresenter(&run, false, &later);
    PretrainedModelActions(fresh, &later, models.path()).offerDownloadedModels();
    QStringList offered = fresh->modelChoice()->offeredFolders();
    offered.sort();
    QCOMPARE(
        offered,
        (QStringList{
            folder,
            QDir(models.filePath(QStringLiteral("google--vit-base-patch16-224"))).absolutePath()}));
  }
};

}  // namespace ascope

QTEST_MAIN(ascope::GetPretrainedModelDialogTest)
#include "get_pretrained_model_dialog_test.moc"
