#pragma once
// Weights from elsewhere into a built model, by name: a Torchwright checkpoint's model section
// or a PyTorch state_dict file (`torch.save(model.state_dict(), f)`, read by
// state_dict_reader.h; no Python, no pickled code runs). The plan lists every tensor before anything
// is copied: taken, shape mismatch, missing (the model's, not in the file) and unexpected (the
// file's, not in the model). Engine-internal (includes LibTorch).
//
//   const NamedTensors file = readWeightsFile(path);
//   const WeightTransfer plan = planWeightTransfer(model, file);
//   applyWeightTransfer(model, file, plan);   // the taken ones; the rest keep the seed's values

#include "core/engine/graph_module.h"

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace tw::engine {

using NamedTensors = std::vector<std::pair<std::string, torch::Tensor>>;

// Every tensor of the file under its name ("block1_conv.weight" in a Torchwright checkpoint,
// "features.0.weight" in a torchvision state_dict). A state_dict wrapped in a dict under
// "state_dict" or "model" (a training script's checkpoint) is unwrapped. Throws
// std::runtime_error naming the file when it is neither.
NamedTensors readWeightsFile(const std::string &path);

struct WeightMatch {
  enum class Kind { Taken, ShapeMismatch, Missing, Unexpected };
  Kind kind = Kind::Missing;
  std::string name;        // the model's name (node id + "." + tensor); the file's for Unexpected
  std::string fileName;    // as the file spells it, when found
  std::vector<int64_t> modelShape, fileShape;
  bool frozen = false;     // the model's node is trainable: false
};

struct WeightTransfer {
  std::vector<WeightMatch> rows;  // the model's tensors in registration order, then the unexpected
  int64_t count(WeightMatch::Kind kind) const;
  // For people: the counts, then every row that was not taken.
  std::string table(const std::string &source) const;
  // For the run's provenance (init_from.json): the source, the file and every row.
  std::string json(const std::string &source, const std::string &file) const;
};

// A model tensor matches a file tensor of the same name, written with its node id
// ("block1.conv.weight") or its module name ("block1_conv.weight"), and of the same shape.
WeightTransfer planWeightTransfer(const GraphModule &model, const NamedTensors &file);

// Copies the taken tensors into the model (converted to each tensor's dtype, device and layout;
// no gradient recorded). Throws std::runtime_error when nothing matches at all: a file of
// another architecture is named, with examples of both sides' names, not trained from silently.
void applyWeightTransfer(GraphModule &model, const NamedTensors &file, const WeightTransfer &plan,
                         const std::string &source);

}  // namespace tw::engine
