#pragma once
// Trains a model spec on a run configuration. No LibTorch in this header: callers (the worker,
// tests) stay light.
//
//   TrainEnvironment env;  env.runDir = ".../runs/<uuid>";  env.resume = true;
//   TrainSummary s = train(config, &writer, callbacks, env);

#include "core/config/run_config.h"
#include "core/dist/dist_env.h"
#include "core/spec/model_spec.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace tw::tracking { class MetricWriter; }

namespace tw::engine {

struct WeightTransfer;  // weight_transfer.h


class DatasetCache;  // dataset_cache.h
// A cache to share between the runs one process trains one after another (TrainEnvironment).
std::shared_ptr<DatasetCache> newDatasetCache();

struct EpochReport {
  int64_t epoch = 0;        // 1-based
  int64_t epochs = 0;
  int64_t step = 0;         // global optimiser steps so far
  double trainLoss = 0.0;   // mean over the epoch
  double valLoss = 0.0;
  double valAccuracy = 0.0; // 0..1; classification only
  std::map<std::string, double> val;  // every validation metric ("loss", "accuracy", "r2" ...)
  double samplesPerSec = 0.0;
  double dataWait = 0.0;    // share of the epoch's training time spent waiting for batches
  double lr = 0.0;          // at the end of the epoch
  double seconds = 0.0;     // wall time of the epoch
};

struct TrainSummary {
  int64_t epochs = 0;       // completed
  int64_t steps = 0;
  int64_t parameters = 0;
  bool classification = true;
  double trainLoss = 0.0;
  double valLoss = 0.0;
  double valAccuracy = 0.0;
  double testLoss = 0.0;
  double testAccuracy = 0.0;
  std::map<std::string, double> test;  // every test metric
  int64_t trainSamples = 0, valSamples = 0, testSamples = 0;
  double samplesPerSec = 0.0;  // training throughput over all epochs (across resumes)
  double trainSeconds = 0.0;   // the training loop's time, that throughput's denominator
  // Of that time, what tracking took inside the step (the gradient norm for the log, queueing
  // metrics), measured in this process only: the benchmark's account of the tracking cost.
  double trackingSeconds = 0.0;
  double seconds = 0.0;
  bool stopped = false;        // ended early because shouldStop() said so
  bool earlyStopped = false;   // the monitored metric stopped improving (train.patience)
  int64_t bestEpoch = 0;       // where the monitor was best (0: no validation)
  std::string monitor;         // train.monitor, the metric bestValue is of
  double bestValue = 0.0;
  int64_t resumedFromStep = -1;  // >= 0 when the run continued from a checkpoint
  std::string weightsDigest;   // SHA-256 of the final weights (bit-identical runs match)
  int worldSize = 1;           // ranks that trained it
  double allreduceShare = 0.0; // share of training time spent waiting for gradient all-reduce
};

struct TrainCallbacks {
  std::function<void(const EpochReport &)> onEpoch;
  // After every optimiser step: the run's step and the steps it will have taken when done (a
  // progress line's count).
  std::function<void(int64_t step, int64_t totalSteps)> onStep;
  std::function<bool()> shouldStop;  // polled between steps
  // Polled between steps too: true asks for a checkpoint after the coming step ("Checkpoint now").
  std::function<bool()> shouldCheckpoint;
  // Called once the data is read, before the first step, with the data fingerprint
  // (hash of the files read and the preprocessing options) so the run records it early, and
  // how the data is read (whole or per batch, and why: Dataset::reading) for the user to see.
  std::function<void(const std::string &fingerprint, const std::vector<std::string> &reading)> onDataLoaded;
  // Called right after, with the preprocessing the run applies to its data as JSON
  // (core/data/preprocessing.h): the worker writes it to runs/<id>/preprocessing.json.
  std::function<void(const std::string &json)> onPreprocessing;
  // A file the run produced (path relative to the run folder, kind: "checkpoint", "model", "report").
  std::function<void(const std::string &path, const std::string &kind)> onArtifact;
  // A file the run removed again (an epoch checkpoint older than train.keep_epochs allows).
  std::function<void(const std::string &path)> onArtifactRemoved;
  // Called before the first step when train.init_from gave the run its starting weights: what
  // was read (as written, and the file) and the plan of every tensor (weight_transfer.h).
  std::function<void(const std::string &source, const std::string &file, const WeightTransfer &plan)> onWeightsTaken;
};

struct TrainEnvironment {
  std::string runDir;   // checkpoints/ and artifacts/ go here; empty = no files (tests, benchmarks)
  bool resume = false;  // continue from runDir/checkpoints/last.pt when it exists
  bool checkpoints = true;
  // train.init_from resolved to a file (a run reference through the tracking store:
  // app/common/init_source.h); empty: the option's own file, when it names one. Rank 0 reads it;
  // the others start from rank 0's weights. A resumed run takes its checkpoint instead.
  std::string initFile;
  // Data kept between the runs of one process (dataset_cache.h); null = read it for this run.
  std::shared_ptr<DatasetCache> dataCache;
  // This process's place in a distributed run. With several ranks, only rank 0 writes metrics,
  // checkpoints and artifacts (give the others no writer); every rank reads the checkpoint on
  // resume, so the run folder must be shared between machines. A rank without a runDir takes
  // rank 0's.
  dist::DistEnv dist;
};

// Metrics written (when writer is non-null), step = global optimiser step:
//   distributed: dist/allreduce_share per epoch; losses and throughput are over all ranks.
//   per step (every log_every): train/loss, train/lr, train/grad_norm;
//   per epoch: train/epoch_loss, train/samples_per_sec, train/data_wait, epoch, val/<metric>,
//   weight_norm/<param>, grad_norm/<param>; at the end: test/<metric>.
// Throws std::runtime_error with a stage prefix ("loading data: ...", "building model: ...",
// "training: loss is NaN at step 12 ...").
TrainSummary train(const config::RunConfig &config, tracking::MetricWriter *writer,
                   const TrainCallbacks &callbacks = {}, const TrainEnvironment &environment = {});

}  // namespace tw::engine
