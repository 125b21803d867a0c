// Studio keeps following the workspace's database after something in its own process closed a
// descriptor of the file. fcntl locks belong to the process, so that close drops every lock
// SQLite holds; a training process closing the database then deletes the WAL it believes no one
// else reads, and Studio went on reading the orphan, still saying "Live" (issue 22). The Open
// Workspace dialog was such a close (Qt sniffs file types); the poller's reopen covers any other.

#include "studio_fixture.h"

#include "ui/main_window.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/workspace_session.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileSystemModel>
#include <QLabel>
#include <QProcess>
#include <QTableView>
#include <QTimer>
#include <QtTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

using tw::ui::DbState;
using tw::ui::RunsTableModel;

namespace {

const char *kRunFile = R"(model:
  name: blobs_mlp
  nodes:
    - {id: x, op: Input, shape: [2]}
    - {id: hidden, op: Linear, out_features: 8}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 3}
data: {dataset: blobs, samples: 300, classes: 3, batch_size: 32}
train: {optimizer: adam, lr: 0.01, epochs: 2, seed: 5, threads: 1}
tracking: {experiment: studio, run_name: from-another-process}
)";

// Another process that opens, writes and closes the database, as `torchwright train
// --workspace` does beside Studio.
bool trainInAnotherProcess(const tw::test::Workspace &ws, QString *said) {
  return tw::test::trainWithCli(ws, kRunFile, QStringLiteral("blobs.run.yaml"), said);
}

// Whether this process holds a POSIX lock on the file (the kernel's own list).
bool holdsLockOn(const QString &path) {
  struct stat info {};
  if (::stat(QFile::encodeName(path).constData(), &info) != 0) return false;
  QFile locks(QStringLiteral("/proc/locks"));
  if (!locks.open(QIODevice::ReadOnly)) return false;
  const QByteArray pid = QByteArray::number(static_cast<qint64>(::getpid()));
  const QByteArray inode = ":" + QByteArray::number(static_cast<qulonglong>(info.st_ino));
  for (const QByteArray &line : locks.readAll().split('\n')) {
    const QList<QByteArray> fields = line.simplified().split(' ');
    // "1: POSIX  ADVISORY  READ 1234 fd:01:5678 128 128"
    if (fields.size() >= 6 && fields[1] == "POSIX" && fields[4] == pid && fields[5].endsWith(inode)) return true;
  }
  return false;
}

QString finishedRunStatus(QTableView *table) {
  const int row = tw::test::rowWithText(table->model(), RunsTableModel::Name, QStringLiteral("from-another-process"));
  return row < 0 ? QString() : table->model()->index(row, RunsTableModel::Status).data().toString();
}

bool isLive(tw::ui::MainWindow &window) {
  auto *state = window.findChild<QLabel *>(QStringLiteral("databaseState"));
  return state && state->text().contains(QStringLiteral("Live"));
}

}  // namespace

