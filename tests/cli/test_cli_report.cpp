// `torchwright report`: the runs of a real four-trial sweep on Fashion-MNIST written as one HTML
// page and opened in headless Chromium (Debian's). Every chart has drawn marks, the page logs no
// console message, it reaches nothing outside itself (a Content-Security-Policy, no script, no
// link out), and it holds the configuration's differences, the lineage, the confusion matrix and
// the study's history and importance.

#include "cli_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class TestCliReport : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QStringList m_runs;  // the trials' run ids

  QString workspace() const { return m_dir.path() + "/ws"; }

 private Q_SLOTS:
  void initTestCase() {
    const QString dir = m_dir.path();
    writeTextFile(dir + "/tiny.model.yaml", "name: tiny\nnodes:\n  - {id: image, op: Input, shape: [1, 28, 28]}\n"
                                    "  - {id: flat, op: Flatten}\n  - {id: h1, op: Linear, out_features: 32}\n"
                                    "  - {id: act, op: ReLU}\n  - {id: logits, op: Linear, out_features: 10}\n");
    writeTextFile(dir + "/tiny.run.yaml", "model: tiny.model.yaml\n"
                                  "data: {dataset: fashion-mnist, train_limit: 400, test_limit: 100, batch_size: 50, "
                                  "val_fraction: 0.25}\ntrain: {optimizer: adam, lr: 0.003, epochs: 2, seed: 3}\n"
                                  "tracking: {experiment: reports}\n");
    const QString sweep = writeTextFile(dir + "/tiny.sweep.yaml",
                                "base: tiny.run.yaml\nobjective: {metric: val/accuracy, direction: maximize}\n"
                                "space:\n  train.lr: {type: float, low: 1.0e-3, high: 3.0e-2, log: true}\n"
                                "  model.h1.out_features: {type: int, low: 16, high: 64, step: 16}\n"
                                "study: tiny\nsampler: {type: random, seed: 4}\nbudget: {trials: 4}\nparallel: 2\n");
    const CliResult r = runCli({"sweep", sweep, "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const CliResult shown = runCli({"study", "show", "tiny", "--json", "--workspace", workspace()});
    for (const auto &t : QJsonDocument::fromJson(shown.out.toUtf8()).object()["trials"].toArray())
      m_runs << t.toObject()["run"].toString();
    QCOMPARE(m_runs.size(), 4);
  }

  void reportOfAStudysRunsDrawsInChromium() {
    const QString page = m_dir.path() + "/report.html";
    const CliResult r = runCli(QStringList{"report"} + m_runs + QStringList{"-o", page, "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains("wrote " + page + " (4 runs"), qPrintable(r.out));
    const QString html = readTextFile(page);
    // Self-contained: the browser is told to fetch nothing, and nothing asks it to.
    QVERIFY(html.contains("Content-Security-Policy\" content=\"default-src 'none'"));
    for (const char *outside : {"<script", "src=", "href=", "http://", "https://", "@import", "url("})
      QVERIFY2(!html.contains(outside), outside);

    QProcess chromium;
    chromium.start("chromium", {"--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0",
                                "--dump-dom", "file://" + page});
    QVERIFY2(chromium.waitForStarted(20000), "chromium (Debian's) did not start");
    QVERIFY(chromium.waitForFinished(120000));
    QCOMPARE(chromium.exitCode(), 0);
    const QString dom = QString::fromUtf8(chromium.readAllStandardOutput());
    const QString log = QString::fromUtf8(chromium.readAllStandardError());
    QVERIFY2(!log.contains(":CONSOLE"), qPrintable(log));
    // Every chart as the browser parsed it has marks: a line per run, or a dot.
    static const QRegularExpression chart("<svg class=\"chart\"(.*?)</svg>", QRegularExpression::DotMatchesEverythingOption);
    int charts = 0;
    for (auto it = chart.globalMatch(dom); it.hasNext();) {
      const QString svg = it.next().captured(1);
      ++charts;
      QVERIFY2(svg.contains("<polyline class=\"mark\"") || svg.contains("<circle class=\"mark\""), qPrintable(svg.left(300)));
    }
    QVERIFY2(charts >= 5, qPrintable(QString::number(charts)));  // train/loss, val/loss, val/accuracy ..., history
    QCOMPARE(dom.count("<polyline class=\"mark\"", Qt::CaseSensitive) >= 4 * 3, true);  // four runs, three curves at least
    for (const char *section : {"id=\"runs\"", "id=\"curves\"", "id=\"configuration\"", "id=\"lineage\"",
                                "id=\"confusion\"", "id=\"study\""})
      QVERIFY2(dom.contains(section), section);
    // The sampled learning rate differs between the trials: marked.
    QVERIFY(QRegularExpression("<tr class=\"differs\"><td>train\\.lr</td>").match(dom).hasMatch());
    QVERIFY2(dom.contains("tiny #0") && dom.contains("tiny #3"), "the lineage names each trial");
    QVERIFY(dom.contains("aria-label=\"history: val/accuracy\""));
    QVERIFY(dom.contains("Parameter importance (fANOVA)") && dom.contains("<td>train.lr</td>") &&
            dom.contains("<td>model.h1.out_features</td>"));
    QCOMPARE(dom.count("<table class=\"confusion\">"), 4);
  }

  void anExistingFileIsKeptUnlessForced() {
    const QString page = m_dir.path() + "/kept.html";
    writeTextFile(page, "mine");
    const CliResult refused = runCli({"report", m_runs[0], "-o", page, "--workspace", workspace()});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("exists (write it again with --force to replace it)"), qPrintable(refused.err));
    QCOMPARE(readTextFile(page), QString("mine"));
    QCOMPARE(runCli({"report", m_runs[0], "-o", page, "--force", "--workspace", workspace()}).exitCode, 0);
    QVERIFY(readTextFile(page).startsWith("<!DOCTYPE html>"));
    QCOMPARE(runCli({"report", "no-such-run", "-o", m_dir.path() + "/x.html", "--workspace", workspace()}).exitCode, 1);
    QCOMPARE(runCli({"report", "--workspace", workspace()}).exitCode, 2);
    // A folder that is not there is refused before any run is read (the rule export and predict keep).
    const CliResult noFolder = runCli({"report", m_runs[0], "-o", m_dir.path() + "/missing/r.html", "--workspace", workspace()});
    QCOMPARE(noFolder.exitCode, 1);
    QVERIFY2(noFolder.err.contains("/missing does not exist"), qPrintable(noFolder.err));
  }
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_cli_report.moc"
