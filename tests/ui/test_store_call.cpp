// Studio's one helper for store calls off the UI thread (ui/common/store_call.h): a newer call
// supersedes an older one, cancel() drops a result, failures arrive with their message, Every
// delivers every call, and a page deleted mid-call is no crash.
#include "tracking/store.h"
#include "ui/common/store_call.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QThreadPool>
#include <QtTest>

#include <fstream>

using tw::tracking::Store;
using tw::ui::StoreCall;

namespace {

// Waits for every call on the pool, then for their deliveries on this thread: after it, a result
// that has not arrived never will.
void settle() {
  QThreadPool::globalInstance()->waitForDone();
  QCoreApplication::processEvents();
  QCoreApplication::sendPostedEvents();
  QCoreApplication::processEvents();
}

int64_t runCount(Store &store, int sleepMs) {
  QThread::msleep(sleepMs);
  return int64_t(store.listRuns().size());
}

}  // namespace

class TestStoreCall : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString m_db;

 private Q_SLOTS:
  void initTestCase() {
    m_db = m_dir.filePath("tracking.db");
    auto store = Store::open(m_db.toStdString());
    store->createRun({});
    store->createRun({});
  }

  void newerCallSupersedesTheOlder() {
    StoreCall call;
    QSignalSpy busy(&call, &StoreCall::busyChanged);
    QStringList delivered;
    call.run<int64_t>(m_db, [](Store &s) { return runCount(s, 300); }, [&](int64_t n) { delivered << "old" + QString::number(n); });
    QVERIFY(call.busy());
    call.run<int64_t>(m_db, [](Store &s) { return runCount(s, 0); }, [&](int64_t n) { delivered << "new" + QString::number(n); });
    QTRY_COMPARE(delivered, QStringList{"new2"});
    QVERIFY(!call.busy());
    settle();
    QCOMPARE(delivered, QStringList{"new2"});  // the older result, finished later, was dropped
    QCOMPARE(busy.count(), 2);                  // loading once, done once: not per call
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
  }

  void cancelDropsTheResultAndEndsLoading() {
    StoreCall call;
    bool delivered = false;
    call.run<int64_t>(m_db, [](Store &s) { return runCount(s, 200); }, [&](int64_t) { delivered = true; });
    QVERIFY(call.busy());
    call.cancel();
    QVERIFY(!call.busy());
    settle();
    QVERIFY(!delivered);
  }

  void failureArrivesWithItsMessage() {
    QTemporaryDir dir;
    const QString notADatabase = dir.filePath("tracking.db");
    std::ofstream(notADatabase.toStdString()) << "this is not an SQLite file, just some text that is long enough";
    StoreCall call;
    QString error;
    bool done = false;
    call.run<int64_t>(notADatabase, [](Store &s) { return runCount(s, 0); }, [&](int64_t) { done = true; },
                      [&](const QString &message) { error = message; });
    QTRY_VERIFY(!error.isEmpty());
    QVERIFY2(error.contains("file is not a database"), qPrintable(error));
    QVERIFY(!done);
    QVERIFY(!call.busy());
  }

  void everyDeliversEachCall() {
    StoreCall call(nullptr, StoreCall::Delivery::Every);
    int delivered = 0;
    for (int i = 0; i < 3; ++i)
      call.run<int64_t>(m_db, [](Store &s) { return runCount(s, 50); }, [&](int64_t) { ++delivered; });
    QVERIFY(call.busy());
    QTRY_COMPARE(delivered, 3);
    QVERIFY(!call.busy());
  }

  void deletedMidCallIsNoCrash() {
    auto *call = new StoreCall;
    bool delivered = false;
    call->run<int64_t>(m_db, [](Store &s) { return runCount(s, 200); }, [&](int64_t) { delivered = true; });
    delete call;
    settle();
    QVERIFY(!delivered);
  }
};

QTEST_MAIN(TestStoreCall)
#include "test_store_call.moc"