class TestStudioStale : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_settingsDir.isValid());
    tw::test::isolateSettings(m_settingsDir.path());
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
  }

  // The exact sequence of the report: Open Workspace, Escape, then a run trained by another
  // process must appear and finish in the runs table.
  void runAppearsAfterOpenWorkspaceCancelled() {
    tw::test::Workspace ws;
    ws.store.reset();  // only Studio's connections in this process
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_VERIFY(isLive(window));
    const QString dbPath = QString::fromStdString(ws.dbPath());
    QVERIFY(holdsLockOn(dbPath));

    auto *open = window.findChild<QAction *>(QStringLiteral("openWorkspaceAction"));
    QVERIFY(open);
    bool listed = false, sawDialog = false;
    QTimer driver;
    driver.setInterval(20);
    connect(&driver, &QTimer::timeout, [&] {
      auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
      if (!dialog) return;
      sawDialog = true;
      // Cancelled only once it has listed the workspace folder (tracking.db among its files):
      // the moment Qt's dialog used to read the file to guess its type.
      auto *model = dialog->findChild<QFileSystemModel *>();
      if (!model) return;
      const QModelIndex folder = model->index(ws.dir);
      if (!folder.isValid() || model->rowCount(folder) == 0) return;
      listed = true;
      QTest::keyClick(dialog, Qt::Key_Escape);
    });
    driver.start();
    open->trigger();  // returns once the dialog was cancelled
    driver.stop();
    QVERIFY(sawDialog);
    QVERIFY(listed);
    QCoreApplication::processEvents();
    QVERIFY2(holdsLockOn(dbPath), "the dialog closed a descriptor of tracking.db and dropped SQLite's locks");

    QString said;
    QVERIFY2(trainInAnotherProcess(ws, &said), qPrintable(said));
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QTRY_COMPARE_WITH_TIMEOUT(finishedRunStatus(table), QStringLiteral("Finished"), 30000);
    QVERIFY(isLive(window));
  }

  // Whatever else in the process drops the locks (here a plain open and close of the file), the
  // poller sees the WAL it reads deleted under it, reopens, says so, and the run appears.
  void pollerReopensWhenFilesAreReplaced() {
    tw::test::Workspace ws;
    ws.store.reset();
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(ws.dir));
    QTRY_VERIFY(isLive(window));
    auto *session = window.findChild<tw::ui::WorkspaceSession *>();
    QVERIFY(session);
    QSignalSpy reopened(session, &tw::ui::WorkspaceSession::reopened);

    const QString dbPath = QString::fromStdString(ws.dbPath());
    {
      QFile file(dbPath);
      QVERIFY(file.open(QIODevice::ReadOnly));
    }
    QVERIFY(!holdsLockOn(dbPath));  // the situation this slot is about

    QString said;
    QVERIFY2(trainInAnotherProcess(ws, &said), qPrintable(said));
    QTRY_VERIFY_WITH_TIMEOUT(!reopened.isEmpty(), 15000);
    QVERIFY(reopened.constFirst().constFirst().toString().contains(QStringLiteral("write-ahead log")));
    auto *table = window.findChild<QTableView *>(QStringLiteral("runsTable"));
    QTRY_COMPARE_WITH_TIMEOUT(finishedRunStatus(table), QStringLiteral("Finished"), 30000);
    QTRY_VERIFY(isLive(window));
    QVERIFY(holdsLockOn(dbPath));  // the reopened connection holds its locks again
  }

  // A poll that cannot finish (here waiting on another connection's write lock) turns Live into
  // a warning with the reason, and back to Live once the poll goes through.
  void stalledPollIsShown() {
    tw::test::Workspace ws;
    sqlite3 *blocker = nullptr;
    QCOMPARE(sqlite3_open(ws.dbPath().c_str(), &blocker), SQLITE_OK);
    QCOMPARE(sqlite3_exec(blocker, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);

    tw::ui::DbPollerOptions options;
    options.intervalMs = 100;
    options.stallMs = 600;
    tw::ui::WorkspaceSession session(nullptr, options);
    QSignalSpy states(&session, &tw::ui::WorkspaceSession::databaseStateChanged);
    QString error;
    QVERIFY2(session.open(ws.dir, &error), qPrintable(error));
    // The first poll marks silent runs failed, which needs the write lock the blocker holds.
    QTRY_VERIFY_WITH_TIMEOUT(!states.isEmpty() && states.constLast().at(0).value<DbState>() == DbState::Stalled, 5000);
    QVERIFY(states.constLast().at(1).toString().contains(QStringLiteral("No update")));

    QCOMPARE(sqlite3_exec(blocker, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
    QTRY_VERIFY_WITH_TIMEOUT(states.constLast().at(0).value<DbState>() == DbState::Ok, 15000);
    sqlite3_close(blocker);
    session.close();
  }

 private:
  QTemporaryDir m_settingsDir;
};

QTEST_MAIN(TestStudioStale)
#include "test_studio_stale.moc"
