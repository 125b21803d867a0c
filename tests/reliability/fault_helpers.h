#pragma once
// What the fault-injection tests share: the training worker a launcher started, the database's
// own integrity verdict, a small file system that can be filled to the last byte, a run file
// for a tiny real run, and the CLI run to its end.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QString>

#include <fcntl.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace tw::faults {

#ifdef TW_BIN_DIR
inline const QString kCli = QStringLiteral(TW_BIN_DIR "/torchwright");

struct CliOutcome {
  int exitCode = -1;  // -1 when it did not exit normally
  QString output;     // stdout, then stderr
};

// `torchwright ARGS` to its end (three minutes at most).
inline CliOutcome runCli(const QStringList &arguments) {
  QProcess process;
  process.start(kCli, arguments);
  process.waitForFinished(180000);
  return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
          QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError())};
}
#endif

// A small MLP on a Fashion-MNIST slice: dropout draws from the global generator and Adam keeps
// state, so a resume that lost either would show. 1,800 training images in batches of 20:
// 90 steps an epoch, a checkpoint every 2.
inline QByteArray tinyRunFile(int epochs) {
  return QStringLiteral("model:\n"
                        "  name: tiny_mlp\n"
                        "  nodes:\n"
                        "    - {id: image, op: Input, shape: [1, 28, 28]}\n"
                        "    - {id: flat, op: Flatten}\n"
                        "    - {id: hidden, op: Linear, out_features: 256}\n"
                        "    - {id: act, op: ReLU}\n"
                        "    - {id: drop, op: Dropout, p: 0.1}\n"
                        "    - {id: logits, op: Linear, out_features: 10}\n"
                        "data: {dataset: fashion-mnist, train_limit: 2000, test_limit: 200, batch_size: 20}\n"
                        "train: {optimizer: adam, lr: 0.002, epochs: %1, seed: 23, threads: 1, checkpoint_every: 2}\n"
                        "tracking: {experiment: faults}\n")
      .arg(epochs)
      .toUtf8();
}

// The launcher's one child: the training worker; 0 when there is none.
inline pid_t workerOf(qint64 launcher) {
  const QStringList entries = QDir("/proc").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
  for (const QString &entry : entries) {
    bool numeric = false;
    const int pid = entry.toInt(&numeric);
    if (!numeric) continue;
    QFile stat("/proc/" + entry + "/stat");
    if (!stat.open(QIODevice::ReadOnly)) continue;
    const QByteArray text = stat.readAll();
    const int close = text.lastIndexOf(')');  // the command name may hold spaces
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    if (fields.size() > 1 && fields[1].toLongLong() == launcher && text.contains("(torchwright-wor")) return pid;
  }
  return 0;
}

// PRAGMA integrity_check's answer ("ok" when the file is sound), read-only.
inline std::string integrity(const QString &path) {
  sqlite3 *db = nullptr;
  std::string result = "cannot open";
  if (sqlite3_open_v2(path.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt *stmt = nullptr;
    result = "no answer";
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      result = reinterpret_cast<const char *>(sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return result;
}

// A tmpfs of `bytes` mounted at `folder` (created) for as long as this lives. Mounting needs
// root, or a user namespace that maps us to root (the test re-runs itself under
// `unshare --user --map-root-user --mount` when it is not root; see its main()).
class SmallDisk {
 public:
  SmallDisk(const QString &folder, qint64 bytes) : m_folder(folder) {
    QDir().mkpath(folder);
    const QByteArray options = "size=" + QByteArray::number(bytes) + ",mode=0700";
    if (::mount("tmpfs", QFile::encodeName(folder).constData(), "tmpfs", 0, options.constData()) == 0)
      m_mounted = true;
    else
      m_error = QString::fromLocal8Bit(std::strerror(errno));
  }
  ~SmallDisk() {
    if (m_mounted) ::umount2(QFile::encodeName(m_folder).constData(), MNT_DETACH);
  }
  bool mounted() const { return m_mounted; }
  QString error() const { return m_error; }
  // Writes a file until the file system refuses another byte; returns the bytes written.
  qint64 fill(const QString &name = QStringLiteral("filler")) const {
    const int fd = ::open(QFile::encodeName(m_folder + "/" + name).constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return 0;
    qint64 written = 0;
    for (const size_t chunk : {size_t(1) << 20, size_t(4096), size_t(1)}) {
      const std::string bytes(chunk, 'x');
      ssize_t n = 0;
      while ((n = ::write(fd, bytes.data(), bytes.size())) > 0) written += n;
    }
    ::close(fd);
    return written;
  }
  void unfill(const QString &name = QStringLiteral("filler")) const { QFile::remove(m_folder + "/" + name); }

 private:
  QString m_folder;
  bool m_mounted = false;
  QString m_error;
};

}  // namespace tw::faults
