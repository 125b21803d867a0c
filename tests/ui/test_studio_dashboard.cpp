// The Runs page's live dashboard on a real training: the CLI and worker train an MLP on 20,000
// Fashion-MNIST images while Studio watches. The Training tab draws what the engine logs about
// the optimisation, and the Evaluation tab follows each validation epoch's confusion matrix as
// it is written, then the test set's; every matrix shown equals its file, and its accuracy the
// logged one. Leaves screenshots of both tabs in build/screenshots.

#include "studio_fixture.h"

#include "ui/charts/confusion_heatmap.h"
#include "ui/charts/metric_chart.h"
#include "ui/main_window.h"
#include "ui/runs/evaluation_panel.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"

#include <QComboBox>
#include <QFile>
#include <QProcess>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>
#include <map>
#include <set>

using tw::tracking::RunStatus;
using tw::ui::EvaluationPanel;

namespace {

// Enough images that an epoch outlasts a poll and the panel's one-second read cooldown, so the
// panel is seen between epochs (about two seconds an epoch on a laptop core).
constexpr int kEpochs = 4;
constexpr int kTrainLimit = 20000;
constexpr int kValidation = kTrainLimit / 10;

// The matrix as the test reads the file itself: Fashion-MNIST's names hold no commas.
bool readCsv(const QString &path, QStringList *classes, std::vector<int64_t> *counts) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return false;
  const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
  *classes = lines.value(0).split(QLatin1Char(',')).mid(1);
  counts->clear();
  for (const QString &line : lines.mid(1))
    for (const QString &cell : line.split(QLatin1Char(',')).mid(1)) counts->push_back(cell.toLongLong());
  return true;
}

// The value of `key` logged at the step where the "epoch" metric says `epoch`.
double atEpoch(tw::tracking::Store &store, int64_t runId, const std::string &key, int epoch) {
  int64_t step = -1;
  for (const auto &point : store.metricPoints(runId, "epoch"))
    if (static_cast<int>(point.value) == epoch) step = point.step;
  for (const auto &point : store.metricPoints(runId, key))
    if (point.step == step) return point.value;
  return -1.0;
}

double latest(tw::tracking::Store &store, int64_t runId, const std::string &key) {
  for (const auto &metric : store.latestMetrics(runId))
    if (metric.key == key) return metric.value;
  return -1.0;
}

}  // namespace

