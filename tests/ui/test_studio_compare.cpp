// Compare through the real window: two runs recorded in a real tracking database are selected on
// the Runs page, Compare overlays their loss curves (read off the UI thread) and lists their
// configurations with the differing parameter highlighted; "Only differences" hides the rest.

#include "studio_fixture.h"

#include "ui/charts/metric_chart.h"
#include "ui/compare/compare_page.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"

#include <QCheckBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

class TestStudioCompare : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void compareTwoRuns() {
    tw::test::Workspace ws;
    auto a = ws.createRun("lr-small");
    auto b = ws.createRun("lr-large");
    ws.store->setParams(a.id, {{"train.lr", "0.001"}, {"train.epochs", "5"}, {"data.batch_size", "128"}});
    ws.store->setParams(b.id, {{"train.lr", "0.01"}, {"train.epochs", "5"}, {"data.batch_size", "128"}});
    ws.store->writeMetrics(a.id, tw::test::trainLossRows(1, 80));
    ws.store->writeMetrics(b.id, tw::test::trainLossRows(1, 120));

    tw::ui::MainWindow window;
    window.resize(1300, 850);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *runs = window.runsPage();
    QTRY_COMPARE(runs->model()->rowCount(), 2);
    QVERIFY(!runs->compareButton()->isEnabled());  // one run or none: nothing to compare
    runs->table()->selectAll();
    QTRY_VERIFY(runs->compareButton()->isEnabled());

    tw::ui::ComparePage *compare = window.comparePage();
    QSignalSpy loaded(compare, &tw::ui::ComparePage::loaded);
    QTest::mouseClick(runs->compareButton(), Qt::LeftButton);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(compare));
    QVERIFY(loaded.wait(10000));

    QCOMPARE(compare->chart()->rawPointCount(a.uuid), 80);
    QCOMPARE(compare->chart()->rawPointCount(b.uuid), 120);
    QCOMPARE(compare->differingKeys(), QStringList{"train.lr"});
    QTableWidget *table = compare->configTable();
    QCOMPARE(table->columnCount(), 3);  // the parameter, then one column per run
    QCOMPARE(table->rowCount(), 3);
    int visible = 0;
    for (int row = 0; row < table->rowCount(); ++row) visible += table->isRowHidden(row) ? 0 : 1;
    QCOMPARE(visible, 1);
    compare->onlyDifferences()->setChecked(false);
    for (int row = 0; row < table->rowCount(); ++row) QVERIFY(!table->isRowHidden(row));

    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    window.grab().save(dir + QStringLiteral("/studio_compare.png"));
  }
};

QTEST_MAIN(TestStudioCompare)
#include "test_studio_compare.moc"
