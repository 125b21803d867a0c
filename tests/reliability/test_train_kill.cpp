// Fault injection on training: a real run (the CLI and its worker, a small MLP on a Fashion-MNIST
// slice, a checkpoint every 2 steps) has its worker killed with SIGKILL 20 times and is resumed
// with `train --resume` after each kill. Half the kills land at a random moment after the worker
// has written a checkpoint of its own; the other half aim at a checkpoint save: the test watches
// the checkpoint folder with inotify and kills the worker the moment its temporary
// `.last.pt.tmp-<pid>` is created, i.e. while the checkpoint is still being serialised, written
// and fsynced, before the rename. No hook in the product: the window is the real one, and a kill
// counts as inside a save only when its temporary is still there after the worker is dead.
// After every kill: the launcher exits 1 and the run reads FAILED (never RUNNING); last.pt loads
// into the run's model and optimiser exactly as a resume loads it, at a step no earlier than the
// one before; the killed worker's temporary is gone once the resumed worker has saved. At the end
// the run is FINISHED, no temporary is left in its folder, and its weights digest and metric
// history equal those of the same run trained straight through. tests/reliability/README.md
// reports the figures.

#include "fault_helpers.h"

#include "core/config/run_config.h"
#include "core/engine/checkpoint.h"
#include "core/engine/model_builder.h"
#include "core/engine/optimizer_factory.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "tracking/history_compare.h"
#include "tracking/store.h"

#include <torch/torch.h>

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <string>

using tw::tracking::RunStatus;

namespace {

constexpr int kKills = 20;

struct FolderEvent {
  uint32_t mask = 0;
  QString name;
};

// Creations and renames into one folder, as inotify reports them, in order.
class FolderWatch {
 public:
  explicit FolderWatch(const QString &folder) {
    m_fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd >= 0) m_ok = inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), IN_CREATE | IN_MOVED_TO) >= 0;
  }
  ~FolderWatch() {
    if (m_fd >= 0) ::close(m_fd);
  }
  bool ok() const { return m_ok; }
  void drain() {
    readAvailable();
    m_events.clear();
  }
  // Waits up to `ms` for the next event; false when none came.
  bool next(FolderEvent *event, int ms) {
    if (m_events.empty()) {
      pollfd p{m_fd, POLLIN, 0};
      if (::poll(&p, 1, ms) > 0) readAvailable();
    }
    if (m_events.empty()) return false;
    *event = m_events.front();
    m_events.pop_front();
    return true;
  }

 private:
  void readAvailable() {
    alignas(inotify_event) char buffer[16384];
    ssize_t n = 0;
    while ((n = ::read(m_fd, buffer, sizeof buffer)) > 0) {
      for (char *at = buffer; at < buffer + n;) {
        const auto *e = reinterpret_cast<const inotify_event *>(at);
        m_events.push_back({e->mask, e->len ? QString::fromUtf8(e->name) : QString()});
        at += sizeof(inotify_event) + e->len;
      }
    }
  }

  int m_fd = -1;
  bool m_ok = false;
  std::deque<FolderEvent> m_events;
};

QStringList temporariesUnder(const QString &folder) {
  QStringList found;
  QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString path = it.next();
    if (it.fileName().startsWith('.') && it.fileName().contains(".tmp-")) found << path;
  }
  return found;
}

// last.pt read into the run's own model and optimiser, as `train --resume` reads it; the step it
// holds, or -1 with the reason.
int64_t loadedStep(const tw::config::RunConfig &config, const QString &file, QString *problem) {
  try {
    const auto spec = tw::spec::parseModelYaml(config.modelYaml);
    const auto analysis = tw::spec::analyzeOrThrow(spec);
    auto model = tw::engine::buildModel(spec, analysis);
    auto optimizer = tw::engine::makeOptimizer(model->parameterGroups(), config.train);
    return tw::engine::loadCheckpoint(file.toStdString(), *model, *optimizer).step;
  } catch (const std::exception &e) {
    *problem = QString::fromStdString(e.what());
    return -1;
  }
}

}  // namespace

