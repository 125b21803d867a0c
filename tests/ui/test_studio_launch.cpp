// Launch from Studio for real: the Design page's model and the Launch page's form start
// `torchwright launch --detach` (the real CLI, launcher and worker on Fashion-MNIST images), the
// run appears on the Runs page and its loss curve grows while it trains, and Stop ends it KILLED
// with a checkpoint, all without the window waiting on anything.

#include "studio_fixture.h"

#include "core/sysmon/nvml.h"
#include "core/data/data_splits.h"

#include "ui/charts/metric_chart.h"
#include "ui/design/design_page.h"
#include "ui/design/model_document.h"
#include "ui/launch/config_sections.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/model_source.h"
#include "ui/launch/run_launcher.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/system_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QTableWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QSignalSpy>
#include <QtTest>

#include <numeric>

using tw::tracking::RunStatus;

class TestStudioLaunch : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void launchWatchAndStopARun() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QVERIFY(window.designPage()->document()->loadTemplate("mlp", nullptr));

    tw::ui::LaunchPage *launch = window.launchPage();
    launch->launcher()->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    window.pages()->setCurrentWidget(launch);
    launch->dataset()->setCurrentText("fashion-mnist");
    // 54,000 training images: about a second an epoch, so the run outlasts the checks below (a
    // 60-epoch run of 20,000 could end before Checkpoint now was taken) and its log's first line
    // stays within the panel's 40-line tail while they run.
    launch->trainLimit()->setValue(60000);
    launch->batchSize()->setValue(100);
    launch->epochs()->setValue(60);
    launch->runName()->setText("from-studio");
    QVERIFY(launch->runYaml().contains("run_name: 'from-studio'"));
    QVERIFY2(launch->runYaml().contains("train_limit: 60000"), qPrintable(launch->runYaml()));
    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QDir().mkpath(dir);
    window.grab().save(dir + QStringLiteral("/studio_launch.png"));

    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launch->statusText().contains("in the background"), 60000);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(window.runsPage()));

    // The run reaches the table through the database, and the chart follows it live.
    auto run = ws.store->findRun("from-studio");
    QVERIFY(run.has_value());
    QTRY_VERIFY_WITH_TIMEOUT(window.runsPage()->model()->rowOfRun(run->id) >= 0, 20000);
    // Launch leaves the new run selected on the Runs page, so its curves show as it trains.
    QTRY_COMPARE_WITH_TIMEOUT(window.runsPage()->selectedRunId(), run->id, 20000);
    auto *loss = window.findChild<tw::ui::MetricChart *>(QStringLiteral("lossChart"));
    QTRY_VERIFY_WITH_TIMEOUT(loss->rawPointCount("train/loss") > 0, 60000);
    const int first = loss->rawPointCount("train/loss");
    QTRY_VERIFY_WITH_TIMEOUT(loss->rawPointCount("train/loss") > first + 20, 60000);
    window.grab().save(dir + QStringLiteral("/studio_live_run.png"));

    // The machine side: progress of the 60 epochs, the rank's process as the launcher sampled
    // it, this machine's GPU state, and the tail of the worker's log.
    tw::ui::SystemPanel *system = window.runsPage()->detail()->systemPanel();
    QCOMPARE(system->progress()->maximum(), 60);
    QTRY_VERIFY_WITH_TIMEOUT(system->ranks()->rowCount() == 1, 20000);
    QCOMPARE(system->ranks()->item(0, 0)->text(), QStringLiteral("0"));
    // Resident MB of a training worker (the launcher's first sample is taken as it starts).
    QTRY_VERIFY_WITH_TIMEOUT(system->ranks()->item(0, 2)->text().toDouble() > 50.0, 20000);
    // The GPU side is what this machine's NVML reports: GPU 0's readings in rank 0's row when
    // there is a GPU, the reason there is none otherwise (and no readings).
    const tw::sysmon::Nvml nvml;
    if (nvml.available()) {
      QTRY_VERIFY_WITH_TIMEOUT(system->ranks()->item(0, 5)->text() != QStringLiteral("–"), 20000);
      bool number = false;
      system->ranks()->item(0, 5)->text().toDouble(&number);  // GPU memory in use, MB
      QVERIFY2(number, qPrintable(system->ranks()->item(0, 5)->text()));
      QVERIFY2(system->gpuState()->text().isEmpty(), qPrintable(system->gpuState()->text()));
    } else {
      QCOMPARE(system->gpuState()->text(), tw::ui::noGpuText(QString::fromStdString(nvml.why())));
      for (int column = 4; column < system->ranks()->columnCount(); ++column)
        QCOMPARE(system->ranks()->item(0, column)->text(), QStringLiteral("–"));
    }
    QTRY_VERIFY_WITH_TIMEOUT(system->log()->toPlainText().contains("threads:"), 20000);
    QVERIFY(system->eta()->text().contains(":"));

    // Checkpoint now: the worker takes the request and writes last.pt mid-epoch, training on.
    QTRY_VERIFY(window.runsPage()->checkpointButton()->isEnabled());
    QTest::mouseClick(window.runsPage()->checkpointButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(system->log()->toPlainText().contains("checkpoint on request at step"), 30000);
    QCOMPARE(ws.store->run(run->id)->status, RunStatus::Running);

    // Stop: the run ends KILLED after a checkpoint, and the page says so.
    QPushButton *stop = window.runsPage()->stopButton();
    QTRY_VERIFY(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(ws.store->run(run->id)->status == RunStatus::Killed, 60000);
    const auto stopped = *ws.store->run(run->id);
    QCOMPARE(QString::fromStdString(stopped.statusMessage), QStringLiteral("stopped on request"));
    QVERIFY(QFile::exists(QString::fromStdString(stopped.runDir) + "/checkpoints/last.pt"));
    QTRY_VERIFY(!stop->isEnabled());
    // Resume (the Runs page's menu): the run continues from last.pt in the background.
    window.runsPage()->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    QSignalSpy resumed(window.runsPage(), &tw::ui::RunsPage::resumeFinished);
    QVERIFY(window.runsPage()->resumeRun(run->id));
    QVERIFY(resumed.wait(60000));
    QVERIFY2(resumed.front().at(0).toInt() == 0, qPrintable(resumed.front().at(1).toString()));
    QTRY_VERIFY_WITH_TIMEOUT(ws.store->run(run->id)->status == RunStatus::Running, 60000);
    QTRY_VERIFY(stop->isEnabled());
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(ws.store->run(run->id)->status == RunStatus::Killed, 60000);
    // What Studio launched can be launched again from the command line: the run file stays.
    QVERIFY(!QDir(ws.dir + "/studio-runs").entryList({"*.run.yaml"}).isEmpty());
  }

  void previewsTheData() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::LaunchPage *launch = window.launchPage();
    window.pages()->setCurrentWidget(launch);
    launch->dataset()->setCurrentText("fashion-mnist");
    launch->trainLimit()->setValue(2000);
    QSignalSpy previewed(launch->dataPreview(), &tw::ui::DataPreview::previewed);
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const auto &result = launch->dataPreview()->result();
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(launch->dataPreview()->splitText(), QStringLiteral("train 1,800 · validation 200 · test 10,000"));
    QCOMPARE(int(result.classCounts.size()), 10);
    QCOMPARE(std::accumulate(result.classCounts.begin(), result.classCounts.end(), int64_t(0)), int64_t(2000));
    QCOMPARE(result.classNames.value(9), QStringLiteral("Ankle boot"));
    QVERIFY(!result.grid.isNull());
    tw::test::settleEvents();  // the new pictures laid out
    window.grab().save(QStringLiteral(TW_BINARY_DIR "/screenshots/studio_data_preview.png"));

    launch->dataset()->setCurrentText("image-folder");  // no path: said plainly
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    QVERIFY(launch->dataPreview()->result().error.contains("path"));
  }

  // What `torchwright check` would refuse, the page refuses itself, before a run file or a run
  // exists, with the validator's message: a device this machine lacks (the GPU count is pinned,
  // whatever this machine has), a data file that does not exist, a schedule without what it
  // needs. The check runs off the UI thread; the page's answer is the positive signal waited for.
  void refusesABadRunBeforeLaunching() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QVERIFY(window.designPage()->document()->loadTemplate("mlp", nullptr));
    tw::ui::LaunchPage *launch = window.launchPage();
    window.pages()->setCurrentWidget(launch);
    launch->launcher()->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    QSignalSpy launched(launch->launcher(), &tw::ui::RunLauncher::launched);
    qputenv("TORCHWRIGHT_TEST_GPUS", "1");
    launch->device()->setText(QStringLiteral("cuda:3"));
    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launch->statusText().contains(QStringLiteral("Not launched")), 20000);
    qunsetenv("TORCHWRIGHT_TEST_GPUS");
    QVERIFY2(launch->statusText().contains(QStringLiteral("train.device")) &&
                 launch->statusText().contains(QStringLiteral("has 1 GPU")),
             qPrintable(launch->statusText()));
    QVERIFY(launch->launchButton()->isEnabled());

    // A missing data file.
    launch->device()->setText(QStringLiteral("cpu"));
    launch->dataset()->setCurrentText(QStringLiteral("csv"));
    const QString missing = ws.dir + QStringLiteral("/no-such-table.csv");
    launch->dataPath()->setText(missing);
    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launch->statusText().contains(QStringLiteral("Not launched")), 20000);
    QVERIFY2(launch->statusText().contains(QStringLiteral("no-such-table.csv")), qPrintable(launch->statusText()));
    QVERIFY(launch->launchButton()->isEnabled());

    // A bad combination of fields: multistep without its milestones.
    launch->dataset()->setCurrentText(QStringLiteral("fashion-mnist"));
    launch->schedule()->setCurrentText(QStringLiteral("multistep"));
    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launch->statusText().contains(QStringLiteral("Not launched")), 20000);
    QVERIFY2(launch->statusText().contains(QStringLiteral("train.milestones")), qPrintable(launch->statusText()));

    QVERIFY(launch->launchButton()->isEnabled());
    QVERIFY(!launch->launcher()->isBusy());  // no `torchwright launch` was started
    QCOMPARE(launched.count(), 0);
    QVERIFY(QDir(ws.dir + QStringLiteral("/studio-runs")).entryList(QDir::Files).isEmpty());
    QVERIFY(ws.store->listRuns().empty());
  }

  // A model file chosen on the page is what the run trains, and the status line follows the run
  // to its recorded end.
  void launchesAModelFileAndFollowsTheRun() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QVERIFY(window.designPage()->document()->loadTemplate("mlp", nullptr));
    tw::ui::LaunchPage *launch = window.launchPage();
    launch->launcher()->setCliPath(QStringLiteral(TW_BIN_DIR "/torchwright"));
    window.pages()->setCurrentWidget(launch);
    const QString file = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml");
    launch->modelSource()->setModelFile(file);
    launch->dataset()->setCurrentText("fashion-mnist");
    launch->trainLimit()->setValue(300);
    launch->batchSize()->setValue(100);
    launch->epochs()->setValue(1);
    launch->runName()->setText("from-model-file");
    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(launch->statusText().contains("in the background") ||
                                 launch->statusText().contains("finished"),
                             60000);
    QTRY_VERIFY2_WITH_TIMEOUT(launch->statusText().contains("finished"), qPrintable(launch->statusText()), 120000);
    auto run = ws.store->findRun("from-model-file");
    QVERIFY(run.has_value());
    QCOMPARE(run->status, RunStatus::Finished);
    QCOMPARE(launch->statusText(), QStringLiteral("Run %1 finished.").arg(QString::fromStdString(run->uuid).left(8)));
    // The run trained the file's model, not the open design.
    const auto params = ws.store->params(run->id);
    QCOMPARE(QString::fromStdString(params.at("model.file")), file);
    QCOMPARE(params.at("model.parameters"), std::string("235146"));
  }

  void previewsCsvTablesAndSyntheticSets() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::LaunchPage *launch = window.launchPage();
    window.pages()->setCurrentWidget(launch);
    QSignalSpy previewed(launch->dataPreview(), &tw::ui::DataPreview::previewed);

    // A CSV table: its first rows, its columns offered as targets, the reader's own checks.
    launch->dataset()->setCurrentText("csv");
    QVERIFY(launch->csvTarget()->isVisible() && !launch->samples()->isVisible());
    launch->dataPath()->setText(QStringLiteral(TW_SOURCE_DIR "/resources/examples/data/houses.csv"));
    launch->csvTask()->setCurrentText("regression");
    launch->csvMissing()->setCurrentText("mean");
    // Text columns not declared categorical are the reader's error, with the line and the column.
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    QVERIFY2(launch->dataPreview()->result().error.contains("houses.csv:2: column 'district': 'south' is not a number"),
             qPrintable(launch->dataPreview()->result().error));
    QVERIFY(launch->csvCategorical()->isVisible());
    launch->csvCategorical()->setText("district, garden");
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const auto &csv = launch->dataPreview()->result();
    QVERIFY2(csv.error.isEmpty(), qPrintable(csv.error));
    QVERIFY2(launch->runYaml().contains("categorical: ['district', 'garden']"), qPrintable(launch->runYaml()));
    QCOMPARE(csv.columns.last(), QStringLiteral("price_keur"));
    QCOMPARE(csv.target, QStringLiteral("price_keur"));  // the last column, until one is chosen
    QCOMPARE(launch->csvTarget()->count(), int(csv.columns.size()));
    QCOMPARE(launch->csvTarget()->currentText(), QStringLiteral("price_keur"));
    QCOMPARE(launch->dataPreview()->table()->rowCount(), 12);
    QCOMPARE(csv.train + csv.validation + csv.test, int64_t(2000));
    QVERIFY2(csv.targetSummary.contains("min"), qPrintable(csv.targetSummary));
    QVERIFY(launch->runYaml().contains("target: 'price_keur'") && launch->runYaml().contains("task: regression"));
    tw::test::settleEvents();  // the table laid out
    window.grab().save(QStringLiteral(TW_BINARY_DIR "/screenshots/studio_data_preview_csv.png"));

    // A column with text as a classification target: a class histogram of its values.
    launch->csvTask()->setCurrentText("classification");
    launch->csvTarget()->setCurrentText("district");
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const auto &classes = launch->dataPreview()->result();
    QVERIFY2(classes.error.isEmpty(), qPrintable(classes.error));
    QCOMPARE(int(classes.classCounts.size()), 5);
    QCOMPARE(std::accumulate(classes.classCounts.begin(), classes.classCounts.end(), int64_t(0)), int64_t(2000));

    // A target that does not exist is the reader's clear message, before any launch.
    launch->csvTarget()->setCurrentText("no_such_column");
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    QVERIFY2(launch->dataPreview()->result().error.contains("no_such_column"),
             qPrintable(launch->dataPreview()->result().error));

    // A synthetic set: the points, coloured by class, and its splits.
    launch->dataset()->setCurrentText("spirals");
    QVERIFY(launch->samples()->isVisible() && !launch->csvTarget()->isVisible());
    launch->samples()->setValue(1000);
    launch->classes()->setValue(4);
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const auto &spirals = launch->dataPreview()->result();
    QVERIFY2(spirals.error.isEmpty(), qPrintable(spirals.error));
    QCOMPARE(spirals.classCounts, (std::vector<int64_t>{250, 250, 250, 250}));
    QCOMPARE(spirals.train + spirals.validation + spirals.test, int64_t(1000));
    QVERIFY(!spirals.grid.isNull());
    // The points drawn are the points the run trains on: the same function, the run's seed.
    tw::config::DataOptions o;
    o.dataset = "spirals";
    o.samples = 1000;
    o.classes = 4;
    o.noise = launch->noise()->value();
    o.valFraction = o.testFraction = 0.0;
    o.normalize = false;
    QVERIFY(spirals.points == tw::data::loadDataSplits(o, tw::config::TrainOptions().seed).train.features);
    QVERIFY(!launch->dataPreview()->table()->isVisible());
    QVERIFY(launch->runYaml().contains("samples: 1000") && launch->runYaml().contains("classes: 4"));
    QVERIFY(!launch->runYaml().contains("houses.csv"));  // a synthetic set has no path
    tw::test::settleEvents();
    window.grab().save(QStringLiteral(TW_BINARY_DIR "/screenshots/studio_data_preview_spirals.png"));

    // On a HiDPI screen the pictures are drawn at device resolution, at the same logical size.
    tw::ui::DataPreviewRequest sharp = launch->previewRequest();
    sharp.pixelRatio = 2.0;
    const QImage twice = tw::ui::readDataPreview(sharp).grid;
    QCOMPARE(twice.devicePixelRatio(), 2.0);
    QCOMPARE(twice.width(), 2 * spirals.grid.width() / int(spirals.grid.devicePixelRatio()));
  }

  // A token file previews through the engine's reader: its first training windows' ids, and the
  // splits counted in windows; the run file Launch writes names the file and the sequence length.
  void previewsATokenFile() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::LaunchPage *launch = window.launchPage();
    QSignalSpy previewed(launch->dataPreview(), &tw::ui::DataPreview::previewed);
    launch->dataset()->setCurrentText("token-file");
    launch->dataPath()->setText(QStringLiteral(TW_SOURCE_DIR "/resources/examples/data/notes_bytes.bin"));
    auto *seqLen = qobject_cast<QSpinBox *>(launch->sections()->field(QStringLiteral("data.seq_len")));
    QVERIFY(seqLen && launch->sections()->field(QStringLiteral("data.token_dtype")) &&
            launch->sections()->field(QStringLiteral("data.windows_per_epoch")));
    seqLen->setValue(64);
    QTest::mouseClick(launch->previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const auto &r = launch->dataPreview()->result();
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.columns.size(), 16);  // the first 16 positions of each window
    QVERIFY(!r.rows.isEmpty());
    // The bundled file is this README's bytes: it begins "# Torchwright".
    QCOMPARE(r.rows[0][0], QString::number('#'));
    QCOMPARE(r.rows[0][2], QString::number('T'));
    // The splits the run will have, with the form's fractions.
    const tw::ui::DataPreviewRequest asked = launch->previewRequest();
    tw::config::DataOptions o;
    o.dataset = "token-file";
    o.path = asked.path.toStdString();
    o.seqLen = 64;
    o.valFraction = asked.valFraction;
    o.testFraction = asked.testFraction;
    const tw::data::TokenFileSplits splits = tw::data::openTokenFile(o);
    QCOMPARE(r.train, splits.train.windows());
    QCOMPARE(r.validation, splits.val.windows());
    QCOMPARE(r.test, splits.test.windows());
    QVERIFY(r.validation > 0 && r.test > 0);
    QVERIFY(launch->runYaml().contains("dataset: token-file") && launch->runYaml().contains("notes_bytes.bin") &&
            launch->runYaml().contains("seq_len: 64"));
  }

  void launchRefusesAnInvalidModel() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    QVERIFY(window.openWorkspace(ws.dir));
    auto *doc = window.designPage()->document();
    QVERIFY(doc->loadTemplate("mlp", nullptr));
    doc->setParam("fc2", "in_features", int64_t(7));  // contradicts the 256 coming in
    QTest::mouseClick(window.launchPage()->launchButton(), Qt::LeftButton);
    QVERIFY(window.launchPage()->statusText().contains("Design page"));
    QVERIFY(ws.store->listRuns().empty());
  }
};

QTEST_MAIN(TestStudioLaunch)
#include "test_studio_launch.moc"
