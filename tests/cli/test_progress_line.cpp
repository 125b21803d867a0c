// Long work's progress on a terminal: the line's count, share, rate and time left; nothing drawn
// when the output is not a terminal; and drawn in place under a real pseudo-terminal (script(1))
// while `runs export` prints its own lines.

#include "app/cli/progress_line.h"
#include "cli_runner.h"

#include "tracking/store.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

class TestProgressLine : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void lineSaysCountShareRateAndTimeLeft() {
    using tw::cli::progressText;
    QCOMPARE(progressText("packing", "examples", 0, 9000, 0.0), std::string("packing 0 / 9,000 examples (0%)"));
    // No rate before a second has passed: a first batch would promise nonsense.
    QCOMPARE(progressText("packing", "examples", 300, 9000, 0.5), std::string("packing 300 / 9,000 examples (3%)"));
    QCOMPARE(progressText("packing", "examples", 1200, 9000, 2.0),
             std::string("packing 1,200 / 9,000 examples (13%), 600 examples/s, 13s left"));
    QCOMPARE(progressText("importing", "runs", 3, 4, 90.0), std::string("importing 3 / 4 runs (75%), 0.0333 runs/s, 30s left"));
    QCOMPARE(progressText("exporting", "runs", 4, 4, 2.0), std::string("exporting 4 / 4 runs (100%), 2 runs/s"));
    const std::string hours = progressText("packing", "examples", 1000, 100000, 61.0);  // 6,039 s to go
    QVERIFY2(hours.size() > 10 && hours.substr(hours.size() - 10) == "1h40m left", hours.c_str());
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
    QProcess script;
    script.start("script", {"-qfec", QString("%1/torchwright runs export one two %2 --to tensorboard --force --workspace %3")
                                         .arg(TW_BIN_DIR, dir.path() + "/tb2", ws),
                            "/dev/null"});
    QVERIFY2(script.waitForFinished(60000), "script(1) (util-linux) did not run");
    const QString terminal = QString::fromUtf8(script.readAllStandardOutput());
    QCOMPARE(script.exitCode(), 0);
    QVERIFY2(terminal.contains("\rexporting 2 / 2 runs (100%)"), qPrintable(terminal));
    QCOMPARE(terminal.count("exported "), 2);
  }
};

QTEST_GUILESS_MAIN(TestProgressLine)
#include "test_progress_line.moc"
