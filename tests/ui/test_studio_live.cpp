// Studio follows a run while another connection writes to it, as a CLI training does: new
// points reach the chart and the status change reaches the table without any user action.

#include "studio_fixture.h"

#include "tracking/metric_writer.h"
#include "ui/charts/metric_chart.h"
#include "ui/main_window.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/run_info_panel.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/workspace_session.h"

#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QTableView>
#include <QTimer>
#include <QtTest>

using tw::tracking::RunStatus;
using tw::ui::RunsTableModel;

class TestStudioLive : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_settingsDir.isValid());
    tw::test::isolateSettings(m_settingsDir.path());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  }

  void followsRunningRun() {
    tw::test::Workspace ws;
    auto run = ws.createRun("live-mlp");
    ws.store->setStatus(run.id, RunStatus::Running);
    ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 50));

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(ws.dir));
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QTRY_COMPARE(table->model()->rowCount(), 1);
    const QModelIndex status = table->model()->index(0, RunsTableModel::Status);
    QCOMPARE(status.data().toString(), QStringLiteral("Running"));

    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(table->model()->index(0, RunsTableModel::Name)).center());
    auto *loss = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lossChart"));
    auto *accuracy = window.findChild<tw::ui::MetricChart *>(QStringLiteral("accuracyChart"));
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 50);
    QCOMPARE(accuracy->seriesPointCount("val/accuracy"), 0);

    // The UI thread must stay responsive while the poller reads: count event-loop ticks.
    int ticks = 0;
    QTimer heartbeat;
    heartbeat.setInterval(20);
    connect(&heartbeat, &QTimer::timeout, [&ticks] { ++ticks; });
    heartbeat.start();

    // What a worker does: batched writes on its own connection and thread.
    QElapsedTimer sinceWrite;
    {
      tw::tracking::MetricWriter writer(ws.dbPath(), run.id);
      for (int64_t step = 51; step <= 120; ++step) {
        writer.log("train/loss", step, tw::test::lossAt(step));
        writer.log("train/lr", step, 1e-3 * (1.0 - step / 200.0));
      }
      writer.log("val/loss", 100, 0.61);
      writer.log("val/accuracy", 100, 0.784);
      writer.flush();
      QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
    }
    sinceWrite.start();
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 120);
    QTRY_COMPARE(loss->seriesPointCount("val/loss"), 1);
    QTRY_COMPARE(accuracy->seriesPointCount("val/accuracy"), 1);
    // The Training tab's charts follow the same watch.
    auto *lr = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lrChart"));
    QTRY_COMPARE(lr->rawPointCount("train/lr"), 70);
    QCOMPARE(lr->drawnPoints("train/lr").back().y(), 1e-3 * (1.0 - 120 / 200.0));
    // Polling twice a second: new points show within about one interval, not "eventually".
    QVERIFY2(sinceWrite.elapsed() < 2000, qPrintable(QString::number(sinceWrite.elapsed())));
    QTRY_COMPARE(table->model()->index(0, RunsTableModel::ValAccuracy).data().toString(),
                 QStringLiteral("78.4 %"));

    // A second writer session appends after the last step shown, as a resumed run does.
    ws.store->writeMetrics(run.id, tw::test::trainLossRows(121, 200));
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 200);
    QCOMPARE(loss->rawPointCount("train/loss"), 200);  // each step exactly once

    ws.store->setStatus(run.id, RunStatus::Finished);
    QTRY_COMPARE(status.data().toString(), QStringLiteral("Finished"));
    QTRY_COMPARE(window.runsPage()->detail()->infoPanel()->statusText(), QStringLiteral("Finished"));
    heartbeat.stop();
    const qint64 elapsed = sinceWrite.elapsed();
    // At 20 ms per tick a blocked UI thread would have missed most of them.
    QVERIFY2(ticks >= elapsed / 20 / 4, qPrintable(QStringLiteral("%1 ticks in %2 ms").arg(ticks).arg(elapsed)));
  }

  // Overlaid runs keep streaming: points written to a run that is not the one in detail reach
  // its curve, and the one in detail's reach its own.
  void overlaidRunsKeepStreaming() {
    tw::test::Workspace ws;
    auto first = ws.createRun("live-a");
    auto second = ws.createRun("live-b");
    for (const auto &run : {first, second}) {
      ws.store->setStatus(run.id, RunStatus::Running);
      ws.store->writeMetrics(run.id, tw::test::trainLossRows(1, 10));
    }
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTRY_COMPARE(page->model()->rowCount(), 2);
    page->selectRun(first.id);
    QTableView *table = page->table();
    const int row = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("live-b"));
    table->selectionModel()->select(table->model()->index(row, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    tw::ui::RunDetailView *detail = page->detail();
    QTRY_COMPARE(detail->chartedRunIds(), (std::vector<int64_t>{first.id, second.id}));
    tw::ui::MetricChart *loss = detail->lossChart();
    const std::string secondKey = detail->seriesKey(second.id, "train/loss");
    QTRY_COMPARE(loss->rawPointCount("train/loss"), 10);
    QTRY_COMPARE(loss->rawPointCount(secondKey), 10);

    {
      tw::tracking::MetricWriter writer(ws.dbPath(), second.id);
      for (int64_t step = 11; step <= 40; ++step) writer.log("train/loss", step, tw::test::lossAt(step));
      writer.flush();
      QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
    }
    QTRY_COMPARE(loss->rawPointCount(secondKey), 40);
    ws.store->writeMetrics(first.id, tw::test::trainLossRows(11, 25));
    QTRY_COMPARE(loss->rawPointCount("train/loss"), 25);
    QCOMPARE(loss->rawPointCount(secondKey), 40);  // each step exactly once

    // The test figure recorded at the end appears on the overlaid run's curve when it finishes.
    ws.store->writeMetrics(second.id, {{"test/loss", 40, 0.42, tw::tracking::nowMs()}});
    ws.store->setStatus(second.id, RunStatus::Finished);
    QTRY_VERIFY(loss->hasMarker(detail->seriesKey(second.id, "test/loss")));
    QCOMPARE(loss->markerPoint(detail->seriesKey(second.id, "test/loss")), QPointF(40, 0.42));
  }

  // The README's first command opens Studio while the example trains: the live run is selected
  // and its curves drawn without a click; once the user picks a run, Studio no longer chooses.
  void selectsTheLiveRunUntilTheUserChooses() {
    tw::test::Workspace ws;
    auto done = ws.createRun("older");
    ws.store->setStatus(done.id, RunStatus::Running);
    ws.store->setStatus(done.id, RunStatus::Finished);
    auto live = ws.createRun("example");
    ws.store->setStatus(live.id, RunStatus::Running);
    ws.store->writeMetrics(live.id, tw::test::trainLossRows(1, 20));
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_COMPARE(window.runsPage()->selectedRunId(), live.id);
    auto *loss = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lossChart"));
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 20);

    window.runsPage()->selectRun(done.id);
    auto later = ws.createRun("later");
    ws.store->setStatus(later.id, RunStatus::Running);
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QTRY_COMPARE(table->model()->rowCount(), 3);
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 2));
    QCOMPARE(window.runsPage()->selectedRunId(), done.id);
  }

  void newRunAppearsWhileOpen() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 2));
    QCOMPARE(table->model()->rowCount(), 0);

    auto run = ws.createRun("late-run");
    QTRY_COMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Status).data().toString(), QStringLiteral("Created"));
    ws.store->setStatus(run.id, RunStatus::Running);
    QTRY_COMPARE(table->model()->index(0, RunsTableModel::Status).data().toString(), QStringLiteral("Running"));
    QTRY_VERIFY(!table->model()->index(0, RunsTableModel::Started).data().toString().isEmpty());
  }

 private:
  QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestStudioLive)
#include "test_studio_live.moc"
