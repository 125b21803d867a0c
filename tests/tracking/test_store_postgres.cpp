// What only a server store has: logins, passwords from the three places libpq reads them, a
// server that is down, and URLs that must never show their password.
#include "tests/tracking/pg_cluster.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"
#include "tracking/store_location.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>

using tw::tracking::Store;
using tw::tracking::StoreLocation;
using tw::tracking::TrackingError;
using tw_test::PgCluster;

namespace {

// The message of what `open` throws, or empty when it opened.
std::string openError(const std::string &location) {
  try {
    Store::open(location);
  } catch (const TrackingError &e) {
    return e.what();
  }
  return {};
}

// The message of what `parse` throws, or empty when it parsed.
std::string parseError(const std::string &text) {
  try {
    StoreLocation::parse(text);
  } catch (const TrackingError &e) {
    return e.what();
  }
  return {};
}

}  // namespace

class TestStorePostgres : public QObject {
  Q_OBJECT

  PgCluster *cluster() {
    PgCluster *shared = PgCluster::shared();
    if (!shared) qWarning("%s", qPrintable(PgCluster::unavailable()));
    return shared;
  }

 private Q_SLOTS:
  void locationsAreParsed_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("sqlite");
    QTest::addColumn<QString>("target");
    QTest::newRow("plain path") << "/w/tracking.db" << true << "/w/tracking.db";
    QTest::newRow("sqlite URL") << "sqlite:///w/tracking.db" << true << "/w/tracking.db";
    QTest::newRow("postgresql") << "postgresql://tw@db:5432/runs" << false << "postgresql://tw@db:5432/runs";
    QTest::newRow("postgres") << "postgres:///runs?host=/tmp" << false << "postgres:///runs?host=/tmp";
  }
  void locationsAreParsed() {
    QFETCH(QString, text);
    QFETCH(bool, sqlite);
    QFETCH(QString, target);
    const auto location = StoreLocation::parse(text.toStdString());
    QCOMPARE(location.isSqlite(), sqlite);
    QCOMPARE(QString::fromStdString(location.target()), target);
  }

  void passwordsAreNeverShown_data() {
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("shown");
    QTest::newRow("user part") << "postgresql://tw:s3cret@db/runs" << "postgresql://tw:***@db/runs";
    QTest::newRow("parameter") << "postgresql://db/runs?user=tw&password=s3cret&sslmode=require"
                               << "postgresql://db/runs?user=tw&password=***&sslmode=require";
    QTest::newRow("none") << "postgresql://tw@db/runs" << "postgresql://tw@db/runs";
  }
  void passwordsAreNeverShown() {
    QFETCH(QString, url);
    QFETCH(QString, shown);
    const auto location = StoreLocation::parse(url.toStdString());
    QCOMPARE(QString::fromStdString(location.shown()), shown);
    QCOMPARE(location.hasPassword(), url.contains("s3cret"));
  }

  void keywordStringIsRefusedWithoutItsPassword() {
    const std::string what = parseError("host=db dbname=runs password=s3cret");
    QVERIFY2(what.find("postgresql://user@host:port/database") != std::string::npos, what.c_str());
    QVERIFY2(what.find("s3cret") == std::string::npos, what.c_str());
  }

  void unknownSchemeIsRefusedWithoutItsPassword() {
    const std::string what = parseError("mysql://tw:s3cret@db/runs");
    QVERIFY2(what.find("'mysql'") != std::string::npos, what.c_str());
    QVERIFY2(what.find("postgresql://") != std::string::npos, what.c_str());
    QVERIFY2(what.find("s3cret") == std::string::npos, what.c_str());
  }

  void wrongPasswordIsRefusedAtOnceAndNotPrinted() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    const std::string url = pg->url("postgres", PgCluster::kPasswordUser, "wrong-s3cret");
    QElapsedTimer timer;
    timer.start();
    const std::string what = openError(url);
    QVERIFY2(what.find("password authentication failed") != std::string::npos, what.c_str());
    QVERIFY2(what.find("wrong-s3cret") == std::string::npos, what.c_str());
    QVERIFY2(what.find(":***@") != std::string::npos, what.c_str());
    // A refused login is final: no retries with backoff (they would take over 3 s).
    QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
  }

  void passwordFromTheUrlThePasswordFileOrTheEnvironment() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    pg->superuser()->exec("CREATE DATABASE logins OWNER " + std::string(PgCluster::kPasswordUser), "test");
    // In the URL.
    Store::open(pg->url("logins", PgCluster::kPasswordUser, PgCluster::kPassword))->createRun({});
    const std::string noPassword =
        "postgresql:///logins?host=" + pg->socketDir().toStdString() + "&user=" + PgCluster::kPasswordUser;
    QVERIFY(!openError(noPassword).empty());
    // From PGPASSWORD.
    qputenv("PGPASSWORD", PgCluster::kPassword);
    QCOMPARE(openError(noPassword), std::string());
    qunsetenv("PGPASSWORD");
    // From a password file (libpq's ~/.pgpass format, named by PGPASSFILE; 0600 or libpq ignores it).
    QTemporaryDir dir;
    QFile passfile(dir.filePath("pgpass"));
    QVERIFY(passfile.open(QIODevice::WriteOnly));
    passfile.write(QByteArray("*:*:logins:") + PgCluster::kPasswordUser + ":" + PgCluster::kPassword + "\n");
    passfile.close();
    QVERIFY(passfile.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    qputenv("PGPASSFILE", passfile.fileName().toLocal8Bit());
    auto store = Store::open(noPassword);
    QCOMPARE(store->listRuns().size(), size_t(1));
    qunsetenv("PGPASSFILE");
  }

  void serverThatIsDownIsRetriedThenNamed() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    // A socket folder with no server in it: connection refused, as for a server that is down.
    QTemporaryDir empty;
    const std::string url = "postgresql://tw:s3cret@/runs?host=" + empty.path().toStdString();
    QElapsedTimer timer;
    timer.start();
    const std::string what = openError(url);
    QVERIFY2(what.find("connecting to the tracking store postgresql://tw:***@/runs") != std::string::npos, what.c_str());
    QVERIFY2(what.find("after 5 attempts") != std::string::npos, what.c_str());
    QVERIFY2(what.find("s3cret") == std::string::npos, what.c_str());
    // 0.25 + 0.5 + 1 + 2 s of backoff between the five attempts.
    QVERIFY2(timer.elapsed() >= 3700, qPrintable(QString::number(timer.elapsed())));
  }

  void missingDatabaseIsNamed() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    const std::string what = openError(pg->url("no_such_database"));
    QVERIFY2(what.find("\"no_such_database\" does not exist") != std::string::npos, what.c_str());
    QVERIFY2(what.find("after") == std::string::npos, what.c_str());  // not retried
    // A URL libpq cannot read is not retried either.
    const std::string bad = openError("postgresql:///runs?host=" + pg->socketDir().toStdString() + "&colour=blue");
    QVERIFY2(bad.find("invalid URI query parameter") != std::string::npos, bad.c_str());
    QVERIFY2(bad.find("after") == std::string::npos, bad.c_str());
  }

  void metricsLoggedWhileTheServerIsAwayArriveOnce() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    const std::string url = pg->createDatabase();
    const auto run = Store::open(url)->createRun({});
    tw::tracking::MetricWriterOptions options;
    options.flushIntervalMs = 50;
    options.maxRetryDelayMs = 400;
    {
      tw::tracking::MetricWriter writer(url, run.id, options);
      for (int step = 0; step < 100; ++step) writer.log("loss", step, step);
      writer.flush();
      QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
      QVERIFY(pg->stopServer());
      // Steps 50-99 again (a resumed run logs them once more) and new ones, all while it is away.
      for (int step = 50; step < 300; ++step) writer.log("loss", step, step + 0.5);
      writer.flush();  // returns on the first failure
      QVERIFY(!writer.lastError().empty());
      QVERIFY(pg->startServer());
      writer.flush();  // now everything is written
      QVERIFY2(writer.lastError().empty(), writer.lastError().c_str());
    }
    auto store = Store::open(url);
    const auto points = store->metricPoints(run.id, "loss");
    QCOMPARE(points.size(), size_t(300));
    for (int step = 0; step < 300; ++step) {
      QCOMPARE(points[size_t(step)].step, int64_t(step));
      QCOMPARE(points[size_t(step)].value, step < 50 ? double(step) : step + 0.5);  // the later value won
    }
  }

  void storesSurviveAServerRestart() {
    auto *pg = cluster();
    if (!pg) QSKIP(qPrintable(PgCluster::unavailable()));
    const std::string url = pg->createDatabase();
    auto store = Store::open(url);
    const auto run = store->createRun({});
    // Every other session ends, as a server restart or a failover ends them.
    pg->superuser()->exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" +
                              url.substr(url.find("///") + 3, url.find('?') - url.find("///") - 3) + "'",
                          "test");
    // The first call after it hears that the connection broke; the next connects again.
    try {
      store->setTag(run.id, "k", "v");
    } catch (const TrackingError &) {
    }
    store->setTag(run.id, "k", "v");
    QCOMPARE(store->tags(run.id).at("k"), std::string("v"));
  }
};

QTEST_GUILESS_MAIN(TestStorePostgres)
#include "test_store_postgres.moc"
