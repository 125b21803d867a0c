// Several processes on one tracking file, as in real use: a worker writes through MetricWriter
// while the GUI polls incrementally, two workers write different runs at once, and sixteen
// trial processes of one study start together on a new file. The test program re-launches
// itself as those processes (--writer / --reader / --open / --trials, handled in main()).

#include "tests/tracking/tracking_fixture.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>

using tw::tracking::MetricWriter;
using tw::tracking::MetricWriterOptions;
using tw::tracking::NewRun;
using tw::tracking::Store;
using tw::tracking::TrackingError;

namespace {

const std::string kKey = "train/loss";
double valueAt(int64_t step) { return double(step) * 0.5 + 0.25; }

// Child: logs steps 0..n-1, paced like a fast training loop so that commits and the reader's
// polls interleave.
int writerMain(const std::string &db, int64_t runId, int64_t n) {
  MetricWriterOptions options;
  options.flushIntervalMs = 5;
  options.maxBatch = 500;
  MetricWriter writer(db, runId, options);
  for (int64_t step = 0; step < n; ++step) {
    writer.log(kKey, step, valueAt(step));
    if (step % 100 == 99) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  writer.flush();
  const std::string error = writer.lastError();
  if (!error.empty()) {
    std::fprintf(stderr, "writer error: %s\n", error.c_str());
    return 1;
  }
  std::printf("wrote %lld\n", (long long)n);
  return 0;
}

// Child: polls like the GUI (points after the last step seen, bounded chunks) and prints each
// step it receives, one per line, then "batches <k>": how many polls returned something.
int readerMain(const std::string &db, int64_t runId, int64_t n) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  int64_t last = INT64_MIN;
  int batches = 0;
  try {
    auto store = Store::open(db);
    while (last < n - 1 && std::chrono::steady_clock::now() < deadline) {
      std::vector<tw::tracking::MetricPoint> points;
      try {
        points = store->metricPoints(runId, kKey, last, 2000);
      } catch (const std::exception &e) {
        // Printed, so that the test sees it; polling goes on, as the GUI's would.
        std::fprintf(stderr, "reader error: %s\n", e.what());
      }
      if (points.empty()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        continue;
      }
      ++batches;
      for (const auto &point : points) std::printf("%lld\n", (long long)point.step);
      last = points.back().step;
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "reader error: %s\n", e.what());
    return 1;
  }
  std::printf("batches %d\n", batches);
  return last == n - 1 ? 0 : 1;
}

// Child: opens (and so creates and migrates) the file and adds a run, as a CLI and a GUI
// starting together on a new workspace do.
int openerMain(const std::string &db) {
  try {
    auto store = Store::open(db);
    NewRun run;
    run.experiment = "openers";
    store->createRun(run);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "opener error: %s\n", e.what());
    return 1;
  }
  return 0;
}

const std::string kStudy = "together";
double trialValue(int worker, int index) { return worker * 1000.0 + index + 0.5; }

// Child: waits for the go file, so that all start together, then opens (creating and migrating)
// the file, finds or creates the study, and runs `count` trials through it: added, one
// intermediate value, COMPLETE with a value the parent can check. Prints each trial number.
int trialsMain(const std::string &db, int worker, int count, const std::string &goFile) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!QFile::exists(QString::fromStdString(goFile))) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::fprintf(stderr, "trials %d: no go signal\n", worker);
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  try {
    auto store = Store::open(db);
    // The first to get the write lock creates the study; the others find it. createStudy
    // refuses a taken name under the same lock, so no two studies of the name can exist.
    auto study = store->findStudy(kStudy);
    if (!study) {
      try {
        tw::tracking::NewStudy newStudy;
        newStudy.name = kStudy;
        newStudy.directions = "maximize";
        newStudy.metrics = "val/accuracy";
        study = store->createStudy(newStudy);
      } catch (const TrackingError &) {
        study = store->findStudy(kStudy);
        if (!study) throw;
      }
    }
    for (int index = 0; index < count; ++index) {
      const auto trial =
          store->addTrial(study->id, {{"worker", std::to_string(worker)}, {"index", std::to_string(index)}});
      store->reportIntermediate(study->id, trial.number, 0, trialValue(worker, index) / 2);
      store->setTrialState(study->id, trial.number, "COMPLETE", {trialValue(worker, index)});
      std::printf("%d\n", trial.number);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "trials %d error: %s\n", worker, e.what());
    return 1;
  }
  return 0;
}

