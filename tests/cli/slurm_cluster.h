#pragma once
// A throwaway one-node SLURM cluster for tests: munged, slurmctld and slurmd started by the test
// as the current user, from a generated slurm.conf in a folder under /tmp (its own munge key and
// socket, state and spool folders, two free TCP ports on 127.0.0.1). The node is this machine as
// `slurmd -C` describes it, in one partition `debug`. Clients reach it through SLURM_CONF, which
// environment() sets. Stopped and removed when the process ends; a cluster left behind by a
// killed process is stopped and removed by the next one that starts.
//
//   auto *cluster = tw_test::SlurmCluster::shared();
//   if (!cluster && !tw_test::SlurmCluster::installed()) QSKIP(qPrintable(tw_test::SlurmCluster::unavailable()));
//   QVERIFY2(cluster, qPrintable(tw_test::SlurmCluster::unavailable()));
//   runCli({"sweep", file}, 300000, cluster->environment());

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>

namespace tw_test {

class SlurmCluster {
 public:
  static SlurmCluster *shared() {
    static std::unique_ptr<SlurmCluster> cluster = start();
    return cluster.get();
  }
  static QString unavailable() { return reason(); }
  // Installed but not started is a failure, not a skip.
  static bool installed() {
    return !daemon("munged").isEmpty() && !daemon("slurmctld").isEmpty() && !daemon("slurmd").isEmpty() &&
           !QStandardPaths::findExecutable("sbatch").isEmpty();
  }

  ~SlurmCluster() { stop(m_dir); }

  QString conf() const { return m_dir + "/slurm.conf"; }
  QProcessEnvironment environment() const {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SLURM_CONF", conf());
    return env;
  }

  // A SLURM client command against this cluster; its standard output, or "" when it failed (the
  // reason in `error`).
  QString command(const QString &program, const QStringList &arguments, QString *error = nullptr) const {
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(program, arguments);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
      if (error) *error = QString::fromUtf8(p.readAllStandardError());
      return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput());
  }

  // A field of `scontrol show job --oneliner ID` ("JobState", "Restarts", ...); "" when unknown.
  QString jobField(const QString &jobId, const QString &field) const {
    const QString line = command("scontrol", {"show", "job", "--oneliner", jobId});
    const auto match = QRegularExpression("(?:^| )" + QRegularExpression::escape(field) + "=(\\S*)").match(line);
    return match.hasMatch() ? match.captured(1) : QString();
  }

  // The ids of every job the controller knows (finished ones stay for MinJobAge, 300 s).
  QStringList jobIds() const {
    QStringList ids;
    const QString all = command("scontrol", {"show", "jobs", "--oneliner"});
    for (const auto &line : all.split('\n', Qt::SkipEmptyParts)) {
      const auto match = QRegularExpression("^JobId=(\\d+)").match(line);
      if (match.hasMatch()) ids << match.captured(1);
    }
    return ids;
  }

 private:
  static QString &reason() {
    static QString text;
    return text;
  }

  static QString daemon(const QString &name) {
    for (const QString &dir : {QString("/usr/sbin"), QString("/usr/bin"), QString("/sbin")})
      if (QFile::exists(dir + "/" + name)) return dir + "/" + name;
    return QStandardPaths::findExecutable(name);
  }

