// The process sampler on real processes: this one made busy, fatter and more threaded between
// samples, a child whose name holds ')' and spaces, and pids that are gone or never existed.

#include "core/sysmon/process_sampler.h"

#include <QtTest>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <condition_variable>
#include <ctime>
#include <fstream>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

using tw::sysmon::ProcessSample;
using tw::sysmon::ProcessSampler;

namespace {

// A child that renames itself (its comm) and waits to be killed; -1 when fork failed.
pid_t startNamedChild(const char *name) {
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
    for (;;) pause();
  }
  return pid;
}

bool waitForComm(pid_t pid, const std::string &name) {
  for (int attempt = 0; attempt < 500; ++attempt) {
    std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
    std::string line;
    if (std::getline(comm, line) && line == name) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

void stopChild(pid_t pid) {
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
}

}  // namespace

class TestProcessSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void firstSampleOfThisProcess() {
    ProcessSampler sampler;
    QCOMPARE(sampler.pid(), int(getpid()));
    const ProcessSample sample = sampler.sample();
    QVERIFY(sample.ok);
    QCOMPARE(sample.cpuPercent, 0.0);
    QVERIFY(sample.rssMb > 1.0);
    QVERIFY(sample.threads >= 1);
    QVERIFY(sample.hostMemUsedPercent > 0.0);
    QVERIFY(sample.hostMemUsedPercent <= 100.0);
  }

  void busyLoopShowsAsCpu() {
    ProcessSampler sampler;
    sampler.sample();
    // The share the loop gets depends on what else the machine runs (a sanitizer build beside two
    // compilers on 2 cores gave it under 30 %), so the sample is held against this process's own
    // CPU clock over the same interval rather than against a fixed share of a core.
    const auto cpuNow = [] {
      timespec t{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
      return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
    };
    const double cpuBefore = cpuNow();
    const auto start = std::chrono::steady_clock::now();
    const auto until = start + std::chrono::milliseconds(300);
    volatile double sink = 0.0;
    for (uint64_t i = 0; std::chrono::steady_clock::now() < until; ++i) sink = sink + double(i % 7);
    const ProcessSample sample = sampler.sample();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double expected = 100.0 * (cpuNow() - cpuBefore) / wall;
    QVERIFY(sample.ok);
    const std::string both = std::to_string(sample.cpuPercent) + " against " + std::to_string(expected);
    QVERIFY2(expected > 1.0, both.c_str());  // the loop ran at all
    // /proc counts in clock ticks (10 ms at 100 Hz): a few over 300 ms, the rest is the sampler's.
    QVERIFY2(std::abs(sample.cpuPercent - expected) < 15.0, both.c_str());
    QVERIFY2(sample.cpuPercent < 100.0 * std::thread::hardware_concurrency() + 20.0, both.c_str());
  }

  void touchedMemoryShowsAsRss() {
    ProcessSampler sampler;
    const ProcessSample before = sampler.sample();
    constexpr size_t kBytes = 64u << 20;
    std::vector<unsigned char> block(kBytes);
    // Every page written, so that each is really resident.
    for (size_t i = 0; i < block.size(); i += 4096) block[i] = static_cast<unsigned char>(i >> 12);
    const ProcessSample after = sampler.sample();
    QVERIFY(after.ok);
    QVERIFY2(after.rssMb - before.rssMb > 40.0,
             (std::to_string(before.rssMb) + " -> " + std::to_string(after.rssMb)).c_str());
    QCOMPARE(int(block[4096 * 3]), 3);  // keeps the block alive past the sample
  }

  void countsThreads() {
    ProcessSampler sampler;
    const int before = sampler.sample().threads;
    std::mutex mutex;
    std::condition_variable released;
    bool done = false;
    std::vector<std::thread> threads;
    for (int i = 0; i < 2; ++i) {
      threads.emplace_back([&] {
        std::unique_lock<std::mutex> lock(mutex);
        released.wait(lock, [&] { return done; });
      });
    }
    const int during = sampler.sample().threads;
    {
      std::lock_guard<std::mutex> lock(mutex);
      done = true;
    }
    released.notify_all();
    for (auto &thread : threads) thread.join();
    QVERIFY(before >= 1);
    QVERIFY2(during >= before + 2, (std::to_string(before) + " -> " + std::to_string(during)).c_str());
  }

  void otherProcessWithAnAwkwardName() {
    // 15 bytes, the most comm holds; a parser that stops at the first ')' reads the wrong fields.
    const std::string name = "tw) (x) y (z) w";
    const pid_t child = startNamedChild(name.c_str());
    QVERIFY(child > 0);
    const bool renamed = waitForComm(child, name);
    ProcessSampler sampler(child);
    const ProcessSample first = sampler.sample();
    const ProcessSample second = sampler.sample();
    stopChild(child);
    QVERIFY(renamed);
    QVERIFY(first.ok);
    QCOMPARE(first.threads, 1);
    QVERIFY(first.rssMb > 0.0);
    QVERIFY(first.rssMb < 1024.0);
    QVERIFY(second.ok);
    QVERIFY(second.cpuPercent < 50.0);  // it sleeps in pause()

    // Gone (killed and reaped): no throw, zeros, not ok.
    const ProcessSample gone = sampler.sample();
    QVERIFY(!gone.ok);
    QCOMPARE(gone.threads, 0);
    QCOMPARE(gone.rssMb, 0.0);
    QCOMPARE(gone.cpuPercent, 0.0);
  }

  void pidThatNeverExisted() {
    // Above the kernel's PID_MAX_LIMIT (2^22), so no process can have it.
    ProcessSampler sampler(std::numeric_limits<int>::max());
    const ProcessSample sample = sampler.sample();
    QVERIFY(!sample.ok);
    QCOMPARE(sample.threads, 0);
    QCOMPARE(sample.hostMemUsedPercent, 0.0);
    QVERIFY(!ProcessSampler(-3).sample().ok);
  }
};

QTEST_GUILESS_MAIN(TestProcessSampler)
#include "test_process_sampler.moc"
