#pragma once
// Everything a training run needs before its first step, checked in the order that reports
// option mistakes before the data is read and data mistakes before the model is built.
// Engine-internal.

#include "core/config/run_config.h"
#include "core/engine/dataset.h"
#include "core/engine/dataset_cache.h"
#include "core/engine/evaluation.h"
#include "core/engine/graph_module.h"
#include "core/engine/losses.h"
#include "core/engine/precision.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <torch/torch.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace tw::engine {

struct TrainSetup {
  spec::ModelSpec spec;
  spec::Analysis analysis;
  Dataset data;
  std::shared_ptr<GraphModule> model;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  std::vector<double> lrFactors;  // per optimiser parameter group: its nodes' lr_factor
  Loss loss;
  torch::Device device = torch::kCPU;
  Precision precision = Precision::FP32;
  bool channelsLast = false;   // train.memory_format resolved (memory_format.h)
  EvalOptions evalOptions;
  int64_t batchesPerEpoch = 0;
  int64_t stepsPerEpoch = 0;   // optimiser steps: batches / accumulate, rounded up
  std::string monitorMetric;   // train.monitor without "val/"
};

// Sets threads and the seed, reads the data, builds the model and optimiser. `cores`: what this
// process may use (0 = every core it may run on; a rank of a distributed run gets its share).
// With a cache, data the previous run of this process read is taken from it (dataset_cache.h).
// Throws std::runtime_error prefixed with the stage ("configuring training: ...", "loading data: ...").
TrainSetup prepareTraining(const config::RunConfig &config, int cores = 0, DatasetCache *cache = nullptr);

// c10::Error's what() carries a C++ backtrace that means nothing to the person reading the run:
// the message without it, also when a wrapping exception copied the backtrace into its own text.
std::string messageOf(const std::exception &e);
std::string withoutBacktrace(const std::string &text);
// "<stage>: <messageOf(e)>"; the full text, backtrace included, goes to the engine log at info
// level (the run's worker.log, not the terminal) for whoever debugs the run.
std::string stageFailure(const char *stage, const std::exception &e);

// Runs one stage; any failure comes out as "<stage>: <what went wrong>".
template <typename F>
auto stage(const char *name, F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception &e) {
    throw std::runtime_error(stageFailure(name, e));
  }
}

}  // namespace tw::engine