  // A port nothing listens on now (the kernel's choice for port 0), for a daemon to take.
  static int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) == 0)
      port = ntohs(address.sin_port);
    ::close(fd);
    return port;
  }

  static void killPidFile(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return;
    const pid_t pid = static_cast<pid_t>(f.readAll().trimmed().toLongLong());
    if (pid > 1) ::kill(pid, SIGKILL);
  }

  // Every daemon of the cluster in `dir`, then the folder. slurmd's jobs (slurmstepd) go with
  // their own processes, which the cluster started and which a SIGKILL of slurmd leaves: the
  // scheduler's own shutdown ends them first.
  static void stop(const QString &dir) {
    QProcess shutdown;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("SLURM_CONF", dir + "/slurm.conf");
    shutdown.setProcessEnvironment(env);
    shutdown.start("scancel", {"--user", QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name)});
    shutdown.waitForFinished(10000);
    for (int i = 0; i < 50 && !QDir(dir + "/spool").entryList({"job*"}, QDir::Dirs).isEmpty(); ++i) QThread::msleep(100);
    for (const char *pidFile : {"/slurmd.pid", "/slurmctld.pid", "/munged.pid"}) killPidFile(dir + pidFile);
    QDir(dir).removeRecursively();
  }

  static void removeAbandoned() {
    const QString tmp = QDir::tempPath();
    for (const QString &name : QDir(tmp).entryList({"tw-slurm-*"}, QDir::Dirs)) {
      const pid_t owner = static_cast<pid_t>(name.section('-', 2, 2).toLongLong());
      if (owner > 0 && owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) stop(tmp + "/" + name);
    }
  }

  static bool run(const QString &program, const QStringList &arguments, const QProcessEnvironment &env,
                  QString *output = nullptr) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, arguments);
    const bool ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (output) *output = QString::fromUtf8(p.readAll());
    return ok;
  }

  static QString tail(const QString &path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
    return lines.mid(std::max<qsizetype>(0, lines.size() - 5)).join("\n");
  }

  static std::unique_ptr<SlurmCluster> start() {
    const QString munged = daemon("munged"), slurmctld = daemon("slurmctld"), slurmd = daemon("slurmd");
    if (!installed()) {
      reason() = "SLURM is not installed (slurm-wlm and munge: packaging/install-test-tools.sh installs them)";
      return nullptr;
    }
    removeAbandoned();
    auto cluster = std::unique_ptr<SlurmCluster>(new SlurmCluster);
    const QString dir = QDir::tempPath() + "/tw-slurm-" + QString::number(::getpid()) + "-" +
                        QString::number(QDateTime::currentMSecsSinceEpoch() % 100000);
    QDir().mkpath(dir + "/state");
    QDir().mkpath(dir + "/spool");
    ::chmod(dir.toLocal8Bit().constData(), 0700);
    cluster->m_dir = dir;
    const QProcessEnvironment env = cluster->environment();

    // munge: its own key (read by this user alone, as munged insists) and socket.
    {
      QFile key(dir + "/munge.key");
      QFile random("/dev/urandom");
      if (!key.open(QIODevice::WriteOnly) || !random.open(QIODevice::ReadOnly)) return fail(dir, "cannot write the munge key");
      key.write(random.read(1024));
      key.close();
      ::chmod(key.fileName().toLocal8Bit().constData(), 0400);
    }
    QString out;
    if (!run(munged, {"--force", "--socket=" + dir + "/munge.sock", "--key-file=" + dir + "/munge.key",
                      "--log-file=" + dir + "/munged.log", "--pid-file=" + dir + "/munged.pid",
                      "--seed-file=" + dir + "/munged.seed"},
             env, &out))
      return fail(dir, "munged did not start: " + out + tail(dir + "/munged.log"));

    // The node as slurmd sees this machine.
    if (!run(slurmd, {"-C"}, env, &out)) return fail(dir, "slurmd -C failed: " + out);
    const auto cpus = QRegularExpression("CPUs=(\\d+)").match(out);
    const auto memory = QRegularExpression("RealMemory=(\\d+)").match(out);
    if (!cpus.hasMatch() || !memory.hasMatch()) return fail(dir, "slurmd -C did not describe the node: " + out);
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    const QString hostName = QString::fromLocal8Bit(host).section('.', 0, 0);
    const QString user = QString::fromLocal8Bit(::getpwuid(::getuid())->pw_name);
    const int ctldPort = freePort(), slurmdPort = freePort();
    if (ctldPort == 0 || slurmdPort == 0 || ctldPort == slurmdPort) return fail(dir, "no free TCP port on 127.0.0.1");

    QFile conf(dir + "/slurm.conf");
    if (!conf.open(QIODevice::WriteOnly)) return fail(dir, "cannot write slurm.conf");
    conf.write(QString("ClusterName=tw\n"
                       "SlurmctldHost=%1(127.0.0.1)\n"
                       "SlurmUser=%2\nSlurmdUser=%2\n"
                       "SlurmctldPort=%3\nSlurmdPort=%4\n"
                       "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=%5/munge.sock\n"
                       "StateSaveLocation=%5/state\nSlurmdSpoolDir=%5/spool\n"
                       "SlurmctldPidFile=%5/slurmctld.pid\nSlurmdPidFile=%5/slurmd.pid\n"
                       "SlurmctldLogFile=%5/slurmctld.log\nSlurmdLogFile=%5/slurmd.log\n"
                       "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/affinity\n"
                       "SchedulerType=sched/backfill\nSchedulerParameters=sched_interval=1\n"
                       "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core_Memory\n"
                       "ReturnToService=2\nMpiDefault=none\n"
                       "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
                       "JobCompType=jobcomp/none\nMinJobAge=300\nKillWait=30\n"
                       // A job without --mem takes this much, not the whole node's memory.
                       "DefMemPerCPU=500\n"
                       "NodeName=twnode NodeHostname=%1 NodeAddr=127.0.0.1 CPUs=%6 RealMemory=%7 State=UNKNOWN\n"
                       "PartitionName=debug Nodes=twnode Default=YES MaxTime=INFINITE State=UP\n")
                   .arg(hostName, user)
                   .arg(ctldPort)
                   .arg(slurmdPort)
                   .arg(dir, cpus.captured(1), memory.captured(1))
                   .toUtf8());
    conf.close();
    if (!run(slurmctld, {"-i"}, env, &out)) return fail(dir, "slurmctld did not start: " + out + tail(dir + "/slurmctld.log"));
    if (!run(slurmd, {"-N", "twnode"}, env, &out)) return fail(dir, "slurmd did not start: " + out + tail(dir + "/slurmd.log"));
    // Ready when the node takes jobs.
    for (int i = 0; i < 300; ++i) {
      if (run("sinfo", {"--noheader", "--format=%t"}, env, &out) && out.trimmed() == "idle") return cluster;
      QThread::msleep(100);
    }
    return fail(dir, "the node did not become idle: " + out + "\n" + tail(dir + "/slurmctld.log") + "\n" +
                         tail(dir + "/slurmd.log"));
  }

  static std::unique_ptr<SlurmCluster> fail(const QString &dir, const QString &why) {
    reason() = "the test's SLURM cluster did not start: " + why;
    stop(dir);
    return nullptr;
  }

  QString m_dir;
};

}  // namespace tw_test
