#pragma once
// What the engine tests that train share: a run trained with a metric writer into a fresh
// database (its summary, the artifacts it announced and its recorded points), and the message a
// run that cannot train throws.

#include "core/engine/trainer.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <QTemporaryDir>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tw::testing {

struct Tracked {
  QTemporaryDir dir;
  std::unique_ptr<tracking::Store> store;
  int64_t runId = 0;
  engine::TrainSummary summary;
  std::vector<std::pair<std::string, std::string>> artifacts;
  std::vector<tracking::MetricPoint> points(const std::string &key) const { return store->metricPoints(runId, key); }
};

// With withRunDir the run writes its checkpoints and artifacts under the test's folder.
inline std::unique_ptr<Tracked> trainTracked(const config::RunConfig &c, bool withRunDir = false) {
  auto t = std::make_unique<Tracked>();
  const std::string db = t->dir.path().toStdString() + "/tracking.db";
  t->store = tracking::Store::open(db);
  t->runId = t->store->createRun(tracking::NewRun{}).id;
  engine::TrainCallbacks callbacks;
  callbacks.onArtifact = [&](const std::string &path, const std::string &kind) { t->artifacts.emplace_back(path, kind); };
  engine::TrainEnvironment env;
  if (withRunDir) env.runDir = t->dir.path().toStdString() + "/run";
  tracking::MetricWriter writer(db, t->runId);
  t->summary = engine::train(c, &writer, callbacks, env);
  writer.flush();
  return t;
}

// Callbacks that stop a run after `polls` polls (one before each step): a run stopped mid-epoch,
// for the resume tests.
inline engine::TrainCallbacks stopAfterPolls(int64_t polls) {
  engine::TrainCallbacks callbacks;
  auto count = std::make_shared<int64_t>(0);
  callbacks.shouldStop = [count, polls] { return ++*count > polls; };
  return callbacks;
}

// The message of what engine::train throws; empty when it trains.
inline std::string errorOf(const config::RunConfig &c) {
  try {
    engine::train(c, nullptr);
  } catch (const std::exception &e) {
    return e.what();
  }
  return {};
}

}  // namespace tw::testing