class TestStudioDashboard : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_settingsDir.isValid());
    tw::test::isolateSettings(m_settingsDir.path());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  }

  void followsARealTraining() {
    tw::test::Workspace ws;
    const QString runFile = ws.tmp.path() + QStringLiteral("/run.yaml");
    {
      QFile file(runFile);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(QStringLiteral("model: " TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml\n"
                                "data: {dataset: fashion-mnist, train_limit: %1, batch_size: 64, val_fraction: 0.1}\n"
                                "train: {optimizer: adam, lr: 0.001, epochs: %2, seed: 7, schedule: cosine}\n"
                                "tracking: {experiment: dashboard, run_name: live}\n")
                     .arg(kTrainLimit)
                     .arg(kEpochs)
                     .toUtf8());
    }
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral(TW_BIN_DIR "/torchwright"), {"train", runFile, "--workspace", ws.dir});
    QVERIFY(cli.waitForStarted(10000));

    tw::ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(ws.dir));
    tw::ui::RunsPage *page = window.runsPage();
    QTRY_VERIFY_WITH_TIMEOUT(ws.store->findRun("live").has_value(), 30000);
    const auto run = *ws.store->findRun("live");
    QTRY_VERIFY_WITH_TIMEOUT(page->model()->rowOfRun(run.id) >= 0, 20000);
    page->selectRun(run.id);
    tw::ui::RunDetailView *detail = page->detail();
    QTRY_COMPARE(detail->runId(), run.id);
    EvaluationPanel *evaluation = detail->evaluationPanel();
    detail->tabs()->setCurrentWidget(evaluation);

    // While it trains, the newest evaluation is the one shown, every time the panel reads.
    std::set<int> listsSeen;
    bool alwaysNewest = true;
    connect(evaluation, &EvaluationPanel::refreshed, this, [&] {
      const int count = evaluation->evaluations()->count();
      listsSeen.insert(count);
      if (count > 0 && evaluation->evaluations()->currentIndex() != count - 1) alwaysNewest = false;
    });
    QTRY_VERIFY_WITH_TIMEOUT(cli.state() == QProcess::NotRunning, 280000);
    const QString said = QString::fromUtf8(cli.readAll());
    QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0, qPrintable(said));
    QCOMPARE(ws.store->run(run.id)->status, RunStatus::Finished);

    // Every epoch and the test set, the test set (newest) shown.
    QTRY_COMPARE_WITH_TIMEOUT(evaluation->evaluations()->count(), kEpochs + 1, 10000);
    QTRY_COMPARE(evaluation->shownPath(), QStringLiteral("artifacts/test_confusion_matrix.csv"));
    QVERIFY(alwaysNewest);
    // Seen growing, not only complete: at least one list between none and all of them.
    QStringList seen;
    for (int n : listsSeen) seen << QString::number(n);
    QVERIFY2(std::any_of(listsSeen.begin(), listsSeen.end(), [](int n) { return n > 0 && n < kEpochs + 1; }),
             qPrintable(QStringLiteral("lists of %1 evaluations seen").arg(seen.join(QStringLiteral(", ")))));
    QCOMPARE(evaluation->evaluations()->currentIndex(), kEpochs);

    const QString runDir = QString::fromStdString(run.runDir);
    for (int epoch = 1; epoch <= kEpochs + 1; ++epoch) {
      const bool test = epoch == kEpochs + 1;
      const QString path =
          test ? QStringLiteral("artifacts/test_confusion_matrix.csv")
               : QStringLiteral("artifacts/evaluations/val_epoch_%1.csv").arg(epoch, 3, 10, QLatin1Char('0'));
      evaluation->evaluations()->setCurrentIndex(epoch - 1);
      QTRY_COMPARE(evaluation->shownPath(), path);
      QStringList classes;
      std::vector<int64_t> counts;
      QVERIFY2(readCsv(runDir + QLatin1Char('/') + path, &classes, &counts), qPrintable(path));
      const tw::ui::ConfusionHeatmap *map = evaluation->heatmap();
      QCOMPARE(map->classCount(), 10);
      QCOMPARE(map->matrix().classes, classes);
      QCOMPARE(map->matrix().classes.value(9), QStringLiteral("Ankle boot"));
      QCOMPARE(map->matrix().counts, counts);
      QCOMPARE(map->matrix().total(), int64_t(test ? 10000 : kValidation));
      const double expected = test ? latest(*ws.store, run.id, "test/accuracy")
                                   : atEpoch(*ws.store, run.id, "val/accuracy", epoch);
      const QTableWidgetItem *accuracy =
          evaluation->classTable()->item(10 + EvaluationPanel::AccuracyRow, EvaluationPanel::PrecisionColumn);
      QVERIFY(accuracy);
      QVERIFY2(qAbs(accuracy->data(Qt::UserRole).toDouble() - expected) < 1e-6,
               qPrintable(QStringLiteral("%1: table %2, logged %3")
                              .arg(path)
                              .arg(accuracy->data(Qt::UserRole).toDouble())
                              .arg(expected)));
      QCOMPARE(evaluation->classTable()->rowCount(), 10 + EvaluationPanel::SummaryRows);
    }
    evaluation->evaluations()->setCurrentIndex(kEpochs - 1);
    QTRY_COMPARE(evaluation->shownPath(),
                 QStringLiteral("artifacts/evaluations/val_epoch_%1.csv").arg(kEpochs, 3, 10, QLatin1Char('0')));
    const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
    QVERIFY(QDir().mkpath(dir));
    tw::test::settleEvents();  // the table laid out
    QVERIFY(window.grab().save(dir + QStringLiteral("/studio_evaluation_tab.png")));

    // The Training tab: every point the engine logged about the optimisation.
    detail->tabs()->setCurrentIndex(1);
    auto logged = [&](const std::string &key) { return int(ws.store->metricPoints(run.id, key).size()); };
    const std::map<tw::ui::MetricChart *, std::string> charts = {{detail->lrChart(), "train/lr"},
                                                                 {detail->throughputChart(), "train/samples_per_sec"},
                                                                 {detail->dataWaitChart(), "train/data_wait"},
                                                                 {detail->gradNormChart(), "train/grad_norm"}};
    for (const auto &[chart, key] : charts) {
      QVERIFY(chart->isVisible());
      QVERIFY2(logged(key) > 0, key.c_str());
      QTRY_COMPARE(chart->rawPointCount(key), logged(key));
    }
    QCOMPARE(logged("train/samples_per_sec"), kEpochs);
    QCOMPARE(window.findChild<tw::ui::MetricChart *>(QStringLiteral("lrChart")), detail->lrChart());
    // A cosine schedule: the rate drawn falls from the start to the end.
    const QList<QPointF> lr = detail->lrChart()->drawnPoints("train/lr");
    QVERIFY(lr.front().y() > lr.back().y());
    for (const QPointF &share : detail->dataWaitChart()->drawnPoints("train/data_wait"))
      QVERIFY(share.y() >= 0.0 && share.y() < 1.0);
    QVERIFY(window.grab().save(dir + QStringLiteral("/studio_training_tab.png")));
  }

 private:
  QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestStudioDashboard)
#include "test_studio_dashboard.moc"