class TestTrainKill : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { torch::set_num_threads(1); }

  void killedTrainingResumesBitIdentical() {
    QTemporaryDir dir;
    const QString ws = dir.path() + "/ws";
    const QString runFile = dir.path() + "/run.yaml";
    {
      QFile out(runFile);
      QVERIFY(out.open(QIODevice::WriteOnly));
      out.write(tw::faults::tinyRunFile(4));  // 360 steps, 180 checkpoints
    }
    const auto config = tw::config::loadRunConfig(runFile.toStdString());
    QElapsedTimer clock;
    clock.start();
    const QString cli = QStringLiteral(TW_BIN_DIR "/torchwright");
    {
      QProcess straight;
      straight.start(cli, {"train", runFile, "--workspace", ws, "--set", "tracking.run_name=straight"});
      QVERIFY(straight.waitForFinished(120000));
      QVERIFY2(straight.exitCode() == 0, straight.readAllStandardError().constData());
    }
    const qint64 straightMs = clock.elapsed();

    const quint32 seed = QRandomGenerator::global()->generate();
    qInfo("kill moments drawn with seed %u", seed);
    QRandomGenerator random(seed);
    auto store = [&] { return tw::tracking::Store::open((ws + "/tracking.db").toStdString()); };

    QProcess launcher;
    launcher.start(cli, {"train", runFile, "--workspace", ws, "--set", "tracking.run_name=victim"});
    QVERIFY(launcher.waitForStarted());
    QString runDir;
    QTRY_VERIFY_WITH_TIMEOUT(store()->findRun("victim").has_value(), 30000);
    runDir = QString::fromStdString(store()->findRun("victim")->runDir);
    const QString checkpoints = runDir + "/checkpoints";
    QTRY_VERIFY_WITH_TIMEOUT(QDir(checkpoints).exists(), 30000);
    FolderWatch watch(checkpoints);
    QVERIFY(watch.ok());

    // Until `accept` takes an event, as long as the launcher runs; false when it ended first.
    auto waitFor = [&](const std::function<bool(const FolderEvent &)> &accept, FolderEvent *taken) {
      QElapsedTimer waited;
      waited.start();
      while (waited.elapsed() < 60000) {
        FolderEvent event;
        if (watch.next(&event, 20)) {
          if (accept(event)) {
            if (taken) *taken = event;
            return true;
          }
          continue;
        }
        QCoreApplication::processEvents();
        if (launcher.state() != QProcess::Running) return false;
      }
      return false;
    };
    auto lastSaved = [](const FolderEvent &e) { return (e.mask & IN_MOVED_TO) && e.name == "last.pt"; };
    auto saveStarts = [](const FolderEvent &e) {
      return (e.mask & IN_CREATE) && e.name.startsWith(".last.pt.tmp-");
    };

    int insideSave = 0, aimedAtSave = 0, staleCleaned = 0;
    int64_t previousStep = 0;
    QString staleTemporary;
    for (int kill = 0; kill < kKills; ++kill) {
      const QString when = QString("kill %1 (seed %2)").arg(kill + 1).arg(seed);
      // The kills spread over the whole run (epoch ends, evaluations and best.pt included): kill k
      // comes near step 16k + 4..16, each last.pt rename being 2 steps on. At least one checkpoint
      // by this worker first, so every resume makes progress and the previous worker's temporary
      // has had its chance to be cleaned up.
      const int64_t target = 16 * kill + 4 + random.bounded(13);
      for (int64_t saves = std::max<int64_t>(1, (target - previousStep) / 2); saves > 0; --saves)
        QVERIFY2(waitFor(lastSaved, nullptr),
                 qPrintable(when + ": the worker wrote no checkpoint: " + launcher.readAllStandardError()));
      if (!staleTemporary.isEmpty()) {
        QVERIFY2(!QFile::exists(staleTemporary), qPrintable(when + ": " + staleTemporary + " outlived the resume"));
        ++staleCleaned;
        staleTemporary.clear();
      }
      pid_t victim = 0;
      if (kill % 2 == 0) {
        ++aimedAtSave;
        FolderEvent started;
        QVERIFY2(waitFor(saveStarts, &started), qPrintable(when + ": no checkpoint save began"));
        victim = static_cast<pid_t>(started.name.mid(started.name.lastIndexOf('-') + 1).toInt());
      } else {
        QThread::usleep(random.bounded(40000));
        victim = tw::faults::workerOf(launcher.processId());
      }
      QVERIFY2(victim > 0 && ::kill(victim, SIGKILL) == 0, qPrintable(when + ": no worker to kill"));
      QVERIFY(launcher.waitForFinished(60000));
      QVERIFY2(launcher.exitCode() == 1, qPrintable(when + ": the launcher exited with " +
                                                    QString::number(launcher.exitCode()) + " (the run ended first?)"));
      const QString temporary = checkpoints + "/.last.pt.tmp-" + QString::number(victim);
      if (QFile::exists(temporary)) {
        ++insideSave;
        staleTemporary = temporary;
      }
      const auto run = store()->findRun("victim");
      QVERIFY2(run->status == RunStatus::Failed, qPrintable(when + ": the run reads " +
                                                            QString::fromStdString(tw::tracking::runStatusName(run->status))));
      QString problem;
      const int64_t step = loadedStep(config, checkpoints + "/last.pt", &problem);
      QVERIFY2(step >= 0, qPrintable(when + ": last.pt does not load: " + problem));
      QVERIFY2(step > previousStep, qPrintable(when + QString(": last.pt holds step %1, after step %2 before")
                                                          .arg(step).arg(previousStep)));
      previousStep = step;
      watch.drain();
      launcher.start(cli, {"train", "--resume", "victim", "--workspace", ws});
      QVERIFY(launcher.waitForStarted());
    }
    QVERIFY(launcher.waitForFinished(120000));
    QVERIFY2(launcher.exitCode() == 0, launcher.readAllStandardError().constData());
    if (!staleTemporary.isEmpty()) {
      QVERIFY2(!QFile::exists(staleTemporary), qPrintable(staleTemporary + " outlived the last resume"));
      ++staleCleaned;
    }
    const qint64 totalMs = clock.elapsed();

    auto db = store();
    const auto straight = *db->findRun("straight");
    const auto victim = *db->findRun("victim");
    QCOMPARE(victim.status, RunStatus::Finished);
    QVERIFY2(temporariesUnder(runDir).isEmpty(), qPrintable(temporariesUnder(runDir).join(", ")));
    const std::string digest = db->tags(straight.id).at("weights_sha256");
    QVERIFY(!digest.empty());
    QCOMPARE(db->tags(victim.id).at("weights_sha256"), digest);
    const auto comparison = tw::tracking::compareHistories(*db, straight.id, victim.id);
    QVERIFY2(comparison.identical, comparison.firstDifference.c_str());
    qInfo("%d SIGKILLs (seed %u): %d inside a checkpoint save (%d aimed at one), %d resumes, %d temporaries "
          "cleaned up by the resume, last checkpoint loaded after every kill (reached step %lld); weights "
          "bit-identical (%s), %lld points of history identical; %.1f s (%.1f s the straight run)",
          kKills, seed, insideSave, aimedAtSave, kKills, staleCleaned, static_cast<long long>(previousStep),
          digest.substr(0, 12).c_str(), static_cast<long long>(comparison.pointsCompared), totalMs / 1000.0,
          straightMs / 1000.0);
    // An aimed kill misses only when the whole save (2.4 MB serialised, written and fsynced)
    // finishes between the temporary's creation and the signal.
    QVERIFY2(insideSave * 2 >= aimedAtSave, qPrintable(QString("only %1 of %2 kills aimed at a save landed inside one")
                                                           .arg(insideSave).arg(aimedAtSave)));
  }
};

QTEST_GUILESS_MAIN(TestTrainKill)
#include "test_train_kill.moc"
