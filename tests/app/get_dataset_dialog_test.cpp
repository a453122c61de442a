// "Get dataset…" against a local HTTP server (tests/download's fixture server): the dialog
// downloads, verifies and extracts on a worker thread while the event loop keeps running, reports
// failures in its status line, resumes a broken download on Retry, and hands the folder on.
#include <QDir>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include "app/gui/window/dialogs/get_dataset_dialog.h"
#include "engine/download/sha256.h"
#include "engine/tasks/image_classification/image_classification_descriptor.h"
#include "fixture_archives.h"
#include "fixture_http_server.h"

namespace ascope {

class GetDatasetDialogTest : public QObject {
  Q_OBJECT

 private:
  DatasetCatalog catalog(const std::string& url, const std::string& sha256) {
    // (No raw string literals here: moc's tokenizer loses the class after one.)
    const std::string hash = sha256.empty() ? std::string("null") : "\"" + sha256 + "\"";
    const std::string json =
        "{\"datasets\":[{\"task\":\"" + std::string(kImageClassificationTaskId) +
        "\",\"name\":\"CIFAR-10 fixture\",\"url\":\"" + url +
        "\",\"file\":\"cifar.tar.gz\",\"sha256\":" + hash +
        ",\"archive\":\"tar.gz\",\"archive_folder\":\"cifar-10-batches-bin\","
        "\"folder\":\"cifar-10-batches-bin\",\"expect\":[\"data_batch_1.bin\",\"test_batch.bin\"]}]"
        "}";
    Expected<DatasetCatalog> parsed = DatasetCatalog::parse(json, "test catalog");
    if (!parsed.ok()) qFatal("%s", parsed.error().c_str());
    return std::move(*parsed);
  }

  /// Clicks the dialog's action button and waits for the fetch to end (status leaves "…").
  static void clickAndWait(GetDatasetDialog& dialog) {
    QTest::mouseClick(dialog.downloadButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.statusLabel()->text().endsWith(QStringLiteral("…")) &&
                                 dialog.downloadButton()->text() != QStringLiteral("Cancel"),
                             30000);
  }

 private Q_SLOTS:
  void downloadsVerifiesExtractsAndHandsTheFolderOn() {
    testing::FixtureHttpServer server;
    const std::string archive = testing::makeCifarTarGz(3);
    server.serve("/cifar.tar.gz", archive);
    QTemporaryDir data;
    GetDatasetDialog dialog(catalog(server.url("/cifar.tar.gz"), Sha256::hexOf(archive)),
                            QString::fromLatin1(kImageClassificationTaskId), data.path());
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Download"));
    QSignalSpy ready(&dialog, &GetDatasetDialog::datasetReady);
    clickAndWait(dialog);
    QCOMPARE(ready.count(), 1);
    const QString folder = ready.at(0).at(1).toString();
    QCOMPARE(ready.at(0).at(0).toString(), QString::fromLatin1(kImageClassificationTaskId));
    QCOMPARE(QDir(folder).absolutePath(),
             QDir(data.filePath("cifar-10-batches-bin")).absolutePath());
    QVERIFY(QFileInfo::exists(QDir(folder).filePath(QStringLiteral("data_batch_5.bin"))));
    QCOMPARE(dialog.progressBar()->value(), 1000);
    QVERIFY2(dialog.statusLabel()->text().startsWith(QStringLiteral("Ready")),
             qPrintable(dialog.statusLabel()->text()));

    // A second dialog sees it present and fetches nothing.
    GetDatasetDialog again(catalog(server.url("/cifar.tar.gz"), Sha256::hexOf(archive)),
                           QString::fromLatin1(kImageClassificationTaskId), data.path());
    QCOMPARE(again.downloadButton()->text(), QStringLiteral("Use it"));
    QVERIFY(
        !GetDatasetDialog::presentFolder(catalog("http://x/", "").entries().front(), data.path())
             .isEmpty());
  }

  void aWrongChecksumFailsWithAMessageAndNoFolder() {
    testing::FixtureHttpServer server;
    server.serve("/cifar.tar.gz", testing::makeCifarTarGz(2));
    QTemporaryDir data;
    GetDatasetDialog dialog(catalog(server.url("/cifar.tar.gz"), std::string(64, 'a')),
                            QString::fromLatin1(kImageClassificationTaskId), data.path());
    QSignalSpy ready(&dialog, &GetDatasetDialog::datasetReady);
    clickAndWait(dialog);
    QCOMPARE(ready.count(), 0);
    const QString status = dialog.statusLabel()->text();
    QVERIFY2(status.startsWith(QStringLiteral("Failed:")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("SHA-256"), Qt::CaseInsensitive) ||
                 status.contains(QStringLiteral("checksum"), Qt::CaseInsensitive),
             qPrintable(status));
    QVERIFY(!QFileInfo::exists(data.filePath(QStringLiteral("cifar-10-batches-bin"))));
    QCOMPARE(dialog.downloadButton()->text(), QStringLiteral("Retry"));
  }

  void aBrokenDownloadResumesOnRetry() {
    testing::FixtureHttpServer server;
    const std::string archive = testing::makeCifarTarGz(3);
    server.serve("/cifar.tar.gz", archive);
    server.cutAfter("/cifar.tar.gz", archive.size() / 2);
    QTemporaryDir data;
    GetDatasetDialog dialog(catalog(server.url("/cifar.tar.gz"), Sha256::hexOf(archive)),
                            QString::fromLatin1(kImageClassificationTaskId), data.path());
    QSignalSpy ready(&dialog, &GetDatasetDialog::datasetReady);
    clickAndWait(dialog);
    QCOMPARE(ready.count(), 0);
    QVERIFY2(dialog.statusLabel()->text().contains(QStringLiteral("connection closed")),
             qPrintable(dialog.statusLabel()->text()));
    clickAndWait(dialog);  // "Retry"
    QCOMPARE(ready.count(), 1);
    const auto requests = server.requests();
    QCOMPARE(requests.size(), std::size_t{2});
    QCOMPARE(QString::fromStdString(requests[1].range),
             QStringLiteral("bytes=%1-").arg(archive.size() / 2));
  }
};

}  // namespace ascope

QTEST_MAIN(ascope::GetDatasetDialogTest)
#include "get_dataset_dialog_test.moc"
