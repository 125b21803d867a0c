// Supervision: whoever starts a run is killed with SIGKILL at the moment it launches, and the run
// still ends in a defined state, never RUNNING or CREATED for good. Studio is its real main
// window and Launch page in a child process (this program re-launched with --studio; the real
// `torchwright launch --detach`, launcher and worker behind it), killed (a) while its CLI has not
// answered yet: Studio is gone before the CLI prints a line, so the CLI writes into a pipe nobody
// reads; the launch must go on and the run end FINISHED; (b) once Studio has reported the launch:
// the detached launcher trains on and the run ends FINISHED. (c) A `torchwright launch` killed
// right after it recorded the run, before its ranks could start: nothing beats for the run any
// more, and once every process of the run has ended and the store's silence rule has passed
// (written into the database, as test_cli_sweep does, instead of waited out) a reader fails the
// run with the reason. tests/reliability/README.md reports the figures.

#include "tracking/store.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/run_launcher.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QPushButton>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <signal.h>
#include <sqlite3.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

using tw::tracking::RunStatus;
using tw::tracking::Store;

namespace {

const char *kRunFile = R"(model:
  name: blobs_mlp
  nodes:
    - {id: x, op: Input, shape: [2]}
    - {id: hidden, op: Linear, out_features: 8}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 3}
data: {dataset: blobs, samples: 300, classes: 3, batch_size: 32}
train: {optimizer: adam, lr: 0.01, epochs: 3, seed: 5, threads: 1}
tracking: {experiment: kills}
)";

// How long a launch that survived its caller may take to finish: a worker's start (LibTorch) and
// a few epochs of 300 points, with room for a loaded 2-core machine.
constexpr int kFinishBoundMs = 90000;

QString writeFile(const QString &path, const QByteArray &text) {
  QFile file(path);
  if (file.open(QIODevice::WriteOnly)) file.write(text);
  return path;
}

// The state letter of /proc/PID/stat ('T' stopped, 'Z' zombie), or 0 when there is no such process.
char processState(qint64 pid) {
  QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
  if (!stat.open(QIODevice::ReadOnly)) return 0;
  const QByteArray text = stat.readAll();
  const int close = text.lastIndexOf(')');
  return close > 0 && close + 2 < text.size() ? text.at(close + 2) : 0;
}

// Live processes (not zombies) whose command line names the run: its launcher and its workers.
int processesOfRun(const std::string &uuid) {
  int count = 0;
  const QByteArray needle = QByteArray::fromStdString(uuid);
  for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
    bool numeric = false;
    const qint64 pid = entry.toLongLong(&numeric);
    if (!numeric) continue;
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly) || !cmdline.readAll().contains(needle)) continue;
    const char state = processState(pid);
    if (state != 0 && state != 'Z') ++count;
  }
  return count;
}

bool execSql(const std::string &path, const std::string &sql) {
  sqlite3 *db = nullptr;
  bool ok = sqlite3_open(path.c_str(), &db) == SQLITE_OK && sqlite3_busy_timeout(db, 10000) == SQLITE_OK &&
            sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
  sqlite3_close(db);
  return ok;
}

// --studio WORKSPACE CLI RUNFILE: Studio's main window launches the run file from its Launch page
// with the CLI given, says "launched UUID" when it reports the launch, and waits to be killed.
int studioMain(int argc, char **argv) {
  QApplication app(argc, argv);
  QTemporaryDir settings;  // the developer's Studio layout neither read nor overwritten
  QCoreApplication::setOrganizationName(QStringLiteral("TorchwrightTests"));
  QCoreApplication::setApplicationName(QStringLiteral("StudioTests"));
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
  const QString workspace = QString::fromLocal8Bit(argv[2]);
  tw::ui::MainWindow window;
  window.show();
  if (!window.openWorkspace(workspace)) return 3;
  tw::ui::LaunchPage *launch = window.launchPage();
  launch->launcher()->setCliPath(QString::fromLocal8Bit(argv[3]));
  window.pages()->setCurrentWidget(launch);
  QObject::connect(launch, &tw::ui::LaunchPage::runFileOpened, launch, [launch](const QString &, const QString &error) {
    if (!error.isEmpty()) {
      std::fprintf(stderr, "opening the run file: %s\n", qPrintable(error));
      QCoreApplication::exit(4);
      return;
    }
    QTest::mouseClick(launch->launchButton(), Qt::LeftButton);
  });
  QObject::connect(launch->launcher(), &tw::ui::RunLauncher::launched, launch, [](const QString &uuid) {
    std::printf("launched %s\n", qPrintable(uuid));
    std::fflush(stdout);
  });
  launch->openRunFile(QString::fromLocal8Bit(argv[4]));
  QTimer::singleShot(120000, &app, [] { QCoreApplication::exit(5); });  // never outlive a broken test
  return app.exec();
}

}  // namespace

