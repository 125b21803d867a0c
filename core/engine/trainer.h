#pragma once
// Trains a model spec on a run configuration. No LibTorch in this header: callers (the worker,
// tests) stay light.

#include "core/config/run_config.h"
#include "core/spec/model_spec.h"

#include <cstdint>
#include <functional>
#include <string>

namespace tw::tracking { class MetricWriter; }

namespace tw::engine {

struct EpochReport {
  int64_t epoch = 0;        // 1-based
  int64_t epochs = 0;
  int64_t step = 0;         // global optimiser steps so far
  double trainLoss = 0.0;   // mean over the epoch
  double valLoss = 0.0;
  double valAccuracy = 0.0; // 0..1
  double samplesPerSec = 0.0;
  double seconds = 0.0;     // wall time of the epoch
};

struct TrainSummary {
  int64_t epochs = 0;
  int64_t steps = 0;
  int64_t parameters = 0;
  double trainLoss = 0.0;
  double valLoss = 0.0;
  double valAccuracy = 0.0;
  double testLoss = 0.0;
  double testAccuracy = 0.0;
  int64_t trainSamples = 0, valSamples = 0, testSamples = 0;
  double samplesPerSec = 0.0;  // training throughput over all epochs
  double seconds = 0.0;
  bool stopped = false;        // ended early because shouldStop() said so
};

struct TrainCallbacks {
  std::function<void(const EpochReport &)> onEpoch;
  std::function<bool()> shouldStop;  // polled between steps
  // Called once the data is read, before the first step, with the data fingerprint
  // (hash of the files read and the preprocessing options) so the run records it early.
  std::function<void(const std::string &fingerprint)> onDataLoaded;
};

// Metrics written (when writer is non-null), step = global optimiser step:
//   train/loss (every logEvery steps), train/lr, train/samples_per_sec (per epoch),
//   val/loss, val/accuracy, epoch (per epoch), test/loss, test/accuracy (at the end).
// Throws std::runtime_error with a stage prefix ("loading data: ...", "building model: ...").
TrainSummary train(const config::RunConfig &config, tracking::MetricWriter *writer,
                   const TrainCallbacks &callbacks = {});

}  // namespace tw::engine
