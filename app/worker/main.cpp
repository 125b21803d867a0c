// torchwright-worker: trains one recorded run. Started by `torchwright train` (and later by
// `launch`) with the workspace and the run's id; reads the resolved configuration from the run,
// writes metrics through the batching writer, and always records how the run ended.

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "core/engine/trainer.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

namespace {

std::atomic<bool> g_stopSignal{false};

void onSignal(int) { g_stopSignal = true; }

std::string option(int argc, char **argv, const char *name) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return {};
}

bool flag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], name) == 0) return true;
  return false;
}

void setUpLogging(const std::string &runDir) {
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  sinks.back()->set_level(spdlog::level::warn);
  if (!runDir.empty()) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(
          (fs::path(runDir) / "artifacts" / "worker.log").string()));
    } catch (const spdlog::spdlog_ex &) {
      // No log file is no reason not to train; stderr still has the warnings.
    }
  }
  for (const char *name : {"worker", "engine", "tracking"}) {
    auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info);
    spdlog::register_logger(logger);
  }
  spdlog::set_default_logger(spdlog::get("worker"));
}

std::string thousands(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void printSummary(const tw::tracking::RunRecord &run, const tw::engine::TrainSummary &s) {
  std::printf("\nSummary of run %s (%s)\n", run.uuid.substr(0, 8).c_str(), run.name.c_str());
  std::printf("  %-16s %s\n", "parameters", thousands(s.parameters).c_str());
  std::printf("  %-16s %lld (%lld steps)%s\n", "epochs", (long long)s.epochs, (long long)s.steps,
              s.stopped ? ", stopped early" : "");
  std::printf("  %-16s %lld / %lld / %lld\n", "train/val/test", (long long)s.trainSamples,
              (long long)s.valSamples, (long long)s.testSamples);
  std::printf("  %-16s %.4f\n", "train loss", s.trainLoss);
  if (s.classification) {
    std::printf("  %-16s %.4f  accuracy %.2f%%\n", "validation loss", s.valLoss, 100.0 * s.valAccuracy);
    std::printf("  %-16s %.4f  accuracy %.2f%%\n", "test loss", s.testLoss, 100.0 * s.testAccuracy);
    if (s.test.count("f1_macro"))
      std::printf("  %-16s %.4f (macro), %.4f (weighted)\n", "test F1", s.test.at("f1_macro"), s.test.at("f1_weighted"));
  } else {
    std::printf("  %-16s %.4f\n", "validation loss", s.valLoss);
    if (s.test.count("r2"))
      std::printf("  %-16s %.4f  MSE %.4f  MAE %.4f  R2 %.4f\n", "test loss", s.testLoss, s.test.at("mse"),
                  s.test.at("mae"), s.test.at("r2"));
  }
  if (s.bestEpoch > 0) std::printf("  %-16s epoch %lld (%.4f)%s\n", "best", (long long)s.bestEpoch, s.bestValue,
                                   s.earlyStopped ? ", stopped early: no further improvement" : "");
  if (s.resumedFromStep >= 0) std::printf("  %-16s step %lld\n", "resumed from", (long long)s.resumedFromStep);
  std::printf("  %-16s %.0f samples/s\n", "throughput", s.samplesPerSec);
  std::printf("  %-16s %.1f s\n", "time", s.seconds);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char **argv) {
  const std::string workspace = option(argc, argv, "--workspace");
  const std::string runId = option(argc, argv, "--run");
  if (workspace.empty() || runId.empty()) {
    std::fprintf(stderr, "usage: torchwright-worker --workspace DIR --run RUN_ID [--resume]\n");
    return 2;
  }
  std::signal(SIGTERM, onSignal);
  std::signal(SIGINT, onSignal);

  std::unique_ptr<tw::tracking::Store> store;
  tw::tracking::RunRecord run;
  try {
    store = tw::tracking::Store::open(tw::config::trackingDbPath(workspace));
    auto found = store->findRun(runId);
    if (!found) {
      std::fprintf(stderr, "torchwright-worker: no run '%s' in %s\n", runId.c_str(), store->path().c_str());
      return 1;
    }
    run = *found;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright-worker: opening the tracking database: %s\n", e.what());
    return 1;
  }
  const std::string runDir = run.runDir.empty() ? tw::config::runDir(workspace, run.uuid) : run.runDir;
  setUpLogging(runDir);

  try {
    auto config = tw::config::parseRunConfig(run.configYaml, (fs::path(runDir) / "config.yaml").string());
    store->setStatus(run.id, tw::tracking::RunStatus::Running);
    tw::tracking::MetricWriter writer(store->path(), run.id);

    auto lastStopCheck = std::chrono::steady_clock::now();
    bool stopRequested = false;
    tw::engine::TrainCallbacks callbacks;
    callbacks.shouldStop = [&] {
      if (g_stopSignal) return true;
      // The Stop button sets a flag in the database; a cheap read, but not every step.
      auto now = std::chrono::steady_clock::now();
      if (now - lastStopCheck > std::chrono::seconds(1)) {
        lastStopCheck = now;
        stopRequested = stopRequested || store->stopRequested(run.id);
      }
      return stopRequested;
    };
    callbacks.onDataLoaded = [&](const std::string &fingerprint) { store->setDataFingerprint(run.id, fingerprint); };
    callbacks.onEpoch = [](const tw::engine::EpochReport &r) {
      std::string quality;
      if (r.val.count("accuracy")) quality = "  val acc " + std::to_string(100.0 * r.valAccuracy).substr(0, 5) + "%";
      else if (r.val.count("r2")) quality = "  val R2 " + std::to_string(r.val.at("r2")).substr(0, 6);
      std::printf("epoch %lld/%lld  train loss %.4f  val loss %.4f%s  %.0f samples/s  %.1fs\n", (long long)r.epoch,
                  (long long)r.epochs, r.trainLoss, r.valLoss, quality.c_str(), r.samplesPerSec, r.seconds);
      std::fflush(stdout);
    };
    callbacks.onArtifact = [&](const std::string &path, const std::string &kind) {
      store->addArtifact(run.id, path, kind);
    };
    tw::engine::TrainEnvironment environment;
    environment.runDir = runDir;
    environment.resume = flag(argc, argv, "--resume");

    auto summary = tw::engine::train(config, &writer, callbacks, environment);
    store->setTag(run.id, "weights_sha256", summary.weightsDigest);
    writer.flush();
    if (!writer.lastError().empty())
      spdlog::warn("some metrics could not be written: {}", writer.lastError());
    if (summary.stopped)
      store->setStatus(run.id, tw::tracking::RunStatus::Killed, "stopped on request");
    else
      store->setStatus(run.id, tw::tracking::RunStatus::Finished);
    printSummary(run, summary);
    return 0;
  } catch (const std::exception &e) {
    spdlog::error("run {} failed: {}", run.uuid, e.what());
    try {
      store->setStatus(run.id, tw::tracking::RunStatus::Failed, e.what());
    } catch (const std::exception &inner) {
      std::fprintf(stderr, "torchwright-worker: could not record the failure: %s\n", inner.what());
    }
    std::fprintf(stderr, "torchwright: run %s failed: %s\n", run.uuid.substr(0, 8).c_str(), e.what());
    return 1;
  }
}
