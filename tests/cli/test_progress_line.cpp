// Long work's progress on a terminal: the line's count, share, rate and time left; nothing drawn
// when the output is not a terminal; and drawn in place under a real pseudo-terminal (script(1))
// while `runs export` prints its own lines, and under `train`'s epoch lines.

#include "app/cli/sweep_progress.h"
#include "app/common/progress_line.h"
#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct TerminalResult {
  int exitCode = -1;  // -1: script(1) (util-linux) did not run or did not finish
  QString text;       // what the terminal received, \r and escapes included
};

// The CLI with its output on a pseudo-terminal, as a user at a terminal sees it (script(1)).
TerminalResult onTerminal(const QString &arguments, int timeoutMs = 300000) {
  QProcess script;
  script.start("script", {"-qfec", QStringLiteral(TW_BIN_DIR "/torchwright ") + arguments, "/dev/null"});
  TerminalResult result;
  if (!script.waitForFinished(timeoutMs)) return result;
  result.exitCode = script.exitCode();
  result.text = QString::fromUtf8(script.readAllStandardOutput());
  return result;
}

}  // namespace

class TestProgressLine : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void lineSaysCountShareRateAndTimeLeft() {
    using tw::app::progressText;
    QCOMPARE(progressText("packing", "examples", 0, 9000, 0.0), std::string("packing 0 / 9,000 examples (0%)"));
    // No rate before a second has passed: a first batch would promise nonsense.
    QCOMPARE(progressText("packing", "examples", 300, 9000, 0.5), std::string("packing 300 / 9,000 examples (3%)"));
    QCOMPARE(progressText("packing", "examples", 1200, 9000, 2.0),
             std::string("packing 1,200 / 9,000 examples (13%), 600 examples/s, 13.0s left"));
    QCOMPARE(progressText("importing", "runs", 3, 4, 90.0), std::string("importing 3 / 4 runs (75%), 0.0333 runs/s, 30.0s left"));
    QCOMPARE(progressText("exporting", "runs", 4, 4, 2.0), std::string("exporting 4 / 4 runs (100%), 2 runs/s"));
    const std::string hours = progressText("packing", "examples", 1000, 100000, 61.0);  // 6,039 s to go
    QVERIFY2(hours.size() > 10 && hours.substr(hours.size() - 10) == "1h40m left", hours.c_str());
    // A resumed run counts its rate from where this process started.
    QCOMPARE(progressText("training", "steps", 1500, 2000, 10.0, 1000),
             std::string("training 1,500 / 2,000 steps (75%), 50 steps/s, 10.0s left"));
  }

  // The sweep's status line: counts, best, time, and once a trial has ended its rate and the
  // time left by whichever budget ends the sweep first.
  void sweepLineSaysRateAndTimeLeft() {
    using tw::cli::SweepCounts;
    using tw::cli::SweepProgress;
    SweepCounts c;
    c.running = 2;
    c.budgetTrials = 20;
    c.elapsedMs = 30000;
    QCOMPARE(SweepProgress::summary(c),
             std::string("trials 0/20 done (0 complete, 0 pruned, 0 failed), 2 running, no best yet, 30.0s"));
    c.complete = 3;
    c.pruned = 1;
    c.best = "0.8731 (trial 2)";
    c.elapsedMs = 120000;  // 4 trials in 2 minutes: 16 more take 8
    QCOMPARE(SweepProgress::summary(c), std::string("trials 4/20 done (3 complete, 1 pruned, 0 failed), 2 running, "
                                                    "best 0.8731 (trial 2), 2m00s, 2 trials/min, 8m00s left"));
    c.budgetMinutes = 5;  // the time budget ends it first
    QCOMPARE(SweepProgress::summary(c), std::string("trials 4/20 done (3 complete, 1 pruned, 0 failed), 2 running, "
                                                    "best 0.8731 (trial 2), 2m00s of 5m00s, 2 trials/min, 3m00s left"));
  }

  void drawsInPlaceOnATerminalOnly() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    QVERIFY(QDir().mkpath(ws));
    {
      auto store = tw::tracking::Store::open((ws + "/tracking.db").toStdString());
      for (const char *name : {"one", "two"}) store->createRun({"e", name});
    }
    const QString out = dir.path() + "/tb";
    // Not a terminal: only the command's own lines.
    const CliResult piped = runCli({"runs", "export", "one", "two", out, "--to", "tensorboard", "--workspace", ws});
    QCOMPARE(piped.exitCode, 0);
    QCOMPARE(piped.out.count("exported "), 2);
    QVERIFY2(!piped.err.contains("exporting"), qPrintable(piped.err));
    // Under a pseudo-terminal: the progress line, redrawn with \r, and the same lines.
    const TerminalResult exported =
        onTerminal(QString("runs export one two %1 --to tensorboard --force --workspace %2").arg(dir.path() + "/tb2", ws));
    QCOMPARE(exported.exitCode, 0);
    const QString &terminal = exported.text;
    QVERIFY2(terminal.contains("\rexporting 2 / 2 runs (100%)"), qPrintable(terminal));
    QCOMPARE(terminal.count("exported "), 2);
    // The report counts its sections.
    const CliResult pipedReport = runCli({"report", "one", "two", "-o", dir.path() + "/piped.html", "--workspace", ws});
    QCOMPARE(pipedReport.exitCode, 0);
    QVERIFY2(!pipedReport.all().contains("sections"), qPrintable(pipedReport.all()));
    const TerminalResult report = onTerminal(QString("report one two -o %1 --workspace %2").arg(dir.path() + "/report.html", ws));
    QCOMPARE(report.exitCode, 0);
    const QString &reportTerminal = report.text;
    QVERIFY2(reportTerminal.contains("\rwriting the report: 7 / 7 sections (100%)"), qPrintable(reportTerminal));
    QVERIFY(reportTerminal.contains("wrote " + dir.path() + "/report.html"));
  }

  // `train`: the worker draws the steps under its epoch lines on the terminal (its stdout; its
  // stderr is a pipe to the launcher), and nothing of the kind into a pipe.
  void trainingDrawsItsStepsOnATerminalOnly() {
    QTemporaryDir dir;
    const QString runFile = writeTextFile(dir.path() + "/run.yaml",
                                          "model: " TW_SOURCE_DIR "/resources/examples/fashion_mlp.model.yaml\n"
                                          "data: {dataset: fashion-mnist, train_limit: 2000, batch_size: 64, val_fraction: 0.1}\n"
                                          "train: {optimizer: adam, lr: 0.001, epochs: 2, seed: 7}\n");
    const QString ws = dir.path() + "/ws";
    const CliResult piped = runCli({"train", runFile, "--workspace", ws, "--set", "tracking.run_name=piped"});
    QVERIFY2(piped.exitCode == 0, qPrintable(piped.all()));
    QVERIFY(piped.out.contains("epoch 2/2"));
    QVERIFY2(!piped.all().contains("training "), qPrintable(piped.all()));
    const TerminalResult trained = onTerminal(QString("train %1 --workspace %2 --set tracking.run_name=tty").arg(runFile, ws));
    QCOMPARE(trained.exitCode, 0);
    const QString &terminal = trained.text;
    // 1,800 training images in batches of 64: 29 steps an epoch.
    QVERIFY2(terminal.contains("\rtraining 58 / 58 steps (100%)"), qPrintable(terminal));
    // An epoch line clears the progress line first and is printed whole on its own line.
    QVERIFY2(terminal.contains("\r\033[Kepoch 1/2 "), qPrintable(terminal));
    QVERIFY(terminal.contains("Summary of run"));
    // `export` counts its stages there too, and ends the line before its own.
    const CliResult exported = runCli({"export", "piped", "--format", "onnx", "--out", dir.path() + "/piped.onnx",
                                       "--workspace", ws});
    QVERIFY2(exported.exitCode == 0 && !exported.all().contains("stages"), qPrintable(exported.all()));
    const TerminalResult exporting =
        onTerminal(QString("export tty --format onnx --out %1 --workspace %2").arg(dir.path() + "/tty.onnx", ws));
    QCOMPARE(exporting.exitCode, 0);
    const QString &exportTerminal = exporting.text;
    QVERIFY2(exportTerminal.contains("\rexporting: 4 / 4 stages (100%)\033[K\r\n"), qPrintable(exportTerminal));
    QVERIFY(exportTerminal.contains("wrote " + dir.path() + "/tty.onnx"));
  }
};

QTEST_GUILESS_MAIN(TestProgressLine)
#include "test_progress_line.moc"
