#pragma once
// Gradual unfreezing (train.unfreeze): at the start of an epoch, frozen nodes start to train.
//
//   train:
//     unfreeze:
//       - {epoch: 3, nodes: [h2]}          # a node id, or a block instance: all its members
//       - {epoch: 5, nodes: [h1, c1]}
//
// Each step is kept as text, "3:h2" and "5:h1+c1", which is also how `--set` writes them
// (`--set train.unfreeze=3:h2,5:h1+c1`). The nodes' parameters join the optimiser as new groups
// whose rate rises linearly from 0 over train.unfreeze_warmup_steps (0: one epoch's steps).
// Torch-free; the validator checks the nodes against the model, the engine applies the steps.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tw::config {

struct UnfreezeStep {
  int64_t epoch = 0;
  std::vector<std::string> nodes;
};

// The steps in the order written; `problem` is set (and the list empty) when one does not read.
std::vector<UnfreezeStep> parseUnfreeze(const std::vector<std::string> &steps, std::string *problem);

// A step written as a map, {epoch: 3, nodes: [h2, h1]}, as text ("3:h2+h1"); each entry is a key
// with its value or values. Throws std::invalid_argument with what is wrong.
std::string unfreezeStepText(const std::vector<std::pair<std::string, std::vector<std::string>>> &entries);

// Whether the node `id` is `name` or a member of the block instance `name` ("h1" covers "h1.fc").
bool coversNode(const std::string &name, const std::string &id);

// How much of its rate a group unfrozen at `startStep` gets at `step`: rising linearly to 1 over
// `warmupSteps` optimiser steps (the first step already takes 1 / warmupSteps).
double unfreezeWarmup(int64_t step, int64_t startStep, int64_t warmupSteps);

}  // namespace tw::config