class TestLaunchKill : public QObject {
  Q_OBJECT

 private:
  struct Setup {
    QTemporaryDir dir;
    QString workspace;
    std::string db;
    QString runFile;
    Setup() : workspace(dir.path() + "/ws") {
      QDir().mkpath(workspace);
      db = (workspace + "/tracking.db").toStdString();
      runFile = writeFile(dir.path() + "/blobs.run.yaml", kRunFile);
    }
    std::vector<tw::tracking::RunRecord> runs() const { return Store::open(db)->listRuns(); }
    std::optional<tw::tracking::RunRecord> onlyRun() const {
      const auto all = runs();
      return all.size() == 1 ? std::optional(all.front()) : std::nullopt;
    }
  };

  static void startStudio(QProcess &studio, const Setup &s, const QString &cli) {
    studio.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    studio.start(QCoreApplication::applicationFilePath(), {"--studio", s.workspace, cli, s.runFile});
  }

  // The run ends FINISHED within kFinishBoundMs of `since`; returns the milliseconds it took.
  static qint64 waitForFinished(const Setup &s, const QElapsedTimer &since) {
    std::optional<tw::tracking::RunRecord> run;
    auto ended = [&] {
      run = s.onlyRun();
      return run && run->status != RunStatus::Created && run->status != RunStatus::Running;
    };
    while (!ended() && since.elapsed() < kFinishBoundMs) QTest::qWait(100);
    if (!run) {
      QTest::qFail("no run was recorded", __FILE__, __LINE__);
      return -1;
    }
    if (run->status != RunStatus::Finished) {
      QTest::qFail(qPrintable(QString("the run reads %1 (%2) after %3 ms")
                                  .arg(QString::fromStdString(tw::tracking::runStatusName(run->status)))
                                  .arg(QString::fromStdString(run->statusMessage))
                                  .arg(since.elapsed())),
                   __FILE__, __LINE__);
      return -1;
    }
    return since.elapsed();
  }

