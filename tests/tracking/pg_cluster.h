#pragma once
// A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a folder under /tmp, the
// server on a Unix socket in that folder (no TCP port, no root needed; as root the server runs
// as the `postgres` user), a fresh database per test. Stopped and removed when the process
// ends; a cluster left behind by a killed process is removed by the next one that starts.
//
//   auto *cluster = tw_test::PgCluster::shared();
//   if (!cluster) QSKIP(qPrintable(tw_test::PgCluster::unavailable()));
//   std::string url = cluster->createDatabase();   // postgresql:///tw_1?host=/tmp/...&user=tw

#include "tracking/sql.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStringList>

#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>

namespace tw_test {

class PgCluster {
 public:
  // A login with a password (scram-sha-256), for the tests of refused credentials.
  static constexpr const char *kPasswordUser = "tw_login";
  static constexpr const char *kPassword = "right-password";

  // The process's cluster, started on first use; nullptr when PostgreSQL is not installed or
  // would not start (unavailable() says why). `durable`: fsync as a real server does (the
  // benchmarks); tests run without it.
  static PgCluster *shared(bool durable = false) {
    static std::unique_ptr<PgCluster> cluster = start(durable);
    return cluster.get();
  }
  static QString unavailable() { return reason(); }

  ~PgCluster() {
    run(pgCtl(), {"-D", m_dir + "/data", "-m", "immediate", "-w", "stop"});
    QDir(m_dir).removeRecursively();
  }

  QString socketDir() const { return m_dir; }
  // The server goes away (a fast shutdown: sessions are ended) and comes back on the same socket,
  // as a restarted or failed-over database server does.
  bool stopServer() { return run(pgCtl(), {"-D", m_dir + "/data", "-m", "fast", "-w", "stop"}); }
  bool startServer() {
    m_superuser.reset();  // its session ended with the server
    return run(pgCtl(), {"-D", m_dir + "/data", "-l", m_dir + "/server.log", "-w", "-t", "60", "-o", m_options, "start"});
  }
  // A URL for `database` as `user` (the superuser `tw` unless told), password included when given.
  std::string url(const std::string &database, const std::string &user = "tw", const std::string &password = {}) const {
    const std::string login = password.empty() ? std::string() : user + ":" + password + "@";
    return "postgresql://" + login + "/" + database + "?host=" + m_dir.toStdString() +
           (password.empty() ? "&user=" + user : std::string());
  }
  // A new, empty database; its URL.
  std::string createDatabase() {
    const std::string name = "tw_" + std::to_string(++m_databases);
    superuser()->exec("CREATE DATABASE " + name, "creating test database " + name);
    return url(name);
  }
  // Statements as the superuser on the `postgres` database (roles, databases).
  tw::tracking::sql::Connection *superuser() {
    if (!m_superuser) m_superuser = tw::tracking::sql::openPostgres(url("postgres"), "the test cluster");
    return m_superuser.get();
  }

 private:
  static QString &reason() {
    static QString text;
    return text;
  }

  static QString binDir() {
    QStringList versions = QDir("/usr/lib/postgresql").entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    std::sort(versions.begin(), versions.end(), [](const QString &a, const QString &b) { return a.toInt() > b.toInt(); });
    for (const QString &version : versions) {
      const QString bin = "/usr/lib/postgresql/" + version + "/bin";
      if (QFile::exists(bin + "/initdb") && QFile::exists(bin + "/pg_ctl")) return bin;
    }
    return {};
  }
  QString pgCtl() const { return m_bin + "/pg_ctl"; }

  // Runs a server program, as `postgres` when this process is root (initdb refuses root).
  bool run(const QString &program, const QStringList &args, QString *output = nullptr) const {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    if (::geteuid() == 0)
      process.start("runuser", QStringList{"-u", "postgres", "--", program} + args);
    else
      process.start(program, args);
    const bool ok = process.waitForFinished(60000) && process.exitStatus() == QProcess::NormalExit &&
                    process.exitCode() == 0;
    if (output) *output = QString::fromLocal8Bit(process.readAll());
    return ok;
  }

  // Clusters of processes that no longer exist: stop their servers and remove them.
  void removeAbandoned() const {
    const QStringList folders = QDir("/tmp").entryList({"tw-pg-*"}, QDir::Dirs);
    for (const QString &folder : folders) {
      const QStringList parts = folder.split('-');
      const pid_t owner = parts.size() >= 4 ? pid_t(parts[2].toLongLong()) : 0;
      if (owner <= 0 || owner == ::getpid() || ::kill(owner, 0) == 0) continue;
      const QString dir = "/tmp/" + folder;
      run(pgCtl(), {"-D", dir + "/data", "-m", "immediate", "-w", "stop"});
      QDir(dir).removeRecursively();
    }
  }

  static std::unique_ptr<PgCluster> start(bool durable) {
    std::unique_ptr<PgCluster> cluster(new PgCluster);
    cluster->m_bin = binDir();
    if (cluster->m_bin.isEmpty()) {
      reason() = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; apt-get install postgresql-15)";
      return nullptr;
    }
    const struct passwd *server = ::geteuid() == 0 ? ::getpwnam("postgres") : nullptr;
    if (::geteuid() == 0 && !server) {
      reason() = "running as root, and there is no 'postgres' user to run the test server as";
      return nullptr;
    }
    cluster->removeAbandoned();
    std::string templ = "/tmp/tw-pg-" + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(templ.data())) {
      reason() = "cannot create a folder for the test cluster under /tmp";
      return nullptr;
    }
    cluster->m_dir = QString::fromStdString(templ);
    if (server && ::chown(templ.c_str(), server->pw_uid, server->pw_gid) != 0) {
      reason() = "cannot give " + cluster->m_dir + " to the postgres user";
      return nullptr;
    }
    QString output;
    const QString data = cluster->m_dir + "/data";
    if (!cluster->run(cluster->m_bin + "/initdb",
                      {"-D", data, "-U", "tw", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "--no-instructions"},
                      &output)) {
      reason() = "initdb failed: " + output;
      return nullptr;
    }
    // The password login first: pg_hba.conf takes the first line that matches.
    QFile hba(data + "/pg_hba.conf");
    if (!hba.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        hba.write(QByteArray("local all ") + kPasswordUser + " scram-sha-256\nlocal all all trust\n") < 0) {
      reason() = "cannot write " + hba.fileName();
      return nullptr;
    }
    hba.close();
    cluster->m_options = "-k " + cluster->m_dir + " -c listen_addresses='' -p 5432" +
                          (durable ? QString() : QString(" -c fsync=off -c synchronous_commit=off -c full_page_writes=off"));
    if (!cluster->run(cluster->pgCtl(),
                      {"-D", data, "-l", cluster->m_dir + "/server.log", "-w", "-t", "60", "-o", cluster->m_options, "start"},
                      &output)) {
      QFile log(cluster->m_dir + "/server.log");
      log.open(QIODevice::ReadOnly);
      reason() = "the test server did not start: " + output + QString::fromLocal8Bit(log.readAll());
      return nullptr;
    }
    cluster->superuser()->exec(std::string("CREATE ROLE ") + kPasswordUser + " LOGIN PASSWORD '" + kPassword + "'",
                               "creating the password login");
    return cluster;
  }

  PgCluster() = default;
  QString m_bin;
  QString m_dir;
  QString m_options;  // the server's command-line settings
  int m_databases = 0;
  std::unique_ptr<tw::tracking::sql::Connection> m_superuser;
};

}  // namespace tw_test
