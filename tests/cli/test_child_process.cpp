// The one helper that starts child processes (app/cli/child_process.h), on real children: a
// shell reports from /proc what it was given, while this parent ignores SIGPIPE, blocks SIGTERM
// and holds descriptors it did not hand over.

#include "app/cli/child_process.h"

#include <QtTest>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

namespace {

// Runs `script` under /bin/sh with `spec`'s set-up, its stdout into a pipe; returns what it wrote.
std::string report(tw::cli::ChildSpec spec, const std::string &script, int *exitCode) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return "<pipe failed>";
  spec.executable = "/bin/sh";
  spec.arguments = {"-c", script};
  spec.stdoutFd = out[1];
  const pid_t pid = tw::cli::startChild(spec);
  ::close(out[1]);
  std::string text;
  char buffer[512];
  ssize_t n;
  while ((n = ::read(out[0], buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  ::close(out[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  *exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return text;
}

// The bit of `signal` in a /proc/PID/status mask line such as "SigIgn:\t0000000000001000".
bool maskHas(const std::string &status, const std::string &field, int signal) {
  const size_t at = status.find(field + ":");
  if (at == std::string::npos) return true;  // unreadable: count as set, so the test fails
  const unsigned long long mask = std::stoull(status.substr(at + field.size() + 1), nullptr, 16);
  return (mask >> (signal - 1)) & 1ULL;
}

}  // namespace

class TestChildProcess : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void childStartsWithDefaultSignalsItsVariablesAndItsGroup() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    struct sigaction before {};
    ::sigaction(SIGPIPE, &ignore, &before);
    sigset_t term, old;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    ::sigprocmask(SIG_BLOCK, &term, &old);

    tw::cli::ChildSpec spec;
    spec.environment = {{"TW_CHILD_VAR", "given"}, {"HOME", "/nowhere"}};
    spec.ownProcessGroup = true;
    spec.cpus = {0};
    int code = -1;
    const std::string out = report(spec,
                                   "echo var=$TW_CHILD_VAR home=$HOME; "
                                   "echo pid=$$ pgrp=$(cut -d' ' -f5 /proc/$$/stat); "
                                   // exec, not a forked cat reading the shell's status: dash blocks
                                   // every signal while it forks, and a cat could see that mask.
                                   "exec cat /proc/self/status",
                                   &code);
    ::sigaction(SIGPIPE, &before, nullptr);
    ::sigprocmask(SIG_SETMASK, &old, nullptr);

    QCOMPARE(code, 0);
    QVERIFY2(out.find("var=given home=/nowhere\n") != std::string::npos, out.c_str());
    const size_t pidAt = out.find("pid="), pgrpAt = out.find(" pgrp=");
    QVERIFY(pidAt != std::string::npos && pgrpAt != std::string::npos);
    const std::string pid = out.substr(pidAt + 4, pgrpAt - pidAt - 4);
    const std::string pgrp = out.substr(pgrpAt + 6, out.find('\n', pgrpAt) - pgrpAt - 6);
    QCOMPARE(pgrp, pid);  // its own process group
    for (int signal : {SIGPIPE, SIGTERM, SIGINT, SIGHUP}) {
      QVERIFY2(!maskHas(out, "SigIgn", signal), qPrintable(QString("signal %1 ignored:\n").arg(signal) + out.c_str()));
      QVERIFY2(!maskHas(out, "SigBlk", signal), qPrintable(QString("signal %1 blocked:\n").arg(signal) + out.c_str()));
    }
    QVERIFY2(out.find("Cpus_allowed_list:\t0\n") != std::string::npos, out.c_str());
  }

  // Only the descriptors handed over reach the child, at the numbers asked for; the parent's
  // close-on-exec ones do not.
  void childGetsOnlyTheDescriptorsItIsHanded() {
    int kept[2], other[2];
    QCOMPARE(::pipe2(kept, O_CLOEXEC), 0);
    QCOMPARE(::pipe2(other, O_CLOEXEC), 0);
    tw::cli::ChildSpec spec;
    spec.passFds = {{kept[1], 7}};
    spec.stdinFd = tw::cli::ChildSpec::kNull;
    int code = -1;
    const std::string out = report(spec, "ls /proc/$$/fd | sort -n | tr '\\n' ' '; echo >&7 handed", &code);
    QCOMPARE(code, 0);
    QVERIFY2(out.find(" 7 ") != std::string::npos, out.c_str());
    QVERIFY2(out.find(" " + std::to_string(other[1]) + " ") == std::string::npos || other[1] == 7, out.c_str());
    ::close(kept[1]);
    char buffer[16] = {};
    QVERIFY(::read(kept[0], buffer, sizeof buffer - 1) > 0);
    QCOMPARE(std::string(buffer), std::string("handed\n"));
    for (int fd : {kept[0], other[0], other[1]}) ::close(fd);
  }

  void aMissingExecutableExits127() {
    tw::cli::ChildSpec spec;
    spec.executable = "/nonexistent/torchwright-worker";
    spec.stderrFd = tw::cli::ChildSpec::kNull;
    const pid_t pid = tw::cli::startChild(spec);
    int status = 0;
    ::waitpid(pid, &status, 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 127);
  }
};

QTEST_GUILESS_MAIN(TestChildProcess)
#include "test_child_process.moc"
