#include "app/worker/model_file_source.h"

#include "core/engine/weight_transfer.h"
#include "core/spec/model_files.h"
#include "core/spec/model_spec.h"

#include <filesystem>
#include <stdexcept>

namespace tw::worker {

namespace fs = std::filesystem;

ModelFileSource loadModelFile(const std::string &modelFile, const std::string &weightsOption, int64_t seed) {
  const spec::ModelSpec spec = spec::parseModelFile(modelFile);
  torch::manual_seed(static_cast<uint64_t>(seed));
  ModelFileSource out{engine::exportSourceFromSpec(spec), "initialised from seed " + std::to_string(seed) + " (no weights file)"};
  std::string weights = weightsOption;
  std::error_code ec;
  if (weights.empty() && fs::is_regular_file(spec::weightsFileFor(modelFile), ec)) weights = spec::weightsFileFor(modelFile);
  if (weights.empty()) return out;
  const engine::NamedTensors tensors = engine::readWeightsFile(weights);
  const engine::WeightTransfer plan = engine::planWeightTransfer(*out.source.module, tensors);
  if (plan.count(engine::WeightMatch::Kind::Missing) + plan.count(engine::WeightMatch::Kind::ShapeMismatch) > 0)
    throw std::runtime_error(weights + " does not give every tensor of " + modelFile + ":\n" + plan.table(weights));
  engine::applyWeightTransfer(*out.source.module, tensors, plan, weights);
  out.origin = "weights from " + weights;
  return out;
}

}  // namespace tw::worker
