// File > Tracking Store…: the workspace's store setting written to workspace.yaml, a password
// refused before anything is written, and Studio reopened on the store it names.
#include "studio_fixture.h"

#include "tests/tracking/pg_cluster.h"
#include "tracking/workspace_store.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/store_settings_dialog.h"
#include "ui/workspace/workspace_session.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

using tw::ui::StoreSettingsDialog;

class TestStoreSettings : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void passwordIsRefusedBeforeAnythingIsWritten() {
    QTemporaryDir workspace;
    StoreSettingsDialog dialog(workspace.path());
    QVERIFY(dialog.locationEdit()->text().isEmpty());  // the workspace's own tracking.db
    dialog.locationEdit()->setText("postgresql://tw:s3cret@db/runs");
    QVERIFY(!dialog.apply());
    QVERIFY2(dialog.problemLabel()->text().contains("holds a password"), qPrintable(dialog.problemLabel()->text()));
    QVERIFY(!dialog.problemLabel()->text().contains("s3cret"));
    QVERIFY(!QFile::exists(workspace.filePath("workspace.yaml")));
    dialog.locationEdit()->setText("mysql://db/runs");
    QVERIFY(!dialog.apply());
    QVERIFY2(dialog.problemLabel()->text().contains("'mysql'"), qPrintable(dialog.problemLabel()->text()));
  }

  void studioReopensOnTheStoreItNames() {
    auto *cluster = tw_test::PgCluster::shared();
    if (!cluster) QSKIP(qPrintable(tw_test::PgCluster::unavailable()));
    if (qEnvironmentVariableIsSet("TW_STORE")) QSKIP("TW_STORE is set here, and it wins over the setting");
    const std::string url = cluster->createDatabase();
    {
      tw::tracking::NewRun run;
      run.name = "shared-run";
      tw::tracking::Store::open(url)->createRun(run);
    }
    QTemporaryDir workspace;
    tw::ui::MainWindow window;
    QString error;
    QVERIFY2(window.session()->open(workspace.path(), &error), qPrintable(error));
    QCOMPARE(window.session()->databasePath(), workspace.filePath("tracking.db"));

    StoreSettingsDialog dialog(workspace.path(), &window);
    dialog.locationEdit()->setText(QString::fromStdString(url));
    QVERIFY2(dialog.apply(), qPrintable(dialog.problemLabel()->text()));
    QCOMPARE(tw::tracking::configuredStore(workspace.path().toStdString()), url);
    QVERIFY2(window.session()->open(workspace.path(), &error), qPrintable(error));  // as the menu action does
    QCOMPARE(window.session()->databasePath(), QString::fromStdString(url));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 1);

    // Emptied: back to the workspace's own file.
    StoreSettingsDialog again(workspace.path(), &window);
    QCOMPARE(again.locationEdit()->text(), QString::fromStdString(url));
    again.locationEdit()->clear();
    QVERIFY(again.apply());
    QCOMPARE(tw::tracking::workspaceStore(workspace.path().toStdString()), workspace.filePath("tracking.db").toStdString());
  }
};

QTEST_MAIN(TestStoreSettings)
#include "test_store_settings.moc"