struct Child {
  QProcess process;
  QByteArray out;
  QByteArray err;

  void start(const QStringList &arguments) {
    process.start(QCoreApplication::applicationFilePath(), arguments);
  }
  bool finish(int timeoutMs) {
    const bool done = process.waitForFinished(timeoutMs);
    out = process.readAllStandardOutput();
    err = process.readAllStandardError();
    return done;
  }
  bool succeeded() const { return process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0; }
  QByteArray all() const { return out + err; }
};

QStringList childArguments(const char *mode, const std::string &db, int64_t runId, int64_t n) {
  return {mode, QString::fromStdString(db), QString::number(runId), QString::number(n)};
}

}  // namespace

class TestTrackingConcurrency : public QObject {
  Q_OBJECT

  QTemporaryDir *m_dir = nullptr;
  std::string m_path;

  int64_t createRun(Store &store) {
    NewRun run;
    run.experiment = "concurrency";
    return store.createRun(run).id;
  }

 private Q_SLOTS:
  void init() {
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_path = tracking_test::freshStore(*m_dir);
    if (m_path.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
  }
  void cleanup() {
    delete m_dir;
    m_dir = nullptr;
  }

  void readerSeesEveryStepOnceWhileWriterWrites() {
    constexpr int64_t kN = 50000;
    auto store = Store::open(m_path);
    const int64_t runId = createRun(*store);

    Child reader, writer;
    reader.start(childArguments("--reader", m_path, runId, kN));
    QVERIFY(reader.process.waitForStarted(10000));
    writer.start(childArguments("--writer", m_path, runId, kN));
    QVERIFY(writer.process.waitForStarted(10000));
    QVERIFY(writer.finish(120000));
    QVERIFY(reader.finish(120000));

    QVERIFY2(writer.succeeded(), writer.all().constData());
    QVERIFY2(reader.succeeded(), reader.err.constData());
    QVERIFY2(!writer.all().contains("database is locked"), writer.all().constData());
    QVERIFY2(!reader.all().contains("database is locked"), reader.err.constData());
    QVERIFY2(reader.err.isEmpty(), reader.err.constData());

    const QList<QByteArray> lines = reader.out.split('\n');
    int64_t expected = 0;
    int batches = 0;
    for (const QByteArray &line : lines) {
      if (line.isEmpty()) continue;
      if (line.startsWith("batches ")) {
        batches = line.mid(8).toInt();
        continue;
      }
      bool ok = false;
      const qlonglong step = line.toLongLong(&ok);
      QVERIFY2(ok, line.constData());
      if (step != expected)
        QFAIL(qPrintable(QString("reader saw step %1 where %2 was due").arg(step).arg(expected)));
      ++expected;
    }
    QCOMPARE(expected, kN);
    qInfo("the reader received the %lld steps in %d polls", (long long)kN, batches);
    // More than one poll with data: the reader really read while the writer wrote.
    QVERIFY(batches > 1);

    auto points = store->metricPoints(runId, kKey);
    QCOMPARE(points.size(), size_t(kN));
    QCOMPARE(points.back().value, valueAt(kN - 1));
  }

  void simultaneousOpensOfANewFile() {
    constexpr int kOpeners = 4;
    std::vector<std::unique_ptr<Child>> openers;
    for (int i = 0; i < kOpeners; ++i) {
      openers.push_back(std::make_unique<Child>());
      openers.back()->start({"--open", QString::fromStdString(m_path)});
    }
    for (auto &child : openers) {
      QVERIFY(child->finish(60000));
      QVERIFY2(child->succeeded(), child->all().constData());
    }
    auto store = Store::open(m_path);
    QCOMPARE(store->schemaVersion(), Store::currentSchemaVersion());
    auto runs = store->listRuns();
    QCOMPARE(runs.size(), size_t(kOpeners));
    // Each name was generated inside its own write transaction, so none repeats.
    std::set<std::string> names;
    for (const auto &run : runs) names.insert(run.name);
    QCOMPARE(names.size(), size_t(kOpeners));
  }

  // The test: 16 trial processes starting at the same moment on a new database.
  void sixteenTrialProcessesOnANewFile() {
    constexpr int kProcesses = 16;
    constexpr int kTrialsEach = 20;
    const QString goFile = m_dir->filePath("go");
    std::vector<std::unique_ptr<Child>> children;
    for (int worker = 0; worker < kProcesses; ++worker) {
      children.push_back(std::make_unique<Child>());
      children.back()->start({"--trials", QString::fromStdString(m_path), QString::number(worker),
                              QString::number(kTrialsEach), goFile});
    }
    for (auto &child : children) QVERIFY(child->process.waitForStarted(10000));
    // Nobody opened the store yet: no file, or on PostgreSQL an empty database. (A SQLite
    // query would create the file it asks about.)
    if (tracking_test::onPostgres())
      QCOMPARE(tracking_test::queryText(m_path, tracking_test::countTablesSql("schema_version")), std::string("0"));
    else
      QVERIFY(!QFile::exists(QString::fromStdString(m_path)));
    QFile go(goFile);
    QVERIFY(go.open(QIODevice::WriteOnly));
    go.close();

    std::multiset<int> printed;
    for (auto &child : children) {
      QVERIFY(child->finish(120000));
      QVERIFY2(child->succeeded(), child->all().constData());
      QVERIFY2(!child->all().contains("database is locked"), child->all().constData());
      for (const QByteArray &line : child->out.split('\n')) {
        if (!line.isEmpty()) printed.insert(line.toInt());
      }
    }
    constexpr int kTotal = kProcesses * kTrialsEach;
    // Every number once, none skipped, as the processes were told them.
    QCOMPARE(printed.size(), size_t(kTotal));
    QCOMPARE(std::set<int>(printed.begin(), printed.end()).size(), size_t(kTotal));
    QCOMPARE(*printed.begin(), 0);
    QCOMPARE(*printed.rbegin(), kTotal - 1);

    // And as the file has them: one study, every trial COMPLETE with its own value.
    auto store = Store::open(m_path);
    const auto studies = store->listStudies();
    QCOMPARE(studies.size(), size_t(1));
    const auto trials = store->trials(studies[0].id);
    QCOMPARE(trials.size(), size_t(kTotal));
    std::set<std::pair<int, int>> done;
    for (int i = 0; i < kTotal; ++i) {
      const auto &trial = trials[size_t(i)];
      QCOMPARE(trial.number, i);
      QCOMPARE(trial.state, std::string("COMPLETE"));
      const int worker = std::stoi(trial.params.at("worker"));
      const int index = std::stoi(trial.params.at("index"));
      QCOMPARE(trial.values, std::vector<double>{trialValue(worker, index)});
      QCOMPARE(trial.intermediate, (std::map<int64_t, double>{{0, trialValue(worker, index) / 2}}));
      done.insert({worker, index});
    }
    QCOMPARE(done.size(), size_t(kTotal));  // each process's each trial, none lost
  }

  void twoWritersOnDifferentRuns() {
    constexpr int64_t kN = 20000;
    auto store = Store::open(m_path);
    const int64_t first = createRun(*store);
    const int64_t second = createRun(*store);

    Child a, b;
    a.start(childArguments("--writer", m_path, first, kN));
    b.start(childArguments("--writer", m_path, second, kN));
    QVERIFY(a.finish(120000));
    QVERIFY(b.finish(120000));
    for (Child *child : {&a, &b}) {
      QVERIFY2(child->succeeded(), child->all().constData());
      QVERIFY2(!child->all().contains("database is locked"), child->all().constData());
    }
    for (int64_t runId : {first, second}) {
      auto points = store->metricPoints(runId, kKey);
      QCOMPARE(points.size(), size_t(kN));
      for (int64_t step = 0; step < kN; ++step) {
        const auto &point = points[size_t(step)];
        if (point.step != step || point.value != valueAt(step))
          QFAIL(qPrintable(QString("run %1 wrong at step %2").arg(runId).arg(step)));
      }
      QCOMPARE(store->latestMetrics(runId).at(0).step, kN - 1);
    }
  }
};

int main(int argc, char **argv) {
  if (argc == 3 && std::string(argv[1]) == "--open") return openerMain(argv[2]);
  if (argc == 6 && std::string(argv[1]) == "--trials")
    return trialsMain(argv[2], std::stoi(argv[3]), std::stoi(argv[4]), argv[5]);
  if (argc == 5) {
    const std::string mode = argv[1];
    if (mode == "--writer" || mode == "--reader") {
      const int64_t runId = std::stoll(argv[3]);
      const int64_t n = std::stoll(argv[4]);
      return mode == "--writer" ? writerMain(argv[2], runId, n) : readerMain(argv[2], runId, n);
    }
  }
  QCoreApplication app(argc, argv);
  TestTrackingConcurrency test;
  return QTest::qExec(&test, argc, argv);
}

#include "test_tracking_concurrency.moc"
