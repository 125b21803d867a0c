#include "app/cli/rank_supervisor.h"

#include "app/cli/child_process.h"

#include "app/cli/port_reservation.h"

#include "app/cli/system_sampling.h"
#include "core/sysmon/nvml.h"
#include "core/sysmon/process_sampler.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace {

// A private folder (0700, mkdtemp) for one attempt's rendezvous file, removed with the attempt:
// a restart must not find the keys of the ranks it replaces. Its name carries the launcher's pid,
// so that a folder left by a launcher killed with SIGKILL (nothing of it ran to remove it) is
// found dead and removed by the next launch on the machine.
class RendezvousFolder {
 public:
  explicit RendezvousFolder(bool wanted) {
    if (!wanted) return;
    const char *tmp = std::getenv("TMPDIR");
    const std::string parent = tmp && *tmp ? tmp : "/tmp";
    removeAbandoned(parent);
    std::string pattern = parent + "/" + kPrefix + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("cannot create a folder for the rendezvous in " + pattern + ": " + std::strerror(errno));
    m_folder = pattern;
  }
  ~RendezvousFolder() {
    std::error_code ec;
    if (!m_folder.empty()) fs::remove_all(m_folder, ec);
  }
  RendezvousFolder(const RendezvousFolder &) = delete;
  RendezvousFolder &operator=(const RendezvousFolder &) = delete;
  std::string file() const { return m_folder.empty() ? std::string() : m_folder + "/store"; }

 private:
  static constexpr const char *kPrefix = "torchwright-rendezvous-";

  // Our own folders (a real folder, this user's) whose launcher no longer exists. A link or
  // another user's folder with the name is left alone; remove_all does not follow links inside.
  static void removeAbandoned(const std::string &parent) {
    std::error_code ec;
    for (fs::directory_iterator it(parent, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind(kPrefix, 0) != 0) continue;
      const std::string rest = name.substr(std::strlen(kPrefix));
      const size_t dash = rest.find('-');
      if (dash == 0 || dash == std::string::npos || rest.find_first_not_of("0123456789") != dash) continue;
      const long pid = std::strtol(rest.substr(0, dash).c_str(), nullptr, 10);
      struct stat st {};
      if (pid <= 0 || ::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) continue;
      if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
      std::error_code removeError;
      fs::remove_all(it->path(), removeError);
    }
  }

  std::string m_folder;
};

}  // namespace

namespace tw::cli {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kExitPeerLost = 75;  // the worker's "a peer rank was lost" (see app/worker/main.cpp)

volatile sig_atomic_t g_stopSignal = 0;
void onStopSignal(int) { g_stopSignal = 1; }

int machineCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

struct Rank {
  int global = 0, local = 0;
  pid_t pid = -1;
  int beatFd = -1;  // read end of the heartbeat pipe
  int errFd = -1;   // read end of the rank's stderr, passed on to ours
  std::string errTail, lastError;  // a partial line; the last line the rank wrote
  Clock::time_point lastBeat;
  bool beaten = false;  // it has sent a heartbeat: it started
  bool exited = false;
  int status = 0;              // waitpid's
  bool killedByUs = false;     // SIGKILL after the grace period: not the cause of anything
  std::unique_ptr<sysmon::ProcessSampler> sampler;
};

// "rank 1" in a distributed run; a run of one process has a worker.
std::string nameOf(const Rank &r, int world) {
  return world == 1 ? std::string("the worker") : "rank " + std::to_string(r.global);
}

std::string describeExit(const Rank &r) {
  if (WIFSIGNALED(r.status))
    return "killed by signal " + std::to_string(WTERMSIG(r.status)) + " (" + strsignal(WTERMSIG(r.status)) + ")";
  const int code = WEXITSTATUS(r.status);
  if (code == kExitPeerLost) return "exited: it lost contact with the other ranks";
  if (code == 127) return "could not be started (exit code 127)";
  return "exited with code " + std::to_string(code);
}

class Supervisor {
 public:
  Supervisor(tracking::Store *store, const tracking::RunRecord *run, std::string workerPath, LaunchPlan plan)
      : m_store(store), m_run(run), m_workerPath(std::move(workerPath)), m_plan(std::move(plan)) {}

