// The environment contract of a rank: torchrun's variables, SLURM's, SLURM's compact host and
// task lists, and the split of a batch into the ranks' shares.

#include "core/dist/dist_env.h"

#include <QtTest>

#include <map>
#include <string>

using tw::dist::DistEnv;

namespace {

DistEnv envOf(const std::map<std::string, std::string> &vars) {
  return tw::dist::distEnvFrom([&](const char *name) -> const char * {
    auto it = vars.find(name);
    return it == vars.end() ? nullptr : it->second.c_str();
  });
}

}  // namespace

class TestDistEnv : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void noVariablesIsOneProcess() {
    const DistEnv env = envOf({});
    QVERIFY(!env.distributed());
    QCOMPARE(env.rank, 0);
    QCOMPARE(env.worldSize, 1);
    QCOMPARE(env.source, std::string("single"));
  }

  void torchrunVariables() {
    const DistEnv env = envOf({{"WORLD_SIZE", "8"}, {"RANK", "5"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "4"},
                               {"GROUP_RANK", "1"}, {"MASTER_ADDR", "10.0.0.7"}, {"MASTER_PORT", "29400"},
                               {"TORCHWRIGHT_CORES", "3"}});
    QVERIFY(env.distributed());
    QCOMPARE(env.rank, 5);
    QCOMPARE(env.worldSize, 8);
    QCOMPARE(env.localRank, 1);
    QCOMPARE(env.localWorldSize, 4);
    QCOMPARE(env.nodeRank, 1);
    QCOMPARE(env.masterAddr, std::string("10.0.0.7"));
    QCOMPARE(env.masterPort, 29400);
    QCOMPARE(env.coresPerRank, 3);
    QCOMPARE(env.source, std::string("torchrun"));
  }

  void slurmVariables() {
    const DistEnv env = envOf({{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "4"}, {"SLURM_LOCALID", "1"},
                               {"SLURM_NODEID", "1"}, {"SLURM_TASKS_PER_NODE", "2(x2)"},
                               {"SLURM_JOB_NODELIST", "gpu[07-08]"}, {"SLURM_JOB_ID", "123456"},
                               {"SLURM_CPUS_PER_TASK", "8"}});
    QCOMPARE(env.source, std::string("slurm"));
    QCOMPARE(env.rank, 3);
    QCOMPARE(env.worldSize, 4);
    QCOMPARE(env.localRank, 1);
    QCOMPARE(env.localWorldSize, 2);
    QCOMPARE(env.masterAddr, std::string("gpu07"));
    QCOMPARE(env.masterPort, 29500 + 456);
    QCOMPARE(env.coresPerRank, 8);
  }

  void torchrunWinsOverSlurm() {
    // torchrun started inside a SLURM allocation: its variables describe the ranks.
    const DistEnv env = envOf({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"WORLD_SIZE", "4"}, {"RANK", "2"}});
    QCOMPARE(env.source, std::string("torchrun"));
    QCOMPARE(env.worldSize, 4);
  }

  void contradictionsNameTheVariable() {
    try {
      envOf({{"WORLD_SIZE", "2"}, {"RANK", "2"}});
      QFAIL("RANK >= WORLD_SIZE was accepted");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("RANK=2 is not below WORLD_SIZE=2"), e.what());
    }
    try {
      envOf({{"WORLD_SIZE", "two"}});
      QFAIL("a malformed WORLD_SIZE was accepted");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("WORLD_SIZE='two'"), e.what());
    }
    try {
      envOf({{"WORLD_SIZE", "2"}, {"RANK", "0"}, {"MASTER_PORT", "70000"}});
      QFAIL("a port above 65535 was accepted");
    } catch (const std::runtime_error &e) {
      QVERIFY2(QString(e.what()).contains("MASTER_PORT"), e.what());
    }
  }

  void slurmNodelists() {
    using V = std::vector<std::string>;
    QCOMPARE(tw::dist::expandSlurmNodelist("node01"), V({"node01"}));
    QCOMPARE(tw::dist::expandSlurmNodelist("node[01-03,07],gpu-a"), V({"node01", "node02", "node03", "node07", "gpu-a"}));
    QCOMPARE(tw::dist::expandSlurmNodelist("a[8-10]"), V({"a8", "a9", "a10"}));
    QCOMPARE(tw::dist::expandSlurmNodelist("rack1-n[1-2]-ib"), V({"rack1-n1-ib", "rack1-n2-ib"}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, tw::dist::expandSlurmNodelist("node[01-03"));
    QCOMPARE(tw::dist::expandSlurmTaskCounts("2(x3),1"), std::vector<int>({2, 2, 2, 1}));
  }

  void sharesCoverTheBatchOnce() {
    for (int world : {1, 2, 3, 8}) {
      for (int64_t n : {0, 1, 7, 127, 128}) {
        int64_t next = 0;
        for (int rank = 0; rank < world; ++rank) {
          const auto [begin, end] = tw::dist::shardBounds(n, rank, world);
          QCOMPARE(begin, next);
          QVERIFY(end - begin == n / world || end - begin == n / world + 1);
          next = end;
        }
        QCOMPARE(next, n);
      }
    }
  }
};

QTEST_GUILESS_MAIN(TestDistEnv)
#include "test_dist_env.moc"
