// The Evaluation tab's parts on their own (the scores are tests/metrics' test_class_scores): the
// parser of the engine's confusion CSV, the artifacts it recognises, the heat map's cells and
// colours, and the panel against a real tracking database whose run gains evaluations.

#include "studio_fixture.h"

#include "core/metrics/confusion_csv.h"
#include "ui/charts/confusion_heatmap.h"
#include "ui/charts/confusion_matrix.h"
#include "ui/runs/evaluation_loader.h"
#include "ui/runs/evaluation_panel.h"
#include "ui/workspace/poll_results.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using tw::ui::ConfusionMatrix;

namespace {

ConfusionMatrix matrixOf(const QStringList &classes, const std::vector<int64_t> &counts) {
  ConfusionMatrix m;
  m.classes = classes;
  m.counts = counts;
  return m;
}

// What the engine writes: its own writer, so the parser is tested against the real format.
QString engineCsv(const ConfusionMatrix &m) {
  std::vector<std::string> names;
  for (const QString &name : m.classes) names.push_back(name.toStdString());
  return QString::fromStdString(tw::metrics::confusionCsv(m.counts, m.size(), names));
}

}  // namespace

class TestEvaluationParts : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_settingsDir.isValid());
    tw::test::isolateSettings(m_settingsDir.path());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  }

  void parsesTheEngineCsv() {
    const ConfusionMatrix written = matrixOf({"T-shirt/top", "Bag, large", "Say \"hi\""}, {7, 0, 1,  //
                                                                                         2, 9, 0,  //
                                                                                         0, 3, 11});
    ConfusionMatrix read;
    QString error;
    QVERIFY2(tw::ui::parseConfusionCsv(engineCsv(written), &read, &error), qPrintable(error));
    QCOMPARE(read.classes, written.classes);
    QCOMPARE(read.counts, written.counts);
    QCOMPARE(read.count(2, 1), int64_t(3));
    QCOMPARE(read.rowTotal(1), int64_t(11));
    QCOMPARE(read.total(), int64_t(33));
    QCOMPARE(read.maxCount(), int64_t(11));
    // Windows line ends and no final line end read the same.
    QString crlf = engineCsv(written);
    crlf.chop(1);
    crlf.replace(QLatin1String("\n"), QLatin1String("\r\n"));
    QVERIFY(tw::ui::parseConfusionCsv(crlf, &read, &error));
    QCOMPARE(read, written);
  }

  void rejectsMalformedCsv_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("empty") << QString() << "line 1: no class rows";
    QTest::newRow("header only") << "truth\\predicted,a,b\n" << "line 1: no class rows";
    QTest::newRow("more columns than rows") << "t,a,b,c\na,1,2,3\nb,4,5,6\n" << "line 1: 3 class columns for 2";
    QTest::newRow("ragged row") << "t,a,b\na,1,2\nb,4\n" << "line 3: 2 fields where the header has 3";
    QTest::newRow("negative") << "t,a,b\na,1,-2\nb,4,5\n" << "line 2: '-2' is not a count";
    QTest::newRow("not a number") << "t,a,b\na,1,2\nb,x,5\n" << "line 3: 'x' is not a count";
    QTest::newRow("rows in another order") << "t,a,b\nb,1,2\na,4,5\n"
                                           << "line 2: row class 'b' is not column class 'a'";
  }

  void rejectsMalformedCsv() {
    QFETCH(QString, text);
    QFETCH(QString, reason);
    ConfusionMatrix read = matrixOf({"stale"}, {1});
    QString error;
    QVERIFY(!tw::ui::parseConfusionCsv(text, &read, &error));
    QVERIFY2(error.startsWith(reason), qPrintable(error));
    QVERIFY(read.isEmpty());
  }

  void recognisesEvaluationArtifacts_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("isEvaluation");
    QTest::addColumn<int>("epoch");
    QTest::newRow("epoch 3") << "artifacts/evaluations/val_epoch_003.csv" << "confusion" << true << 3;
    QTest::newRow("epoch 1200") << "artifacts/evaluations/val_epoch_1200.csv" << "confusion" << true << 1200;
    QTest::newRow("test set") << "artifacts/test_confusion_matrix.csv" << "report" << true << 0;
    QTest::newRow("class report") << "artifacts/test_class_report.csv" << "report" << false << 0;
    QTest::newRow("model") << "artifacts/model.pt" << "model" << false << 0;
    QTest::newRow("epoch 0") << "artifacts/evaluations/val_epoch_000.csv" << "confusion" << false << 0;
    QTest::newRow("other kind") << "artifacts/evaluations/val_epoch_002.csv" << "log" << false << 0;
  }

  void recognisesEvaluationArtifacts() {
    QFETCH(QString, path);
    QFETCH(QString, kind);
    QFETCH(bool, isEvaluation);
    QFETCH(int, epoch);
    tw::ui::EvaluationEntry entry;
    QCOMPARE(tw::ui::evaluationEntry(path, kind, &entry), isEvaluation);
    if (isEvaluation) {
      QCOMPARE(entry.epoch, epoch);
      QCOMPARE(entry.path, path);
    }
  }

  void heatmapPaintsCountsAndShares() {
    tw::ui::ConfusionHeatmap map;
    map.resize(520, 460);
    map.setMatrix(matrixOf({"Cat", "Dog", "Fox"}, {40, 8, 2,  //
                                                   5, 30, 0,  //
                                                   0, 1, 9}));
    map.show();
    QVERIFY(QTest::qWaitForWindowExposed(&map));
    QCOMPARE(map.classCount(), 3);
    QCOMPARE(map.cellText(0, 1), QStringLiteral("8"));
    for (int t = 0; t < 3; ++t)
      for (int p = 0; p < 3; ++p) QCOMPARE(map.cellAt(map.cellRect(t, p).center()), QPoint(p, t));
    QCOMPARE(map.cellAt(QPoint(1, 1)), QPoint(-1, -1));  // the row names, not a cell

    // More examples, darker cells; an empty cell stays the lightest colour.
    const QImage image = map.grab().toImage();
    auto lightness = [&](int t, int p) {
      return QColor(image.pixel(map.cellRect(t, p).topLeft() + QPoint(3, 3))).lightness();
    };
    QVERIFY(lightness(0, 0) < lightness(1, 1));
    QVERIFY(lightness(1, 1) < lightness(0, 1));
    QVERIFY(lightness(0, 1) < lightness(1, 2));
    QVERIFY(lightness(1, 2) > 240);

    // As shares of the true class: Fox's 9 of 10 outshines Cat's 40 of 50.
    map.setRowNormalised(true);
    QCOMPARE(map.cellText(2, 2), QStringLiteral("90%"));
    QCOMPARE(map.cellText(0, 0), QStringLiteral("80%"));
    const QImage shares = map.grab().toImage();
    auto shareLightness = [&](int t, int p) {
      return QColor(shares.pixel(map.cellRect(t, p).topLeft() + QPoint(3, 3))).lightness();
    };
    QVERIFY(shareLightness(2, 2) < shareLightness(0, 0));
    map.clear();
    QCOMPARE(map.classCount(), 0);
    QCOMPARE(map.cellAt(QPoint(200, 200)), QPoint(-1, -1));
  }

  void panelFollowsTheNewestUntilAnotherIsPicked() {
    tw::test::Workspace ws;
    const auto run = createRunWithFolder(ws, "evaluated");
    const ConfusionMatrix first = matrixOf({"A", "B"}, {3, 2, 1, 4});
    const ConfusionMatrix second = matrixOf({"A", "B"}, {4, 1, 0, 5});
    addEvaluation(ws, run, 1, first);

    tw::ui::EvaluationPanel panel;
    panel.setDatabasePath(QString::fromStdString(ws.dbPath()));
    panel.resize(900, 480);
    panel.show();
    QSignalSpy refreshed(&panel, &tw::ui::EvaluationPanel::refreshed);
    panel.showRun(snapshot(ws, run.id));
    QVERIFY(refreshed.wait(5000));
    QVERIFY(panel.showsEvaluation());
    QCOMPARE(panel.evaluations()->count(), 1);
    QCOMPARE(panel.heatmap()->matrix(), first);
    QCOMPARE(panel.scores().accuracy, 0.7);
    // The table's accuracy row holds the exact value; the text is rounded.
    auto *accuracy = panel.classTable()->item(2 + tw::ui::EvaluationPanel::AccuracyRow,
                                              tw::ui::EvaluationPanel::PrecisionColumn);
    QCOMPARE(accuracy->data(Qt::UserRole).toDouble(), 0.7);
    QCOMPARE(accuracy->text(), QStringLiteral("0.7"));
    QCOMPARE(panel.classTable()->rowCount(), 2 + tw::ui::EvaluationPanel::SummaryRows);

    // A new epoch arrives: the panel moves on to it.
    addEvaluation(ws, run, 2, second);
    panel.updateRun(snapshot(ws, run.id));
    QTRY_COMPARE(panel.evaluations()->count(), 2);
    QTRY_COMPARE(panel.heatmap()->matrix(), second);
    QCOMPARE(panel.evaluations()->currentIndex(), 1);
    QCOMPARE(panel.evaluations()->currentText(), QStringLiteral("Epoch 2 (validation)"));
    QCOMPARE(panel.scores().accuracy, 0.9);

    // The person looks back at epoch 1: later epochs no longer pull the view forward.
    panel.evaluations()->setCurrentIndex(0);
    QTRY_COMPARE(panel.heatmap()->matrix(), first);
    addEvaluation(ws, run, 3, second);
    panel.updateRun(snapshot(ws, run.id));
    QTRY_COMPARE(panel.evaluations()->count(), 3);  // the answer that knows epoch 3 is shown
    QCOMPARE(panel.evaluations()->currentIndex(), 0);
    QCOMPARE(panel.shownPath(), QStringLiteral("artifacts/evaluations/val_epoch_001.csv"));

    // Back on the newest, it follows again, up to the test set at the end.
    panel.evaluations()->setCurrentIndex(2);
    QTRY_COMPARE(panel.shownPath(), QStringLiteral("artifacts/evaluations/val_epoch_003.csv"));
    writeFile(run, "artifacts/test_confusion_matrix.csv", engineCsv(first));
    ws.store->addArtifact(run.id, "artifacts/test_confusion_matrix.csv", "report");
    panel.updateRun(snapshot(ws, run.id));
    QTRY_COMPARE(panel.evaluations()->count(), 4);
    QTRY_COMPARE(panel.shownPath(), QStringLiteral("artifacts/test_confusion_matrix.csv"));
    QCOMPARE(panel.evaluations()->currentIndex(), 3);
    QVERIFY(panel.evaluations()->currentText().startsWith(QStringLiteral("Test")));

    panel.clearRun();
    QVERIFY(!panel.showsEvaluation());
    QCOMPARE(panel.evaluations()->count(), 0);
    QCOMPARE(panel.heatmap()->classCount(), 0);
  }

  void panelReadsAtMostOnceASecond() {
    tw::test::Workspace ws;
    const auto run = createRunWithFolder(ws, "busy");
    const ConfusionMatrix m = matrixOf({"A", "B"}, {1, 0, 0, 1});
    addEvaluation(ws, run, 1, m);
    tw::ui::EvaluationPanel panel;
    panel.setDatabasePath(QString::fromStdString(ws.dbPath()));
    QSignalSpy refreshed(&panel, &tw::ui::EvaluationPanel::refreshed);
    const tw::ui::RunSnapshot shown = snapshot(ws, run.id);
    panel.showRun(shown);
    QVERIFY(refreshed.wait(5000));
    refreshed.clear();
    // Hidden behind another tab, polls read nothing (for longer than the cooldown, so that a
    // read it allowed would have been answered); shown, the panel catches up once. Its answer
    // is the first that knows epoch 2, written after the hidden polls: counted then, any read
    // made while hidden is in.
    for (int i = 0; i < 10; ++i) {
      panel.updateRun(shown);
      QTest::qWait(150);
    }
    addEvaluation(ws, run, 2, m);
    panel.show();
    QTRY_COMPARE(panel.evaluations()->count(), 2);
    QCOMPARE(refreshed.count(), 1);
    refreshed.clear();
    // Polls every 50 ms for 1.5 s: one read per second at most. The last poll's change (epoch 3)
    // is read when the cooldown ends; reads at least a second apart from the loop's start to
    // that answer number at most 1 + its duration in seconds.
    QElapsedTimer clock;
    clock.start();
    bool added = false;
    while (clock.elapsed() < 1500) {
      if (clock.elapsed() >= 1400 && !added) {
        addEvaluation(ws, run, 3, m);
        added = true;
      }
      panel.updateRun(shown);
      QTest::qWait(50);
    }
    QTRY_COMPARE(panel.evaluations()->count(), 3);
    const qint64 window = clock.elapsed();
    QVERIFY2(refreshed.count() >= 1 && refreshed.count() <= 1 + window / 1000,
             qPrintable(QStringLiteral("%1 reads in %2 ms").arg(refreshed.count()).arg(window)));
  }

  void panelExplainsARunWithoutEvaluations() {
    tw::test::Workspace ws;
    const auto run = createRunWithFolder(ws, "regression");
    // A regression run records a model and checkpoints, but no confusion matrix.
    writeFile(run, "artifacts/model.pt", QStringLiteral("weights"));
    ws.store->addArtifact(run.id, "artifacts/model.pt", "model");
    tw::ui::EvaluationPanel panel;
    panel.setDatabasePath(QString::fromStdString(ws.dbPath()));
    panel.show();
    QSignalSpy refreshed(&panel, &tw::ui::EvaluationPanel::refreshed);
    panel.showRun(snapshot(ws, run.id));
    QVERIFY(refreshed.wait(5000));
    QVERIFY(!panel.showsEvaluation());
    QVERIFY2(panel.hint()->text().contains(QStringLiteral("regression")), qPrintable(panel.hint()->text()));
    QCOMPARE(panel.classTable()->rowCount(), 0);

    // A recorded file that is gone says which file, instead of showing nothing.
    ws.store->addArtifact(run.id, "artifacts/evaluations/val_epoch_001.csv", "confusion");
    panel.updateRun(snapshot(ws, run.id));
    QTRY_VERIFY(panel.showsEvaluation());
    QTRY_VERIFY2(panel.summary()->text().contains(QStringLiteral("val_epoch_001.csv")),
                 qPrintable(panel.summary()->text()));
    QCOMPARE(panel.heatmap()->classCount(), 0);
  }

 private:
  static tw::tracking::RunRecord createRunWithFolder(tw::test::Workspace &ws, const std::string &name) {
    tw::tracking::NewRun run;
    run.experiment = "evaluation";
    run.name = name;
    run.configYaml = "model: mlp\n";
    run.runsRoot = tw::config::runsRoot(ws.dir.toStdString());
    return ws.store->createRun(run);
  }

  static void writeFile(const tw::tracking::RunRecord &run, const QString &relative, const QString &text) {
    const QString path = QString::fromStdString(run.runDir) + QLatin1Char('/') + relative;
    QVERIFY(QDir().mkpath(QFileInfo(path).path()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
  }

  static void addEvaluation(tw::test::Workspace &ws, const tw::tracking::RunRecord &run, int epoch,
                            const ConfusionMatrix &m) {
    const QString path = QStringLiteral("artifacts/evaluations/val_epoch_%1.csv").arg(epoch, 3, 10, QLatin1Char('0'));
    writeFile(run, path, engineCsv(m));
    ws.store->addArtifact(run.id, path.toStdString(), "confusion");
  }

  static tw::ui::RunSnapshot snapshot(tw::test::Workspace &ws, int64_t runId) {
    tw::ui::RunSnapshot s;
    s.run = *ws.store->run(runId);
    return s;
  }

  QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestEvaluationParts)
#include "test_evaluation_parts.moc"