  int run() {
    if (::access(m_workerPath.c_str(), X_OK) != 0) {
      return fail("worker '" + m_workerPath + "' is missing or not executable (build the torchwright-worker target)",
                  /*hint=*/false);
    }
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);
    for (int attempt = 0;; ++attempt) {
      std::string cause;
      bool restartable = false, reported = false;
      const bool ok = runAttempt(attempt, &cause, &restartable, &reported);
      if (ok) return 0;
      if (g_stopSignal) return 0;  // stopped on request: rank 0 recorded KILLED
      const int restarts = attempt;  // so far
      if (!restartable || restarts >= m_plan.maxRestarts) {
        std::string message = cause;
        if (restartable && m_plan.maxRestarts > 0)
          message += " (after " + std::to_string(restarts) + " restart" + (restarts == 1 ? "" : "s") + ")";
        return fail(message, restartable, reported);
      }
      recordRestart(restarts + 1, cause);
    }
  }

 private:
  // `reported`: the failed rank printed its own reason, which is on the terminal already.
  bool runAttempt(int attempt, std::string *cause, bool *restartable, bool *reported) {
    // A port chosen here stays reserved until the attempt ends, so parallel launchers (a sweep's
    // multi-rank trials) never hand their ranks the same one (see port_reservation.h).
    PortReservation reserved;
    if (m_plan.masterPort == 0 && m_plan.nprocPerNode * m_plan.nnodes > 1) reserved = PortReservation::loopback();
    const int port = m_plan.masterPort > 0 ? m_plan.masterPort : reserved.port();
    const int world = m_plan.nprocPerNode * m_plan.nnodes;
    // One machine: the ranks meet through a fresh user-only file, so nothing listens on the
    // network for the rendezvous; several machines need the TCP store at MASTER_ADDR.
    const RendezvousFolder rendezvous(m_plan.nnodes == 1 && world > 1);
    const int cores = std::max(1, machineCores() / m_plan.nprocPerNode);
    std::vector<std::string> arguments = m_plan.workerArgs;
    if (m_plan.resume || attempt > 0) arguments.push_back("--resume");
    std::vector<Rank> ranks(size_t(m_plan.nprocPerNode));
    for (int local = 0; local < m_plan.nprocPerNode; ++local) {
      Rank &r = ranks[size_t(local)];
      r.local = local;
      r.global = m_plan.nodeRank * m_plan.nprocPerNode + local;
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
      // The write end must survive exec in the child only: it is duplicated without CLOEXEC there.
      const int childFd = ::fcntl(fds[1], F_DUPFD, 10);
      std::vector<std::pair<std::string, std::string>> env = {
          {"MASTER_ADDR", m_plan.masterAddr}, {"MASTER_PORT", std::to_string(port)},
          {"WORLD_SIZE", std::to_string(world)}, {"RANK", std::to_string(r.global)},
          {"LOCAL_RANK", std::to_string(local)}, {"LOCAL_WORLD_SIZE", std::to_string(m_plan.nprocPerNode)},
          {"GROUP_RANK", std::to_string(m_plan.nodeRank)}, {"TORCHWRIGHT_CORES", std::to_string(cores)},
          {"OMP_NUM_THREADS", std::to_string(cores)}, {"OPENBLAS_NUM_THREADS", std::to_string(cores)},
          {"TORCHWRIGHT_HEARTBEAT_FD", std::to_string(childFd)}};
      if (!rendezvous.file().empty()) env.emplace_back("TORCHWRIGHT_RENDEZVOUS_FILE", rendezvous.file());
      if (world == 1) {
        // One process: no rendezvous, no process group; the worker trains exactly as before.
        env.erase(std::remove_if(env.begin(), env.end(), [](const auto &kv) {
                    return kv.first == "MASTER_ADDR" || kv.first == "MASTER_PORT" || kv.first == "WORLD_SIZE" ||
                           kv.first == "RANK" || kv.first == "GROUP_RANK";
                  }), env.end());
      }
      int errPipe[2];
      if (::pipe2(errPipe, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe failed: ") + std::strerror(errno));
      ChildSpec child{m_workerPath, arguments, env};
      child.stderrFd = errPipe[1];
      child.passFds = {{childFd, childFd}};
      r.pid = startChild(child);
      ::close(errPipe[1]);
      r.errFd = errPipe[0];
      ::fcntl(r.errFd, F_SETFL, O_NONBLOCK);
      ::close(childFd);
      ::close(fds[1]);
      r.beatFd = fds[0];
      ::fcntl(r.beatFd, F_SETFL, O_NONBLOCK);
      r.lastBeat = Clock::now();
      r.sampler = std::make_unique<sysmon::ProcessSampler>(r.pid);
      if (world > 1) std::printf("rank %d pid %d\n", r.global, static_cast<int>(r.pid));
    }
    std::fflush(stdout);

    bool forwardedStop = false;
    auto lastDbBeat = Clock::time_point();
    auto lastSample = Clock::time_point();  // a first sample right away, then every 2 s
    std::string firstProblem;
    while (true) {
      if (g_stopSignal && !forwardedStop) {
        for (auto &r : ranks)
          if (!r.exited) ::kill(r.pid, SIGTERM);
        forwardedStop = true;
      }
      const auto now = Clock::now();
      for (auto &r : ranks) {
        char buffer[64];
        while (r.beatFd >= 0 && ::read(r.beatFd, buffer, sizeof buffer) > 0) {
          r.lastBeat = now;
          r.beaten = true;
        }
        drainStderr(r);
        if (!r.exited) {
          int status = 0;
          const pid_t done = ::waitpid(r.pid, &status, WNOHANG);
          if (done == r.pid) {
            r.exited = true;
            r.status = status;
            const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
            if (!clean && firstProblem.empty() && !forwardedStop)
              firstProblem = nameOf(r, world) + " " + describeExit(r);
          } else if (!forwardedStop && now - r.lastBeat > std::chrono::seconds(silenceAllowedS(r)) &&
                     firstProblem.empty()) {
            firstProblem = nameOf(r, world) + (r.beaten ? " stopped answering" : " never started answering") +
                           " (no heartbeat for " + std::to_string(silenceAllowedS(r)) + " s)";
            m_hung = r.global;
          }
        }
      }
      if (m_store && m_run && now - lastDbBeat > std::chrono::seconds(2)) {
        beat();
        lastDbBeat = now;
      }
      if (m_store && m_run && now - lastSample > std::chrono::seconds(2)) {
        sampleRanks(ranks);
        lastSample = now;
      }
      const bool allExited = std::all_of(ranks.begin(), ranks.end(), [](const Rank &r) { return r.exited; });
      if (allExited || !firstProblem.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (!firstProblem.empty()) stopAll(ranks);
    for (auto &r : ranks) {
      drainStderr(r);
      ::close(r.beatFd);
      ::close(r.errFd);
    }

    const bool allClean = std::all_of(ranks.begin(), ranks.end(), [](const Rank &r) {
      return WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0;
    });
    if (allClean && firstProblem.empty()) return true;
    // The cause is the rank that went first in its own way, not the ones that then lost it.
    *cause = firstProblem;
    *restartable = true;
    for (const auto &r : ranks) {
      if (r.killedByUs) continue;
      if (WIFSIGNALED(r.status) && WTERMSIG(r.status) != SIGTERM) {
        *cause = nameOf(r, world) + " " + describeExit(r);
        break;
      }
    }
    for (const auto &r : ranks) {
      // A rank that failed on its own (bad data, NaN loss, a bad device) recorded why; repeating
      // it would fail the same way.
      if (WIFEXITED(r.status) && WEXITSTATUS(r.status) != 0 && WEXITSTATUS(r.status) != kExitPeerLost) {
        *restartable = false;
        // The rank's own last word says why; rank 0 also records it, the others only print it.
        const std::string why = !r.lastError.empty() ? ": " + r.lastError : recordedReason();
        *cause = nameOf(r, world) + " " + describeExit(r) + why;
        *reported = !r.lastError.empty();
        break;
      }
    }
    if (cause->empty()) *cause = "the ranks stopped";
    return false;
  }

  // Passes what a rank writes to stderr on to ours, and remembers its last line: a failed rank's
  // reason, even when it is not rank 0 and records nothing.
  static void drainStderr(Rank &r) {
    char buffer[4096];
    ssize_t n = 0;
    while (r.errFd >= 0 && (n = ::read(r.errFd, buffer, sizeof buffer)) > 0) {
      (void)!::write(STDERR_FILENO, buffer, static_cast<size_t>(n));
      r.errTail.append(buffer, static_cast<size_t>(n));
      size_t newline = 0;
      while ((newline = r.errTail.find('\n')) != std::string::npos) {
        std::string line = r.errTail.substr(0, newline);
        r.errTail.erase(0, newline + 1);
        const std::string prefix = "torchwright: ";
        if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
        // A backtrace that reached stderr anyway (a library printing its own) is no reason.
        const bool backtrace = line.rfind("frame #", 0) == 0 || line.rfind("Exception raised from ", 0) == 0;
        if (!line.empty() && !backtrace) r.lastError = line;
      }
    }
  }

  // Bounded: SIGTERM (ranks stop after a checkpoint when they can), then SIGKILL.
  void stopAll(std::vector<Rank> &ranks) {
    for (auto &r : ranks) {
      if (r.exited) continue;
      // A hung rank cannot stop itself; its SIGKILL is the cure, not a new cause.
      r.killedByUs = r.global == m_hung;
      ::kill(r.pid, r.killedByUs ? SIGKILL : SIGTERM);
    }
    const auto deadline = Clock::now() + std::chrono::seconds(m_plan.stopGraceS);
    for (auto &r : ranks) {
      while (!r.exited) {
        int status = 0;
        const pid_t done = ::waitpid(r.pid, &status, WNOHANG);
        if (done == r.pid) {
          r.exited = true;
          r.status = status;
          break;
        }
        if (Clock::now() > deadline) {
          std::fprintf(stderr, "torchwright: rank %d did not stop within %d s of SIGTERM; sending SIGKILL\n", r.global,
                       m_plan.stopGraceS);
          ::kill(r.pid, SIGKILL);
          r.killedByUs = true;
          while (::waitpid(r.pid, &status, 0) < 0 && errno == EINTR) {
          }
          r.exited = true;
          r.status = status;
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    m_hung = -1;
  }

  // Until its first heartbeat a rank is starting (loading LibTorch, initialising CUDA), which a
  // busy machine can stretch past a short timeout; it gets at least kStartupGraceS for that.
  int silenceAllowedS(const Rank &r) const {
    return r.beaten ? m_plan.heartbeatTimeoutS : std::max(m_plan.heartbeatTimeoutS, kStartupGraceS);
  }

  std::string recordedReason() const {
    if (!m_store || !m_run) return {};
    try {
      auto now = m_store->run(m_run->id);
      if (now && !now->statusMessage.empty()) return ": " + now->statusMessage;
    } catch (const std::exception &) {
    }
    return {};
  }

  void beat() {
    try {
      m_store->heartbeat(m_run->id);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: heartbeat: %s\n", e.what());
    }
  }

  void sampleRanks(std::vector<Rank> &ranks) {
    // One process per GPU: local rank i trains on visible GPU i (cuda:<LOCAL_RANK>). NVML counts
    // every GPU of the machine, so a launcher given some of them (a trial under
    // CUDA_VISIBLE_DEVICES) maps its ranks through that list.
    const std::vector<int> visible = visibleGpus();
    std::vector<SampledProcess> processes;
    for (auto &r : ranks) {
      SampledProcess p;
      p.rank = r.global;
      if (!r.exited) p.sampler = r.sampler.get();
      p.reportsHost = r.local == 0;
      p.gpu = visible.empty() ? r.local : r.local < static_cast<int>(visible.size()) ? visible[size_t(r.local)] : -1;
      processes.push_back(p);
    }
    if (!m_nvml) m_nvml = std::make_unique<sysmon::Nvml>();
    auto rows = sampleSystem(processes, *m_nvml);
    try {
      if (!rows.empty()) m_store->writeSystemMetrics(m_run->id, std::move(rows));
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: system metrics: %s\n", e.what());
    }
  }

  void recordRestart(int restart, const std::string &cause) {
    std::fprintf(stderr, "torchwright: %s; restarting all ranks from the last checkpoint (restart %d of %d)\n",
                 cause.c_str(), restart, m_plan.maxRestarts);
    if (!m_store || !m_run) return;
    try {
      m_store->setTag(m_run->id, "restarts", std::to_string(restart));
      m_store->setTag(m_run->id, "restart." + std::to_string(restart), cause);
      m_store->setStatus(m_run->id, tracking::RunStatus::Running);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: recording the restart: %s\n", e.what());
    }
  }

  // Records the failure; prints it unless the failed rank's own words are on the terminal already
  // (one failure, one message).
  int fail(const std::string &cause, bool hint, bool reported = false) {
    std::string reason = cause;
    if (hint && m_run)
      reason += "; `torchwright train --resume " + m_run->uuid.substr(0, 8) + "` continues from the last checkpoint";
    if (!reported)
      std::fprintf(stderr, "torchwright: %s%s\n", m_run ? ("run " + m_run->uuid + " failed: ").c_str() : "",
                   reason.c_str());
    if (m_store && m_run) {
      try {
        auto now = m_store->run(m_run->id);
        // A rank that failed on its own already recorded the precise reason; keep it.
        if (now && (now->status == tracking::RunStatus::Running || now->status == tracking::RunStatus::Created))
          m_store->setStatus(m_run->id, tracking::RunStatus::Failed, reason);
      } catch (const std::exception &e) {
        std::fprintf(stderr, "torchwright: could not record the failure: %s\n", e.what());
      }
    }
    return 1;
  }

  tracking::Store *m_store;
  const tracking::RunRecord *m_run;
  std::string m_workerPath;
  LaunchPlan m_plan;
  int m_hung = -1;
  std::unique_ptr<sysmon::Nvml> m_nvml;  // loaded on the first sample; "no NVIDIA GPU" is fine
};

}  // namespace

std::string selfExecutable(const std::string &selfPath) {
  std::error_code ec;
  std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec) return fs::absolute(selfPath).string();
  // A binary replaced while it runs (a rebuild, a package upgrade) reads as "PATH (deleted)";
  // the file now at PATH is the one to start.
  const std::string deleted = " (deleted)";
  if (self.size() > deleted.size() && self.compare(self.size() - deleted.size(), deleted.size(), deleted) == 0)
    self.erase(self.size() - deleted.size());
  return self;
}

std::string workerPathBeside(const std::string &selfPath) {
  return (fs::path(selfExecutable(selfPath)).parent_path() / "torchwright-worker").string();
}

int superviseRanks(tracking::Store *store, const tracking::RunRecord *run, const std::string &selfPath,
                   const LaunchPlan &plan) {
  return Supervisor(store, run, workerPathBeside(selfPath), plan).run();
}

}  // namespace tw::cli