 private Q_SLOTS:
  void studioKilledBeforeItsCliAnswered() {
    Setup s;
    // The CLI Studio starts stops itself before it runs, so that Studio can be killed while the
    // launch is certainly in flight; it then carries on with nobody reading its output.
    const QString pidFile = s.dir.path() + "/cli.pid";
    const QString cli = writeFile(s.dir.path() + "/stopped-cli.sh",
                                  QByteArray("#!/bin/sh\necho $$ > '") + pidFile.toUtf8() +
                                      "'\nkill -STOP $$\nexec '" TW_BIN_DIR "/torchwright' \"$@\"\n");
    QVERIFY(QFile::setPermissions(cli, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QProcess studio;
    startStudio(studio, s, cli);
    QVERIFY(studio.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(pidFile) || studio.state() != QProcess::Running, 60000);
    QVERIFY2(studio.state() == QProcess::Running, "Studio ended before it launched");
    qint64 pid = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
          QFile file(pidFile);
          pid = file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
          return pid > 0 && processState(pid) == 'T';
        }(),
        10000);
    QVERIFY2(s.runs().empty(), "the CLI recorded the run before it was stopped");

    QCOMPARE(::kill(static_cast<pid_t>(studio.processId()), SIGKILL), 0);
    QVERIFY(studio.waitForFinished(10000));
    QCOMPARE(studio.exitStatus(), QProcess::CrashExit);
    QElapsedTimer sinceKill;
    sinceKill.start();
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGCONT), 0);

    const qint64 ms = waitForFinished(s, sinceKill);
    if (QTest::currentTestFailed()) return;
    qInfo("Studio killed before its CLI answered: the run ended FINISHED %lld ms after the kill (bound %d ms)",
          static_cast<long long>(ms), kFinishBoundMs);
  }

  void studioKilledOnceItReportedTheLaunch() {
    Setup s;
    QProcess studio;
    startStudio(studio, s, TW_BIN_DIR "/torchwright");
    QVERIFY(studio.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(studio.canReadLine() || studio.state() != QProcess::Running, 60000);
    const QByteArray line = studio.readLine().trimmed();
    QVERIFY2(line.startsWith("launched "), line.constData());
    // Killed while the run trains (or starts), not after it: the run has not ended yet.
    const auto before = s.onlyRun();
    QVERIFY(before.has_value());
    QCOMPARE(QByteArray::fromStdString(before->uuid), line.mid(9));
    QVERIFY(before->status == RunStatus::Created || before->status == RunStatus::Running);

    QCOMPARE(::kill(static_cast<pid_t>(studio.processId()), SIGKILL), 0);
    QVERIFY(studio.waitForFinished(10000));
    QElapsedTimer sinceKill;
    sinceKill.start();
    const qint64 ms = waitForFinished(s, sinceKill);
    if (QTest::currentTestFailed()) return;
    QVERIFY(QFile::exists(QString::fromStdString(s.onlyRun()->runDir) + "/artifacts/launcher.log"));
    qInfo("Studio killed once it reported the launch (run %s then): the run ended FINISHED %lld ms after the kill",
          tw::tracking::runStatusName(before->status).c_str(), static_cast<long long>(ms));
  }

  void launcherKilledBeforeItsRanksStartFailsTheRun() {
    Setup s;
    QProcess launcher;
    launcher.start(TW_BIN_DIR "/torchwright",
                   {"launch", s.runFile, "--nproc-per-node", "2", "--workspace", s.workspace});
    QVERIFY(launcher.waitForStarted());
    // Its first line comes right after the run is recorded; the ranks are not started yet.
    QTRY_VERIFY_WITH_TIMEOUT(launcher.canReadLine() || launcher.state() != QProcess::Running, 60000);
    QVERIFY2(launcher.state() == QProcess::Running, launcher.readAllStandardError().constData());
    launcher.kill();
    QVERIFY(launcher.waitForFinished(10000));
    QVERIFY2(launcher.readLine().startsWith("run "), "the launcher's first line is not its run");
    const auto recorded = s.onlyRun();
    QVERIFY(recorded.has_value());

    // Every process of the run ends on its own (ranks get SIGHUP when their launcher dies); then
    // nothing will ever write the run's end again.
    QElapsedTimer timer;
    timer.start();
    QTRY_COMPARE_WITH_TIMEOUT(processesOfRun(recorded->uuid), 0, 60000);
    const qint64 settledMs = timer.elapsed();
    const auto left = *s.onlyRun();
    // Two minutes of silence, past the store's rule (Store::kDefaultMaxSilenceMs), written into
    // the file; then a reader that applies the rule, as Studio's poller does every 10 s.
    QVERIFY(execSql(s.db, "UPDATE runs SET heartbeat_ms = heartbeat_ms - 120000, start_ms = start_ms - 120000, "
                          "updated_ms = updated_ms - 120000, created_ms = created_ms - 120000"));
    QProcess reader;
    reader.start(TW_BIN_DIR "/torchwright", {"runs", "list", "--workspace", s.workspace});
    QVERIFY(reader.waitForFinished(30000));
    QVERIFY2(reader.exitCode() == 0, reader.readAllStandardError().constData());
    const auto run = *s.onlyRun();
    QVERIFY2(run.status == RunStatus::Failed,
             qPrintable(QString("the run reads %1").arg(tw::tracking::runStatusName(run.status).c_str())));
    QVERIFY2(!run.statusMessage.empty(), "a failed run without a reason");
    QVERIFY2(QString::fromUtf8(reader.readAllStandardOutput()).contains("FAILED"), "runs list does not say FAILED");
    qInfo("launcher killed after recording its run: its processes ended %lld ms later, leaving the run %s; "
          "after the silence rule a reader failed it: \"%s\"",
          static_cast<long long>(settledMs), tw::tracking::runStatusName(left.status).c_str(), run.statusMessage.c_str());
  }
};

int main(int argc, char **argv) {
  if (argc == 5 && std::string(argv[1]) == "--studio") return studioMain(argc, argv);
  QCoreApplication app(argc, argv);
  TestLaunchKill test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_launch_kill.moc"
