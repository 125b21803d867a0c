// Studio on a workspace with finished runs: the real MainWindow polls the real database, lists
// the runs, and draws the selected run's curves. Leaves a screenshot in build/screenshots.

#include "studio_fixture.h"

#include "core/config/run_config.h"
#include "core/sysmon/nvml.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/series_palette.h"
#include "ui/common/number_format.h"
#include "ui/design/design_page.h"
#include "ui/design/model_document.h"
#include "ui/launch/launch_page.h"
#include "ui/main_window.h"
#include "ui/runs/artifacts_panel.h"
#include "ui/runs/params_panel.h"
#include "ui/runs/system_panel.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/run_status.h"
#include "ui/runs/run_info_panel.h"
#include "ui/launch/run_control.h"
#include "ui/runs/run_query.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/workspace_session.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QDoubleSpinBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLineEdit>
#include <QHeaderView>
#include <QLabel>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QPushButton>
#include <QTableView>
#include <QValueAxis>
#include <QTableWidget>
#include <QtTest>

using tw::tracking::RunStatus;
using tw::ui::RunsTableModel;

class TestStudioRuns : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // A run started from other weights says so beside its seed, with how many tensors they gave
  // (the tags the worker writes from train.init_from); any other run started from the seed.
  void infoPanelShowsWhereTheWeightsStarted() {
    tw::ui::RunInfoPanel panel;
    tw::ui::RunSnapshot snapshot;
    snapshot.run.name = "tuned";
    panel.showRun(snapshot);
    QCOMPARE(panel.startedFromText(), QStringLiteral("the seed"));
    snapshot.tags = {{"init_from", "run 1a2b3c4d (base), best checkpoint"}, {"init_from.taken", "16 of 18 tensors"}};
    panel.showRun(snapshot);
    QCOMPARE(panel.startedFromText(), QStringLiteral("run 1a2b3c4d (base), best checkpoint (16 of 18 tensors taken)"));
    panel.clear();
    QCOMPARE(panel.startedFromText(), QStringLiteral("–"));
  }

  // The Artifacts tab lists what the run recorded, with sizes (or "missing") and digests, and
  // copies a file's full path.
  void artifactsTabListsFilesAndCopiesPaths() {
    tw::test::Workspace ws;
    auto run = ws.createRun("exported");
    const QString file = ws.tmp.path() + "/model.onnx";
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QByteArray(2048, 'x'));
    out.close();
    ws.store->addArtifact(run.id, file.toStdString(), "export:onnx", "0123456789abcdef");
    ws.store->addArtifact(run.id, "checkpoints/best.pt", "checkpoint");

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 1);
    window.runsPage()->selectRun(run.id);
    auto *panel = window.runsPage()->detail()->artifactsPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(panel);
    QTRY_COMPARE(panel->table()->rowCount(), 2);
    int exported = -1, missing = -1;
    for (int row = 0; row < 2; ++row)
      (panel->table()->item(row, tw::ui::ArtifactsPanel::KindColumn)->text() == "export:onnx" ? exported : missing) = row;
    QVERIFY(exported >= 0 && missing >= 0);
    QCOMPARE(panel->table()->item(missing, tw::ui::ArtifactsPanel::SizeColumn)->text(), QString("missing"));
    QCOMPARE(panel->table()->item(exported, tw::ui::ArtifactsPanel::ShaColumn)->text(), QString("0123456789ab…"));
    panel->table()->selectRow(exported);
    QVERIFY(panel->copyPathButton()->isEnabled());
    QTest::mouseClick(panel->copyPathButton(), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), file);
  }

  // A file recorded without a digest (a checkpoint, rewritten every epoch) still shows its SHA-256:
  // hashed from the file off the UI thread, shortened in the cell, whole in the tooltip and on
  // Copy SHA-256. Before, the column stayed empty for every checkpoint, model and log.
  void artifactsTabShowsTheDigestOfFilesRecordedWithoutOne() {
    tw::test::Workspace ws;
    tw::tracking::NewRun created;
    created.name = "checkpointed";
    created.runsRoot = ws.dir.toStdString() + "/runs";
    const auto run = ws.store->createRun(created);
    QVERIFY(QDir().mkpath(QString::fromStdString(run.runDir) + "/checkpoints"));
    QFile checkpoint(QString::fromStdString(run.runDir) + "/checkpoints/last.pt");
    QVERIFY(checkpoint.open(QIODevice::WriteOnly));
    checkpoint.write("abc");  // SHA-256 ba7816bf...: the FIPS 180-2 example
    checkpoint.close();
    ws.store->addArtifact(run.id, "checkpoints/last.pt", "checkpoint");
    const QString digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 1);
    window.runsPage()->selectRun(run.id);
    auto *panel = window.runsPage()->detail()->artifactsPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(panel);
    QTRY_COMPARE(panel->table()->rowCount(), 1);
    QTRY_COMPARE(panel->table()->item(0, tw::ui::ArtifactsPanel::ShaColumn)->text(), QString("ba7816bf8f01…"));
    QVERIFY(panel->table()->item(0, tw::ui::ArtifactsPanel::ShaColumn)->toolTip().contains(digest));
    panel->table()->selectRow(0);
    QVERIFY(panel->copyDigestButton()->isEnabled());
    QTest::mouseClick(panel->copyDigestButton(), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), digest);
    panel->grab().save(tw::test::screenshotPath("artifacts_digests.png"));
  }

  // "Clone into Launch": the run's model into the design, its settings onto the form.
  void cloneIntoLaunchTakesTheRunsConfiguration() {
    tw::config::RunConfig config;
    config.modelYaml = "name: cloned\nnodes:\n  - {id: image, op: Input, shape: [1, 28, 28]}\n"
                       "  - {id: flat, op: Flatten}\n  - {id: wide, op: Linear, out_features: 77}\n";
    config.train.optimizer = "sgd";
    config.train.lr = 0.0123;
    config.train.epochs = 7;
    config.tracking.runName = "original";
    tw::test::Workspace ws;
    tw::tracking::NewRun run;
    run.name = "original";
    run.configYaml = tw::config::toYaml(config);
    ws.store->createRun(run);

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    Q_EMIT window.runsPage()->cloneRequested(QString::fromStdString(run.configYaml));
    tw::ui::LaunchPage *launch = window.launchPage();
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(launch));
    QCOMPARE(launch->optimizer()->currentText(), QString("sgd"));
    QCOMPARE(launch->epochs()->value(), 7);
    QVERIFY(std::abs(launch->learningRate()->value() - 0.0123) < 1e-9);
    QVERIFY(window.designPage()->document()->spec().find("wide") != nullptr);
    QVERIFY2(launch->runYaml().contains("out_features: 77"), qPrintable(launch->runYaml()));
  }

  // Durations in the runs table and the trial table: tenths of a second under a minute.
  void durationsShowTenthsUnderAMinute() {
    QLocale::setDefault(QLocale::c());
    QCOMPARE(tw::ui::formatDuration(400), QString("0.4 s"));
    QCOMPARE(tw::ui::formatDuration(12449), QString("12.4 s"));
    QCOMPARE(tw::ui::formatDuration(83000), QString("1 min 23 s"));
    QCOMPARE(tw::ui::formatDuration(2 * 3600 * 1000 + 5 * 60 * 1000), QString("2 h 05 min"));
  }

  void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

  // Every test starts from the same three runs and empty settings: none sees what another changed.
  void init() {
    m_settingsDir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_settingsDir->isValid());
    tw::test::isolateSettings(m_settingsDir->path());
    m_ws = std::make_unique<tw::test::Workspace>();

    auto best = m_ws->createRun("mlp-baseline");
    m_ws->store->setStatus(best.id, RunStatus::Running);
    m_ws->store->writeMetrics(best.id, tw::test::trainLossRows(1, 200));
    m_ws->store->writeMetrics(best.id, tw::test::validationRows(1, 200, 20));
    m_ws->store->writeMetrics(best.id, {{"test/accuracy", 200, 0.8712, tw::tracking::nowMs()}});
    m_ws->store->setStatus(best.id, RunStatus::Finished);

    auto failed = m_ws->createRun("cnn-wide");
    m_ws->store->setStatus(failed.id, RunStatus::Running);
    m_ws->store->writeMetrics(failed.id, tw::test::trainLossRows(1, 40));
    m_ws->store->writeMetrics(failed.id, tw::test::validationRows(1, 40, 20));
    m_ws->store->setStatus(failed.id, RunStatus::Failed, "training: loss became NaN at step 41");

    auto dropout = m_ws->createRun("mlp-dropout", "fashion-sweep");
    m_ws->setParams(best.id, {{"train.lr", "0.001"}, {"train.optimizer", "adam"}, {"train.epochs", "10"}});
    m_ws->setParams(failed.id, {{"train.lr", "0.1"}, {"train.optimizer", "sgd"}, {"train.epochs", "2"}});
    m_ws->setParams(dropout.id, {{"train.lr", "0.01"}, {"train.optimizer", "adam"}, {"train.epochs", "10"}});
  }
  void cleanup() {
    m_ws.reset();
    m_settingsDir.reset();
  }

  void listsRunsAndDrawsCurves() {
    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(m_ws->dir));

    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QVERIFY(table);
    QAbstractItemModel *model = table->model();
    QTRY_COMPARE(model->rowCount(), 3);

    const int row = tw::test::rowWithText(model, RunsTableModel::Name, QStringLiteral("mlp-baseline"));
    QVERIFY(row >= 0);
    QCOMPARE(model->index(row, RunsTableModel::Status).data().toString(), QStringLiteral("Finished"));
    QCOMPARE(model->index(row, RunsTableModel::Experiment).data().toString(), QStringLiteral("fashion-mnist"));
    QCOMPARE(model->index(row, RunsTableModel::TestAccuracy).data().toString(), QStringLiteral("87.12 %"));
    QCOMPARE(model->index(row, RunsTableModel::ValAccuracy).data().toString(),
             QStringLiteral("%1 %").arg(100.0 * tw::test::accuracyAt(200), 0, 'g', 4));
    QVERIFY(!model->index(row, RunsTableModel::Started).data().toString().isEmpty());
    QVERIFY(!model->index(row, RunsTableModel::Duration).data().toString().isEmpty());

    const int failedRow = tw::test::rowWithText(model, RunsTableModel::Name, QStringLiteral("cnn-wide"));
    QCOMPARE(model->index(failedRow, RunsTableModel::Status).data().toString(), QStringLiteral("Failed"));
    QCOMPARE(model->index(failedRow, RunsTableModel::Status).data(Qt::ToolTipRole).toString(),
             QStringLiteral("training: loss became NaN at step 41"));
    const int createdRow = tw::test::rowWithText(model, RunsTableModel::Name, QStringLiteral("mlp-dropout"));
    QCOMPARE(model->index(createdRow, RunsTableModel::Status).data().toString(), QStringLiteral("Created"));

    // Select the run the way a user does.
    const QModelIndex cell = model->index(row, RunsTableModel::Name);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QCOMPARE(window.runsPage()->selectedRunId(), cell.data(RunsTableModel::RunIdRole).toLongLong());

    auto *loss = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lossChart"));
    auto *accuracy = window.findChild<tw::ui::MetricChart *>(QStringLiteral("accuracyChart"));
    QVERIFY(loss && accuracy);
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 200);
    QTRY_COMPARE(loss->seriesPointCount("val/loss"), 10);
    QTRY_COMPARE(accuracy->seriesPointCount("val/accuracy"), 10);
    QCOMPARE(window.runsPage()->detail()->infoPanel()->statusText(), QStringLiteral("Finished"));

    // Selecting another run replaces the curves instead of adding to them.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                      table->visualRect(model->index(failedRow, RunsTableModel::Name)).center());
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 40);
    QTRY_COMPARE(loss->seriesPointCount("val/loss"), 2);
    QCOMPARE(window.runsPage()->detail()->infoPanel()->statusText(), QStringLiteral("Failed"));
    // A stale chunk of the first selection would land within a poll or two.
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 3));
    QCOMPARE(loss->seriesPointCount("train/loss"), 40);

    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(cell).center());
    QTRY_COMPARE(loss->seriesPointCount("train/loss"), 200);
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 3));
    QCOMPARE(loss->seriesPointCount("train/loss"), 200);

    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QVERIFY(QDir().mkpath(dir));
    const QString path = dir + QStringLiteral("/studio_runs.png");
    QVERIFY(window.grab().save(path));
    QVERIFY(QFileInfo(path).size() > 0);
  }

  void sortsByMetricValue() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QTRY_COMPARE(table->model()->rowCount(), 3);

    table->sortByColumn(RunsTableModel::ValAccuracy, Qt::DescendingOrder);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-baseline"));
    QCOMPARE(table->model()->index(1, RunsTableModel::Name).data().toString(), QStringLiteral("cnn-wide"));
    // A run without the metric sorts below every value.
    QCOMPARE(table->model()->index(2, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-dropout"));
    table->sortByColumn(RunsTableModel::ValAccuracy, Qt::AscendingOrder);
    QCOMPARE(table->model()->index(2, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-baseline"));
  }

  void filtersByTextStatusAndAccuracy() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTableView *table = page->table();
    QTRY_COMPARE(table->model()->rowCount(), 3);

    page->filterText()->setText(QStringLiteral("MLP"));  // name, either case
    QCOMPARE(table->model()->rowCount(), 2);
    page->filterText()->setText(QStringLiteral("sweep"));  // experiment
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-dropout"));
    page->filterText()->clear();

    page->filterStatus()->setCurrentIndex(page->filterStatus()->findText(QStringLiteral("Failed")));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("cnn-wide"));
    page->filterStatus()->setCurrentIndex(0);

    page->filterAccuracy()->setValue(80.0);  // mlp-baseline ends near 0.887, cnn-wide near 0.585
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-baseline"));
    page->filterAccuracy()->setValue(0.0);
    QCOMPARE(table->model()->rowCount(), 3);
  }

  void queryParsesWordsLabelsAndComparisons() {
    tw::ui::RunSnapshot run;
    run.run.name = "cnn-wide";
    run.run.experiment = "fashion-mnist";
    run.latest = {{"val/accuracy", 100, 0.91}, {"val/loss", 100, 0.3}};
    // Keys as real runs record them; no two of those share a last part, so "future.lr" stands
    // for one that might.
    run.params = {{"train.lr", "0.01"}, {"train.optimizer", "adam"}, {"train.min_lr", "0.0001"}};
    run.tags = {{"label.baseline", ""}, {"note", "wider first layer"}};
    auto matches = [&](const char *text) { return tw::ui::RunQuery::parse(QString::fromUtf8(text)).matches(run); };
    QVERIFY(matches(""));
    QVERIFY(matches("WIDE fashion"));
    QVERIFY(matches("first"));             // the note
    QVERIFY(matches("base"));              // a label, by part
    QVERIFY(matches("#baseline") && matches("tag:Baseline"));
    QVERIFY(!matches("#base"));            // a label filter wants the whole label
    QVERIFY(matches("val/accuracy>0.9") && matches("val/accuracy >= 0.91") && !matches("val/accuracy>0.91"));
    QVERIFY(matches("val/loss<0.5 train.lr=0.01"));
    QVERIFY(matches("train.lr<=1e-2") && !matches("train.lr<1e-2"));  // numbers as numbers
    QVERIFY(matches("train.optimizer=ADAM") && matches("train.optimizer!=sgd") && !matches("train.optimizer=sgd"));
    QVERIFY(matches("optimizer=adam"));    // the last part of a key, when unique
    QVERIFY(matches("lr=0.01") && !matches("lr<0.001"));  // train.lr: min_lr's last part is "min_lr"
    run.params["future.lr"] = "x";
    QVERIFY(!matches("lr<1"));             // now "lr" is ambiguous: train.lr or future.lr
    QVERIFY(!matches("momentum>0"));       // a key the run lacks never matches
    QVERIFY(!matches("wide #other"));      // every term must hold
  }

  void localTagEditsSurviveAStaleSnapshot() {
    RunsTableModel model;
    tw::ui::RunSnapshot run;
    run.run.id = 7;
    run.run.name = "r";
    model.mergeRuns({{run}});
    model.setTagLocally(7, "label.keep", std::string());
    QCOMPARE(model.index(0, RunsTableModel::Labels).data().toString(), QStringLiteral("keep"));
    model.mergeRuns({{run}});  // read before the write committed: the edit stays
    QCOMPARE(model.index(0, RunsTableModel::Labels).data().toString(), QStringLiteral("keep"));
    tw::ui::RunSnapshot stored = run;
    stored.tags["label.keep"] = "";
    model.mergeRuns({{stored}});  // the database agrees: nothing pending any more
    model.mergeRuns({{run}});     // so a later removal elsewhere shows
    QCOMPARE(model.index(0, RunsTableModel::Labels).data().toString(), QString());
  }

  void aStaleSnapshotDoesNotBringBackADeletedRun() {
    RunsTableModel model;
    tw::ui::RunSnapshot run;
    run.run.id = 7;
    run.run.uuid = std::string(32, 'a');
    run.run.name = "doomed";
    model.mergeRuns({{run}});
    model.removeRun(7);
    model.mergeRuns({{run}});  // polled just before the delete committed
    QCOMPARE(model.rowCount(), 0);
    tw::ui::RunSnapshot reused = run;  // SQLite may hand the id to a new run
    reused.run.uuid = std::string(32, 'b');
    reused.run.name = "newcomer";
    model.mergeRuns({{reused}});
    QCOMPARE(model.rowCount(), 1);
  }

  void filtersByQueryOnParamsAndMetrics() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTableView *table = page->table();
    QTRY_COMPARE(table->model()->rowCount(), 3);
    page->filterText()->setText(QStringLiteral("lr < 0.05"));
    QCOMPARE(table->model()->rowCount(), 2);
    page->filterText()->setText(QStringLiteral("lr<0.05 val/accuracy>0.8"));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("mlp-baseline"));
    page->filterText()->setText(QStringLiteral("train.optimizer=sgd"));
    QCOMPARE(table->model()->rowCount(), 1);
    QCOMPARE(table->model()->index(0, RunsTableModel::Name).data().toString(), QStringLiteral("cnn-wide"));
    page->filterText()->clear();
    QCOMPARE(table->model()->rowCount(), 3);
  }

  void tagsNotesAndArchiveAreStored() {
    const int64_t baseline = m_ws->store->findRun("mlp-baseline")->id;
    const int64_t wide = m_ws->store->findRun("cnn-wide")->id;
    const int64_t dropout = m_ws->store->findRun("mlp-dropout")->id;
    {
      tw::ui::MainWindow window;
      window.show();
      QVERIFY(window.openWorkspace(m_ws->dir));
      tw::ui::RunsPage *page = window.runsPage();
      QTableView *table = page->table();
      QTRY_COMPARE(table->model()->rowCount(), 3);
      QSignalSpy written(page->control(), &tw::ui::RunControl::tagsWritten);

      // Two runs selected, one label for both.
      page->selectRun(baseline);
      const QModelIndex wideCell =
          table->model()->index(tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("cnn-wide")), 0);
      table->selectionModel()->select(wideCell, QItemSelectionModel::Select | QItemSelectionModel::Rows);
      QCOMPARE(page->selectedRunIds().size(), size_t(2));
      page->addLabelToSelection(QStringLiteral("  baseline "));
      const int baselineRow = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("mlp-baseline"));
      QCOMPARE(table->model()->index(baselineRow, RunsTableModel::Labels).data().toString(), QStringLiteral("baseline"));
      QTRY_COMPARE(written.count(), 1);
      QCOMPARE(m_ws->store->tags(baseline).count("label.baseline"), size_t(1));
      QCOMPARE(m_ws->store->tags(wide).count("label.baseline"), size_t(1));
      QCOMPARE(m_ws->store->tags(dropout).count("label.baseline"), size_t(0));

      // The label filter offers it and filters by it.
      const int labelIndex = page->filterLabel()->findText(QStringLiteral("baseline"));
      QVERIFY(labelIndex > 0);
      page->filterLabel()->setCurrentIndex(labelIndex);
      QCOMPARE(table->model()->rowCount(), 2);
      page->filterLabel()->setCurrentIndex(0);

      // A note typed into its cell.
      const QModelIndex note = table->model()->index(baselineRow, RunsTableModel::Note);
      QVERIFY(table->model()->flags(note) & Qt::ItemIsEditable);
      QVERIFY(table->model()->setData(note, QStringLiteral("best so far\nwith adam")));
      QCOMPARE(table->model()->index(baselineRow, RunsTableModel::Note).data().toString(), QStringLiteral("best so far"));
      QTRY_COMPARE(QString::fromStdString(m_ws->store->tags(baseline)["note"]), QStringLiteral("best so far\nwith adam"));

      // Archived runs leave the table until asked for.
      page->selectRun(dropout);
      page->setSelectionArchived(true);
      QCOMPARE(table->model()->rowCount(), 2);
      QTRY_COMPARE(QString::fromStdString(m_ws->store->tags(dropout)["archived"]), QStringLiteral("1"));
      page->showArchived()->setChecked(true);
      QCOMPARE(table->model()->rowCount(), 3);
      // The poller brings the stored tags back; they must agree with the table.
      QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 3));
      QCOMPARE(table->model()->rowCount(), 3);
      QCOMPARE(table->model()->index(baselineRow, RunsTableModel::Labels).data().toString(), QStringLiteral("baseline"));
      page->showArchived()->setChecked(false);
      QCOMPARE(table->model()->rowCount(), 2);
      window.close();
    }
    {
      // A new window reads all of it from the database.
      tw::ui::MainWindow window;
      window.show();
      QVERIFY(window.openWorkspace(m_ws->dir));
      tw::ui::RunsPage *page = window.runsPage();
      QTableView *table = page->table();
      page->showArchived()->setChecked(true);
      QTRY_COMPARE(table->model()->rowCount(), 3);
      page->showArchived()->setChecked(false);
      QCOMPARE(table->model()->rowCount(), 2);
      const int row = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("cnn-wide"));
      QCOMPARE(table->model()->index(row, RunsTableModel::Labels).data().toString(), QStringLiteral("baseline"));
      QVERIFY(page->filterLabel()->findText(QStringLiteral("baseline")) > 0);

      // Taking the label off the runs that carry it, and unarchiving.
      page->selectRun(wide);
      page->removeLabelFromSelection(QStringLiteral("baseline"));
      QTRY_COMPARE(m_ws->store->tags(wide).count("label.baseline"), size_t(0));
      QCOMPARE(m_ws->store->tags(baseline).count("label.baseline"), size_t(1));
      page->showArchived()->setChecked(true);
      page->selectRun(dropout);
      page->setSelectionArchived(false);
      QTRY_COMPARE(m_ws->store->tags(dropout).count("archived"), size_t(0));
      page->showArchived()->setChecked(false);
      QCOMPARE(table->model()->rowCount(), 3);
      window.close();
    }
  }

  void columnChooserAddsParamsAndMetrics() {
    {
      tw::ui::MainWindow window;
      window.show();
      QVERIFY(window.openWorkspace(m_ws->dir));
      tw::ui::RunsPage *page = window.runsPage();
      QTableView *table = page->table();
      QTRY_COMPARE(table->model()->rowCount(), 3);
      QVERIFY(page->model()->knownParamKeys().contains(QStringLiteral("train.lr")));
      QVERIFY(page->model()->knownMetricKeys().contains(QStringLiteral("train/loss")));

      const tw::ui::ExtraColumn lr{tw::ui::ExtraColumn::Kind::Param, "train.lr"};
      const tw::ui::ExtraColumn loss{tw::ui::ExtraColumn::Kind::Metric, "train/loss"};
      page->setExtraColumnShown(lr, true);
      page->setExtraColumnShown(loss, true);
      const int lrColumn = page->model()->columnOf(lr);
      QCOMPARE(lrColumn, int(RunsTableModel::FixedColumnCount));
      QCOMPARE(table->model()->headerData(lrColumn, Qt::Horizontal).toString(), QStringLiteral("train.lr"));
      // Parameters sort as numbers: 0.001 < 0.01 < 0.1, where text order would agree only by luck.
      table->sortByColumn(lrColumn, Qt::AscendingOrder);
      QCOMPARE(table->model()->index(0, lrColumn).data().toString(), QStringLiteral("0.001"));
      QCOMPARE(table->model()->index(2, lrColumn).data().toString(), QStringLiteral("0.1"));
      const int lossColumn = page->model()->columnOf(loss);
      const int baselineRow = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("mlp-baseline"));
      QCOMPARE(table->model()->index(baselineRow, lossColumn).data().toString(), tw::ui::formatNumber(tw::test::lossAt(200)));

      // A column of numbers and texts: numbers in order, then the texts.
      const tw::ui::ExtraColumn name{tw::ui::ExtraColumn::Kind::Param, "train.epochs"};
      page->setExtraColumnShown(name, true);
      const int epochsColumn = page->model()->columnOf(name);
      m_ws->setParams(m_ws->store->findRun("cnn-wide")->id, {{"train.epochs", "auto"}});
      QTRY_COMPARE(table->model()->index(tw::test::rowWithText(table->model(), RunsTableModel::Name,
                                                               QStringLiteral("cnn-wide")), epochsColumn).data().toString(),
                   QStringLiteral("auto"));
      table->sortByColumn(epochsColumn, Qt::AscendingOrder);
      QCOMPARE(table->model()->index(0, epochsColumn).data().toString(), QStringLiteral("10"));
      QCOMPARE(table->model()->index(2, epochsColumn).data().toString(), QStringLiteral("auto"));
      m_ws->setParams(m_ws->store->findRun("cnn-wide")->id, {{"train.epochs", "2"}});
      page->setExtraColumnShown(name, false);

      page->setColumnVisible(RunsTableModel::Experiment, false);
      QVERIFY(table->horizontalHeader()->isSectionHidden(RunsTableModel::Experiment));

      const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
      QVERIFY(QDir().mkpath(dir));
      QVERIFY(window.grab().save(dir + QStringLiteral("/studio_runs_columns.png")));
      window.close();  // saves the layout with the chosen columns
    }
    tw::ui::MainWindow reopened;
    reopened.show();
    QVERIFY(reopened.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = reopened.runsPage();
    QCOMPARE(page->model()->extraColumns().size(), size_t(2));
    QCOMPARE(page->model()->columnOf({tw::ui::ExtraColumn::Kind::Param, "train.lr"}),
             int(RunsTableModel::FixedColumnCount));
    QVERIFY(page->table()->horizontalHeader()->isSectionHidden(RunsTableModel::Experiment));
    page->setExtraColumnShown({tw::ui::ExtraColumn::Kind::Param, "train.lr"}, false);
    QCOMPARE(page->model()->columnCount(), int(RunsTableModel::FixedColumnCount) + 1);
    page->setColumnVisible(RunsTableModel::Experiment, true);
    page->setExtraColumnShown({tw::ui::ExtraColumn::Kind::Metric, "train/loss"}, false);
    reopened.close();
  }

  void deletesRunsWithTheirFolders() {
    tw::test::Workspace ws;
    tw::tracking::NewRun spec;
    spec.name = "to-delete";
    spec.runsRoot = (ws.dir + "/runs").toStdString();
    const auto doomed = ws.store->createRun(spec);
    QVERIFY(QDir().mkpath(QString::fromStdString(doomed.runDir) + "/checkpoints"));
    QFile file(QString::fromStdString(doomed.runDir) + "/checkpoints/last.pt");
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    ws.store->writeMetrics(doomed.id, tw::test::trainLossRows(1, 10));
    ws.store->setStatus(doomed.id, RunStatus::Running);
    ws.store->setStatus(doomed.id, RunStatus::Finished);
    auto live = ws.createRun("still-running");
    ws.store->setStatus(live.id, RunStatus::Running);

    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTRY_COMPARE(page->model()->rowCount(), 2);
    page->selectRun(live.id);
    QVERIFY(!page->deleteButton()->isEnabled());  // a running run is stopped first, not deleted
    page->selectRun(doomed.id);
    QTRY_VERIFY(page->deleteButton()->isEnabled());
    page->deleteSelectedRuns(false);
    QTRY_COMPARE(page->model()->rowCount(), 1);
    QVERIFY(!ws.store->findRun("to-delete"));
    QVERIFY(!QDir(QString::fromStdString(doomed.runDir)).exists());
    QVERIFY(ws.store->metricPoints(doomed.id, "train/loss").empty());
    QVERIFY(ws.store->findRun("still-running"));
  }

  // Several selected runs: every chart of the Curves and Training tabs overlays their curves, each
  // run in one colour everywhere, the legend naming it; the test accuracy recorded at the end is
  // a marker at its step, for one run as for several.
  // Two runs with different steps per epoch (40 and 20: batch sizes a factor two apart) overlaid
  // and drawn against epochs: their validation points line up at the epochs the runs' `epoch`
  // rows say, the test figure at the last epoch, and the axis says what it counts.
  void overlaidRunsLineUpAgainstEpochs() {
    const auto best = *m_ws->store->findRun("mlp-baseline");
    const auto failed = *m_ws->store->findRun("cnn-wide");
    std::vector<tw::tracking::MetricRow> epochs;
    for (int64_t e = 1; e <= 5; ++e) epochs.push_back({"epoch", 40 * e, static_cast<double>(e), tw::tracking::nowMs()});
    m_ws->store->writeMetrics(best.id, epochs);
    m_ws->store->writeMetrics(failed.id, {{"epoch", 20, 1.0, tw::tracking::nowMs()}, {"epoch", 40, 2.0, tw::tracking::nowMs()}});
    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTRY_COMPARE(page->model()->rowCount(), 3);
    tw::ui::RunDetailView *detail = page->detail();
    tw::ui::MetricChart *loss = detail->lossChart(), *accuracy = detail->accuracyChart();
    page->selectRun(best.id);
    QTableView *table = page->table();
    const int failedRow = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("cnn-wide"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      table->visualRect(table->model()->index(failedRow, RunsTableModel::Name)).center());
    QTRY_COMPARE(detail->chartedRunIds().size(), size_t(2));
    const auto key = [&](int64_t run, const std::string &metric) { return detail->seriesKey(run, metric); };
    QTRY_COMPARE(loss->rawPointCount(key(failed.id, "val/loss")), 2);
    QTRY_COMPARE(loss->rawPointCount(key(best.id, "val/loss")), 10);

    QComboBox *xAxis = detail->xAxisBox();
    xAxis->setCurrentIndex(xAxis->findData(static_cast<int>(tw::ui::XAxisKind::Epoch)));
    QCOMPARE(loss->xAxis(), tw::ui::XAxisKind::Epoch);
    QCOMPARE(detail->lrChart()->xAxis(), tw::ui::XAxisKind::Epoch);  // the Training tab's charts too
    auto xs = [&](const std::string &seriesKey) {
      QList<double> out;
      for (const QPointF &p : loss->drawnPoints(seriesKey)) out << p.x();
      return out;
    };
    QTRY_COMPARE(xs(key(failed.id, "val/loss")), (QList<double>{1, 2}));
    QCOMPARE(xs(key(best.id, "val/loss")), (QList<double>{0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5}));
    QCOMPARE(accuracy->markerPoint(key(best.id, "test/accuracy")).x(), 5.0);
    QCOMPARE(loss->stepAxis()->titleText(), QStringLiteral("Epoch"));
    window.grab().save(tw::test::screenshotPath("runs_overlay_epochs.png"));

    xAxis->setCurrentIndex(xAxis->findData(static_cast<int>(tw::ui::XAxisKind::Step)));
    QCOMPARE(xs(key(failed.id, "val/loss")), (QList<double>{20, 40}));
  }

  void overlaysSelectedRunsInOneColourEach() {
    const auto best = *m_ws->store->findRun("mlp-baseline");
    const auto failed = *m_ws->store->findRun("cnn-wide");
    for (const auto &run : {best, failed}) {
      std::vector<tw::tracking::MetricRow> rates;
      for (int64_t step = 1; step <= 30; ++step) rates.push_back({"train/lr", step, 1e-3, tw::tracking::nowMs()});
      m_ws->store->writeMetrics(run.id, rates);
    }
    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTRY_COMPARE(page->model()->rowCount(), 3);
    tw::ui::RunDetailView *detail = page->detail();
    tw::ui::MetricChart *loss = detail->lossChart(), *accuracy = detail->accuracyChart(), *lr = detail->lrChart();

    page->selectRun(best.id);
    QTRY_COMPARE(loss->rawPointCount("train/loss"), 200);
    QVERIFY(accuracy->hasMarker("test/accuracy"));
    QCOMPARE(accuracy->markerPoint("test/accuracy"), QPointF(200, 0.8712));
    QVERIFY(!loss->hasMarker("test/loss"));  // not recorded: no marker

    // Ctrl-click the failed run: the run in detail stays, the other joins the charts.
    QTableView *table = page->table();
    const int failedRow = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("cnn-wide"));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      table->visualRect(table->model()->index(failedRow, RunsTableModel::Name)).center());
    QCOMPARE(page->selectedRunIds().size(), size_t(2));
    QTRY_COMPARE(detail->chartedRunIds().size(), size_t(2));
    const int64_t inDetail = detail->runId();
    const int64_t other = inDetail == best.id ? failed.id : best.id;
    QCOMPARE(detail->chartedRunIds(), (std::vector<int64_t>{inDetail, other}));
    const auto key = [&](int64_t run, const std::string &metric) { return detail->seriesKey(run, metric); };
    QTRY_COMPARE(loss->rawPointCount(key(best.id, "train/loss")), 200);
    QTRY_COMPARE(loss->rawPointCount(key(failed.id, "train/loss")), 40);
    QTRY_COMPARE(loss->rawPointCount(key(failed.id, "val/loss")), 2);
    QTRY_COMPARE(accuracy->rawPointCount(key(failed.id, "val/accuracy")), 2);
    QTRY_COMPARE(lr->rawPointCount(key(best.id, "train/lr")), 30);
    QTRY_COMPARE(lr->rawPointCount(key(failed.id, "train/lr")), 30);
    // One colour per run, the same on every chart; the legend names the runs.
    for (size_t index = 0; index < 2; ++index) {
      const int64_t run = detail->chartedRunIds()[index];
      for (const auto &[chart, metric] : std::vector<std::pair<tw::ui::MetricChart *, std::string>>{
               {loss, "train/loss"}, {loss, "val/loss"}, {accuracy, "val/accuracy"}, {lr, "train/lr"}})
        QCOMPARE(chart->seriesPenColor(key(run, metric)), tw::ui::seriesColor(index));
    }
    QCOMPARE(loss->seriesLabel(key(failed.id, "train/loss")), QStringLiteral("cnn-wide · Training"));
    QCOMPARE(lr->seriesLabel(key(failed.id, "train/lr")), QStringLiteral("cnn-wide"));
    QCOMPARE(accuracy->markerPoint(key(best.id, "test/accuracy")), QPointF(200, 0.8712));
    QVERIFY(!accuracy->hasMarker(key(failed.id, "test/accuracy")));
    const QString shots = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QVERIFY(QDir().mkpath(shots));
    QVERIFY(window.grab().save(shots + QStringLiteral("/studio_runs_overlay.png")));

    // Back to one run: the other's curves leave every chart.
    page->selectRun(best.id);
    QTRY_COMPARE(detail->chartedRunIds(), std::vector<int64_t>{best.id});
    QVERIFY(!loss->hasSeries("train/loss@" + std::to_string(failed.id)));
    QVERIFY(!lr->hasSeries("train/lr@" + std::to_string(failed.id)));
    QTRY_COMPARE(loss->rawPointCount("train/loss"), 200);
  }

  // The Parameters tab lists the run's recorded configuration and filters keys and values as
  // the user types.
  void parametersTabFiltersAsYouType() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 3);
    window.runsPage()->selectRun(m_ws->store->findRun("cnn-wide")->id);
    tw::ui::ParamsPanel *params = window.runsPage()->detail()->paramsPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(params);
    QTRY_COMPARE(params->visibleRowCount(), 3);
    QTest::keyClicks(params->searchField(), QStringLiteral("OPTIM"));  // a key, either case
    QCOMPARE(params->visibleRowCount(), 1);
    const QAbstractItemModel *shown = params->table()->model();
    QCOMPARE(shown->index(0, tw::ui::ParamsPanel::KeyColumn).data().toString(), QStringLiteral("train.optimizer"));
    QCOMPARE(shown->index(0, tw::ui::ParamsPanel::ValueColumn).data().toString(), QStringLiteral("sgd"));
    params->searchField()->clear();
    QTest::keyClicks(params->searchField(), QStringLiteral("0.1"));  // a value
    QCOMPARE(params->visibleRowCount(), 1);
    QCOMPARE(shown->index(0, tw::ui::ParamsPanel::KeyColumn).data().toString(), QStringLiteral("train.lr"));
    params->searchField()->clear();
    QCOMPARE(params->visibleRowCount(), 3);
    // Another run's parameters replace them; the search stays.
    QTest::keyClicks(params->searchField(), QStringLiteral("adam"));
    window.runsPage()->selectRun(m_ws->store->findRun("mlp-baseline")->id);
    QTRY_COMPARE(params->visibleRowCount(), 1);
    QCOMPARE(shown->index(0, tw::ui::ParamsPanel::KeyColumn).data().toString(), QStringLiteral("train.optimizer"));
  }

  // Numbers in the Parameters tab and the runs table read as everywhere in Studio: the digits
  // that matter, in the locale (here German), the recorded value in the tooltip, and sorting by
  // the number rather than the text. Before, the tab showed "0.002915586427666988".
  void germanNumbersInParametersAndRunsTable() {
    struct RestoreLocale {
      ~RestoreLocale() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }
    } restore;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const int64_t id = m_ws->store->findRun("cnn-wide")->id;
    m_ws->setParams(id, {{"train.lr", "0.002915586427666988"}, {"train.weight_decay", "0.0005"},
                         {"train.epochs", "12"}, {"data.batch_size", "9"},
                         {"train.optimizer", "sgd"}});
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 3);
    window.runsPage()->selectRun(id);
    tw::ui::ParamsPanel *params = window.runsPage()->detail()->paramsPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(params);
    QTRY_COMPARE(params->visibleRowCount(), 5);
    const QAbstractItemModel *shown = params->table()->model();
    auto valueOf = [&](const QString &key) -> QModelIndex {
      for (int row = 0; row < shown->rowCount(); ++row)
        if (shown->index(row, tw::ui::ParamsPanel::KeyColumn).data().toString() == key)
          return shown->index(row, tw::ui::ParamsPanel::ValueColumn);
      return {};
    };
    QCOMPARE(valueOf("train.lr").data().toString(), QStringLiteral("0,002916"));
    QCOMPARE(valueOf("train.lr").data(Qt::ToolTipRole).toString(), QStringLiteral("0.002915586427666988"));
    QCOMPARE(valueOf("train.epochs").data().toString(), QStringLiteral("12"));
    QCOMPARE(valueOf("train.optimizer").data().toString(), QStringLiteral("sgd"));
    // By value, the texts after the numbers: 9 before 12, which as text would sort the other way.
    params->table()->sortByColumn(tw::ui::ParamsPanel::ValueColumn, Qt::DescendingOrder);
    QStringList order;
    for (int row = 0; row < shown->rowCount(); ++row) order << shown->index(row, tw::ui::ParamsPanel::ValueColumn).data().toString();
    QCOMPARE(order, (QStringList{"sgd", "12", "9", "0,002916", "0,0005"}));
    // A search matches a value as shown and as recorded.
    QTest::keyClicks(params->searchField(), QStringLiteral("0,0029"));
    QCOMPARE(params->visibleRowCount(), 1);
    params->searchField()->clear();
    QTest::keyClicks(params->searchField(), QStringLiteral("0.00291558"));
    QCOMPARE(params->visibleRowCount(), 1);
    params->searchField()->clear();
    params->grab().save(tw::test::screenshotPath("params_german.png"));

    // The runs table: the validation loss with four significant digits, the full value in the tooltip.
    auto *model = window.runsPage()->model();
    const int row = tw::test::rowWithText(model, RunsTableModel::Name, QStringLiteral("cnn-wide"));
    QVERIFY(row >= 0);
    const double loss = tw::test::lossAt(40) + 0.08;
    QCOMPARE(model->index(row, RunsTableModel::ValLoss).data().toString(), tw::ui::formatNumber(loss));
    QVERIFY(model->index(row, RunsTableModel::ValLoss).data().toString().contains(QLatin1Char(',')));
    QVERIFY(model->index(row, RunsTableModel::ValLoss).data(Qt::ToolTipRole).toString().contains(tw::ui::formatNumber(loss, 10)));
  }

  // The System tab's log follows its end while the run is live, stays where the user scrolled
  // up to, and shows the last line once the run has ended.
  void systemLogFollowsItsEnd() {
    tw::tracking::NewRun recorded;
    recorded.name = "logging";
    recorded.runsRoot = (m_ws->dir + "/runs").toStdString();
    const auto run = m_ws->store->createRun(recorded);
    const QString logPath = QString::fromStdString(run.runDir) + "/artifacts/worker.log";
    QVERIFY(QDir().mkpath(QFileInfo(logPath).path()));
    int written = 0;
    auto writeLines = [&](int count, const QString &last = {}) {
      QFile log(logPath);
      QVERIFY(log.open(QIODevice::Append));
      for (int i = 0; i < count; ++i) log.write(QStringLiteral("step %1 loss 0.5\n").arg(++written).toUtf8());
      if (!last.isEmpty()) log.write((last + "\n").toUtf8());
    };
    writeLines(60);
    m_ws->store->setStatus(run.id, RunStatus::Running);

    tw::ui::MainWindow window;
    window.resize(1000, 700);
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_VERIFY(window.runsPage()->model()->rowOfRun(run.id) >= 0);
    window.runsPage()->selectRun(run.id);
    tw::ui::SystemPanel *system = window.runsPage()->detail()->systemPanel();
    window.runsPage()->detail()->tabs()->setCurrentWidget(system);
    QScrollBar *bar = system->log()->verticalScrollBar();
    QTRY_VERIFY(system->log()->toPlainText().endsWith("step 60 loss 0.5"));
    QVERIFY2(bar->maximum() > 0, "the log must be longer than its view for this test");
    QTRY_COMPARE(bar->value(), bar->maximum());

    // New lines while at the end: followed.
    writeLines(5);
    QTRY_VERIFY_WITH_TIMEOUT(system->log()->toPlainText().endsWith("step 65 loss 0.5"), 10000);
    QCOMPARE(bar->value(), bar->maximum());
    // Scrolled up: new lines arrive, the view stays.
    bar->setValue(0);
    writeLines(5);
    QTRY_VERIFY_WITH_TIMEOUT(system->log()->toPlainText().endsWith("step 70 loss 0.5"), 10000);
    QCOMPARE(bar->value(), 0);

    // The run ends: its last line shows, wherever the user was.
    writeLines(0, QStringLiteral("finished: test accuracy 0.87"));
    m_ws->store->setStatus(run.id, RunStatus::Finished);
    QTRY_VERIFY_WITH_TIMEOUT(system->log()->toPlainText().endsWith("finished: test accuracy 0.87"), 10000);
    QTRY_COMPARE(bar->value(), bar->maximum());
  }

  // Export Report: the selected runs as one HTML page, written off the UI thread; the status bar
  // says where it went, or why it could not.
  void exportReportWritesTheSelectedRuns() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTableView *table = page->table();
    QTRY_COMPARE(table->model()->rowCount(), 3);
    QVERIFY(window.findChild<QAction *>(QStringLiteral("exportReportAction")));
    QSignalSpy finished(page, &tw::ui::RunsPage::reportFinished);
    QVERIFY(!page->exportReport(m_settingsDir->filePath(QStringLiteral("none.html"))));  // nothing selected
    page->selectRun(m_ws->store->findRun("mlp-baseline")->id);
    const QModelIndex wideCell =
        table->model()->index(tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("cnn-wide")), 0);
    table->selectionModel()->select(wideCell, QItemSelectionModel::Select | QItemSelectionModel::Rows);
    const QString file = m_settingsDir->filePath(QStringLiteral("two-runs.html"));
    QVERIFY(page->exportReport(file));
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished[0][0].toBool(), true);
    QCOMPARE(finished[0][1].toString(), file);
    QFile html(file);
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(html.readAll());
    QVERIFY(text.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(text.contains(QStringLiteral("mlp-baseline")) && text.contains(QStringLiteral("cnn-wide")) &&
            !text.contains(QStringLiteral("mlp-dropout")));
    QVERIFY(text.contains(QStringLiteral("<tr class=\"differs\"><td>train.lr</td>")));
    QTRY_VERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Report written to ") + file));
    // A folder that does not exist: said, nothing written.
    QVERIFY(page->exportReport(m_settingsDir->filePath(QStringLiteral("no-such-folder/r.html"))));
    QTRY_COMPARE(finished.count(), 2);
    QCOMPARE(finished[1][0].toBool(), false);
    QVERIFY2(finished[1][1].toString().contains(QStringLiteral("cannot write")), qPrintable(finished[1][1].toString()));
  }

  // The panel reads through StoreCall: a store it cannot open is said in the panel.
  void systemPanelSaysWhenTheStoreCannotBeRead() {
    tw::ui::SystemPanel panel;
    panel.setDatabasePath(QDir(m_ws->dir).filePath(QStringLiteral("no-such-folder/tracking.db")));
    tw::ui::RunSnapshot snapshot;
    snapshot.run.id = 1;
    snapshot.run.status = RunStatus::Finished;
    QSignalSpy refreshed(&panel, &tw::ui::SystemPanel::refreshed);
    panel.showRun(snapshot);
    QTRY_COMPARE(refreshed.count(), 1);
    const QString said = panel.status()->text();
    QVERIFY2(said.startsWith(QStringLiteral("Could not read the run's system metrics: ")), qPrintable(said));
    QCOMPARE(panel.ranks()->rowCount(), 0);
  }

  // "No NVIDIA GPU" is said once, not once from the panel and again from NVML's reason, and
  // stays so over refreshes.
  void noGpuMessageIsSaidOnce() {
    QCOMPARE(tw::ui::noGpuText(QStringLiteral("no NVIDIA GPU (the driver reports none)")),
             QStringLiteral("No NVIDIA GPU: the driver reports none"));
    QCOMPARE(tw::ui::noGpuText(QStringLiteral("NVML is too old (an entry point is missing)")),
             QStringLiteral("No NVIDIA GPU: NVML is too old (an entry point is missing)"));
    const tw::sysmon::Nvml nvml;
    if (nvml.available()) QSKIP("this machine has an NVIDIA GPU: the panel says something else");
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 3);
    window.runsPage()->selectRun(m_ws->store->findRun("mlp-baseline")->id);
    tw::ui::SystemPanel *system = window.runsPage()->detail()->systemPanel();
    QSignalSpy refreshed(system, &tw::ui::SystemPanel::refreshed);
    QTRY_VERIFY(!system->gpuState()->text().isEmpty());
    system->refresh();
    system->refresh();
    QTRY_VERIFY(refreshed.count() >= 2);
    const QString said = system->gpuState()->text();
    QCOMPARE(said.count(QStringLiteral("NVIDIA GPU"), Qt::CaseInsensitive), 1);
    QCOMPARE(said, tw::ui::noGpuText(QString::fromStdString(nvml.why())));
  }

  void layoutSurvivesRestart() {
    QByteArray saved;
    {
      tw::ui::MainWindow window;
      window.show();
      auto *header = window.findChild<QTableView *>(QStringLiteral("runsTable"))->horizontalHeader();
      header->resizeSection(RunsTableModel::Name, 321);
      window.close();  // saves the layout
    }
    tw::ui::MainWindow reopened;
    auto *header = reopened.findChild<QTableView *>(QStringLiteral("runsTable"))->horizontalHeader();
    QCOMPARE(header->sectionSize(RunsTableModel::Name), 321);
  }

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;
  std::unique_ptr<tw::test::Workspace> m_ws;
};

QTEST_MAIN(TestStudioRuns)
#include "test_studio_runs.moc"
