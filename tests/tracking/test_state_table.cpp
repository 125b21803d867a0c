// The run and trial state table (tracking/state_table.h) as the store enforces it on a real
// SQLite file: every pair of states is tried, allowed ones are written and refused ones leave the
// record as it was, with a message naming both states.

#include "tracking_fixture.h"

#include "core/search/trial.h"
#include "tracking/state_table.h"
#include "tracking/store.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace tracking_test;
using tw::tracking::RunStatus;
using tw::tracking::StateRule;
using tw::tracking::Store;
using tw::tracking::TrackingError;

namespace {

bool allows(const std::vector<StateRule> &table, const std::string &from, const std::string &to) {
  const StateRule *rule = tw::tracking::findState(table, from);
  return rule && std::count(rule->next.begin(), rule->next.end(), to) > 0;
}

// A path through the table from a record's first state to `state`.
std::vector<std::string> pathTo(const std::vector<StateRule> &table, const std::string &state) {
  for (const StateRule &start : table) {
    if (!start.initial) continue;
    if (start.name == state) return {start.name};
    for (const std::string &next : start.next)
      if (next == state) return {start.name, next};
  }
  for (const StateRule &start : table)
    for (const std::string &middle : start.next)
      if (start.initial && allows(table, middle, state)) return {start.name, middle, state};
  return {};
}

RunStatus statusOf(const std::string &name) {
  RunStatus status = RunStatus::Created;
  tw::tracking::parseRunStatus(name, &status);
  return status;
}

}  // namespace

class TestStateTable : public QObject {
  Q_OBJECT

  QTemporaryDir m_dir;

 private Q_SLOTS:
  // The facts the rest of the house relies on, written out, so a change to the table is a
  // decision and not an accident.
  void theTableSaysWhatRunsAndTrialsMayDo() {
    const auto &runs = tw::tracking::runStates();
    QVERIFY(tw::tracking::findState(runs, "FINISHED")->final);
    QVERIFY(allows(runs, "FAILED", "RUNNING") && allows(runs, "KILLED", "RUNNING"));  // resume
    QVERIFY(allows(runs, "RUNNING", "RUNNING"));  // ranks restarted
    QVERIFY(!allows(runs, "CREATED", "FINISHED"));
    QVERIFY(!allows(runs, "KILLED", "FINISHED"));
    const auto &trials = tw::tracking::trialStates();
    for (const char *final : {"COMPLETE", "PRUNED", "FAILED"}) {
      QVERIFY(tw::tracking::findState(trials, final)->final);
      QVERIFY(tw::tracking::findState(trials, final)->ended);
    }
    QVERIFY(!tw::tracking::findState(runs, "FAILED")->final && tw::tracking::findState(runs, "FAILED")->ended);
    QCOMPARE(tw::tracking::transitionProblem(trials, "trial 3 of study 1", "PRUNED", "COMPLETE"),
             std::string("trial 3 of study 1 is PRUNED and cannot become COMPLETE (PRUNED is final)"));
    QCOMPARE(tw::tracking::transitionProblem(runs, "run 4", "KILLED", "FINISHED"),
             std::string("run 4 is KILLED and cannot become FINISHED (from KILLED it may become RUNNING, KILLED, FAILED)"));
  }

  // core/search names its trial states itself; they are the table's, one for one.
  void searchTrialStatesAreTheTables() {
    using tw::search::TrialState;
    std::vector<std::string> names;
    for (TrialState s : {TrialState::Waiting, TrialState::Running, TrialState::Complete, TrialState::Pruned,
                         TrialState::Failed})
      names.push_back(tw::search::trialStateName(s));
    std::vector<std::string> table;
    for (const StateRule &rule : tw::tracking::trialStates()) table.push_back(rule.name);
    QCOMPARE(names, table);
  }

  void storeWritesOnlyTheRunTransitionsTheTableAllows() {
    const std::string location = tracking_test::freshStore(m_dir, "runs.db");
    if (location.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
    auto store = Store::open(location);
    const auto &table = tw::tracking::runStates();
    int tried = 0;
    for (const StateRule &from : table) {
      for (const StateRule &to : table) {
        const auto run = store->createRun(newRun("states"));
        const std::vector<std::string> path = pathTo(table, from.name);
        QVERIFY2(!path.empty(), from.name.c_str());
        for (size_t i = 1; i < path.size(); ++i) store->setStatus(run.id, statusOf(path[i]), "on the way");
        QCOMPARE(runStatusName(store->run(run.id)->status), from.name);
        const bool allowed = allows(table, from.name, to.name);
        try {
          store->setStatus(run.id, statusOf(to.name), "tried");
          QVERIFY2(allowed, qPrintable(QString::fromStdString(from.name + " -> " + to.name + " was written")));
          QCOMPARE(runStatusName(store->run(run.id)->status), to.name);
          QCOMPARE(store->run(run.id)->endMs > 0, to.ended);
        } catch (const TrackingError &e) {
          QVERIFY2(!allowed, e.what());
          const std::string what = e.what();
          QVERIFY2(what.find("is " + from.name + " and cannot become " + to.name) != std::string::npos, e.what());
          QCOMPARE(runStatusName(store->run(run.id)->status), from.name);  // unchanged
          QVERIFY(store->run(run.id)->statusMessage != "tried");
        }
        ++tried;
      }
    }
    QCOMPARE(tried, 25);
  }

  void storeWritesOnlyTheTrialTransitionsTheTableAllows() {
    const std::string location = tracking_test::freshStore(m_dir, "trials.db");
    if (location.empty()) QSKIP(qPrintable(tracking_test::skipReason()));
    auto store = Store::open(location);
    tw::tracking::NewStudy newStudy;
    newStudy.name = "states";
    const auto study = store->createStudy(newStudy);
    const auto &table = tw::tracking::trialStates();
    int tried = 0;
    for (const StateRule &from : table) {
      for (const StateRule &to : table) {
        const std::vector<std::string> path = pathTo(table, from.name);
        QVERIFY2(!path.empty(), from.name.c_str());
        const auto trial = store->addTrial(study.id, {}, path.front());
        for (size_t i = 1; i < path.size(); ++i) store->setTrialState(study.id, trial.number, path[i], {1.0});
        const bool allowed = allows(table, from.name, to.name);
        try {
          store->setTrialState(study.id, trial.number, to.name, {2.0}, "tried");
          QVERIFY2(allowed, qPrintable(QString::fromStdString(from.name + " -> " + to.name + " was written")));
          QCOMPARE(store->trial(study.id, trial.number)->state, to.name);
        } catch (const TrackingError &e) {
          QVERIFY2(!allowed, e.what());
          QCOMPARE(store->trial(study.id, trial.number)->state, from.name);
          QVERIFY(store->trial(study.id, trial.number)->message != "tried");
        }
        ++tried;
      }
    }
    QCOMPARE(tried, 25);
    // A trial starts only in a state the table calls initial.
    QVERIFY_THROWS_EXCEPTION(TrackingError, store->addTrial(study.id, {}, "COMPLETE"));
  }
};

QTEST_GUILESS_MAIN(TestStateTable)
#include "test_state_table.moc"
