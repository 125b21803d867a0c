#pragma once
// Checkpoints: everything a run needs to continue exactly where it stopped. Engine-internal.
//
//   checkpoints/last.pt   model, optimiser, schedule, loss scaler, RNG, position (overwritten)
//   checkpoints/best.pt   the same, taken when the monitored metric improved
//
// Written atomically (atomic_file.h), so a kill mid-write leaves the previous checkpoint intact.

#include "core/engine/lr_schedule.h"

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

namespace tw::engine {

// Where training stands, at an optimiser-step boundary.
struct TrainProgress {
  int64_t epoch = 1;           // the epoch in progress (1-based)
  int64_t batch = 0;           // batches of that epoch already consumed
  int64_t step = 0;            // optimiser steps so far
  double epochLossSum = 0.0;   // the epoch's training loss so far (sum over examples)
  int64_t epochSeen = 0;
  double best = 0.0;           // best monitored value so far (early stopping, best.pt)
  bool haveBest = false;
  int64_t badEpochs = 0;       // epochs since the monitor last improved
  int64_t bestEpoch = 0;
  PlateauState plateau;
  double lossScale = 65536.0;  // fp16 dynamic loss scaling
  int64_t scaleGoodSteps = 0;
  double trainSeconds = 0.0;   // for the run's throughput across restarts
  int64_t trainedSamples = 0;
};

void saveCheckpoint(const std::string &path, torch::nn::Module &model, torch::optim::Optimizer &optimizer,
                    const TrainProgress &progress);
// Restores model, optimiser and the default CPU generator; returns the progress. Throws
// std::runtime_error naming the file when it is unreadable or from another model.
TrainProgress loadCheckpoint(const std::string &path, torch::nn::Module &model, torch::optim::Optimizer &optimizer);

// Where the checkpoint stands (epoch in progress, batches of it consumed) without loading it into
// anything: a resume first rebuilds what depends on it (the optimiser groups of unfrozen nodes).
std::pair<int64_t, int64_t> checkpointPosition(const std::string &path);

// A weights file: a checkpoint holding the format and the model alone (no optimiser, no
// progress), as `torchwright import` writes beside the model file. readWeightsFile reads it, so
// `train.init_from` starts a run from it. Written atomically.
void saveModelWeights(const std::string &path, torch::nn::Module &model);

// Only the model's weights, for export and inference: no optimiser, the global RNG untouched.
// Returns the checkpoint's epoch. Throws std::runtime_error naming the file, as loadCheckpoint.
int64_t loadCheckpointWeights(const std::string &path, torch::nn::Module &model);

// LibTorch reads a checkpoint as a TorchScript archive (InputArchive is torch::jit::load), and
// loading one runs the methods its code defines (__setstate__). Ours hold attributes only, so an
// archive that defines any method is refused before LibTorch reads it: a weights file from
// elsewhere (--weights, train.init_from, NAME.weights.pt) is data, never code. So is one whose
// source holds anything but the declarations LibTorch writes for saved values, or a member whose
// bytes do not match their CRC-32 (LibTorch checks neither, and crashes on some such files).
// Throws std::runtime_error naming the file and the record; bytes that are no zip archive pass
// (LibTorch then refuses them as it always did).
void refuseArchiveCode(const std::string &bytes, const std::string &path);

// SHA-256 over every parameter and buffer (names, shapes and bytes, in registration order):
// two runs with equal digests ended with bit-identical weights.
std::string weightsDigest(const torch::nn::Module &model);

}  // namespace tw::engine
