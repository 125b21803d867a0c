// How a sweep shares the machine: the core plan (how many trials at once, which cores and GPUs
// each gets) and the rendezvous port reservation that keeps parallel launchers from being handed
// the same port.

#include "app/cli/core_plan.h"
#include "app/cli/port_reservation.h"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <set>

using namespace tw::cli;

namespace {

std::vector<int> cpus(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(i);
  return out;
}

// Binds `port` on loopback the way a second probe or rank 0's store would; true when it could.
bool canBind(int port, bool reuse, bool listenToo) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  const int on = 1;
  if (reuse) ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<uint16_t>(port));
  bool ok = ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0;
  if (ok && listenToo) ok = ::listen(fd, 4) == 0;
  ::close(fd);
  return ok;
}

}  // namespace

class TestTrialResources : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void planDividesTheCores_data() {
    QTest::addColumn<int>("cores");
    QTest::addColumn<int>("parallel");  // 0 = auto
    QTest::addColumn<int>("ranks");
    QTest::addColumn<bool>("convolutional");
    QTest::addColumn<int>("budget");
    QTest::addColumn<int>("slots");
    QTest::addColumn<int>("coresPerTrial");
    QTest::newRow("auto dense: one core a trial") << 8 << 0 << 1 << false << 0 << 8 << 1;
    QTest::newRow("auto conv: four cores a trial") << 8 << 0 << 1 << true << 0 << 2 << 4;
    QTest::newRow("auto conv on two cores") << 2 << 0 << 1 << true << 0 << 1 << 2;
    QTest::newRow("auto capped by the budget") << 8 << 0 << 1 << false << 3 << 3 << 2;
    QTest::newRow("asked for 2 of 8") << 8 << 2 << 1 << false << 0 << 2 << 4;
    QTest::newRow("asked for more than the cores") << 2 << 4 << 1 << false << 0 << 2 << 1;
    QTest::newRow("two ranks a trial") << 8 << 0 << 2 << false << 0 << 4 << 2;
    QTest::newRow("ranks beyond the cores") << 2 << 3 << 2 << false << 0 << 1 << 2;
  }
  void planDividesTheCores() {
    QFETCH(int, cores);
    QFETCH(int, parallel);
    QFETCH(int, ranks);
    QFETCH(bool, convolutional);
    QFETCH(int, budget);
    QFETCH(int, slots);
    QFETCH(int, coresPerTrial);
    CoreRequest request;
    request.cpus = cpus(cores);
    request.parallel = parallel;
    request.ranksPerTrial = ranks;
    request.convolutional = convolutional;
    request.budgetTrials = budget;
    const CorePlan plan = planCores(request);
    QCOMPARE(int(plan.slots.size()), slots);
    QCOMPARE(plan.coresPerTrial, coresPerTrial);
    QVERIFY(!plan.reason.empty());
    // Every core in at most one slot, every slot at least as many cores as ranks: processes x
    // threads never exceeds the cores.
    std::set<int> seen;
    for (const auto &slot : plan.slots) {
      QVERIFY2(int(slot.cpus.size()) >= std::min(ranks, cores), plan.reason.c_str());
      for (int cpu : slot.cpus) QVERIFY2(seen.insert(cpu).second, "a core given to two trials");
      QVERIFY(slot.gpus.empty());
    }
    QVERIFY(int(seen.size()) <= cores);
  }

  void gpusGoOnePerTrialRank() {
    CoreRequest request;
    request.cpus = cpus(16);
    request.gpuCount = 4;
    request.ranksPerTrial = 2;
    const CorePlan plan = planCores(request);
    QCOMPARE(plan.slots.size(), size_t(2));
    QCOMPARE(plan.slots[0].gpus, (std::vector<int>{0, 1}));
    QCOMPARE(plan.slots[1].gpus, (std::vector<int>{2, 3}));
    QCOMPARE(plan.slots[0].cpus.size(), size_t(8));
  }

  void memoryLimitsTheTrials() {
    CoreRequest request;
    request.cpus = cpus(8);
    request.trialMemoryBytes = 3e9;
    request.hostMemoryBytes = 8e9;  // 0.8 * 8 / 3 -> 2
    const CorePlan plan = planCores(request);
    QCOMPARE(plan.slots.size(), size_t(2));
    QVERIFY2(plan.reason.find("memory") != std::string::npos, plan.reason.c_str());
  }

  void cpuListReadsLikeTaskset() {
    QCOMPARE(cpuListText({0, 1, 2, 3, 6}), std::string("0-3,6"));
    QCOMPARE(cpuListText({5}), std::string("5"));
    QVERIFY(!allowedCpus().empty());
  }

  // The race the launcher had: a probe that closed its socket left the port free for the next
  // probe. A held reservation is never handed out again, yet rank 0's store can still serve on it.
  void reservedPortsAreDistinctAndUsableByTheStore() {
    std::vector<PortReservation> held;
    std::set<int> ports;
    for (int i = 0; i < 200; ++i) {
      held.push_back(PortReservation::loopback());
      QVERIFY(held.back().port() > 0);
      QVERIFY2(ports.insert(held.back().port()).second, "a reserved port was handed out twice");
    }
    const int port = held.front().port();
    QVERIFY2(!canBind(port, /*reuse=*/false, false), "a plain bind took a reserved port");
    QVERIFY2(canBind(port, /*reuse=*/true, /*listen=*/true), "the rendezvous store could not serve on its port");
    held.front().release();
    QVERIFY(canBind(port, false, true));
  }
};

QTEST_APPLESS_MAIN(TestTrialResources)
#include "test_trial_resources.moc"
