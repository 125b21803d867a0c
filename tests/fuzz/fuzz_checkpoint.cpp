// Training checkpoints and weights files (resume, export, `init_from` a run): LibTorch's archive
// reader under our checks, into the model the seeds were trained as (corpus/checkpoint: a
// checkpoint and the weights file of a run of this model) and its optimiser.
#include "core/config/run_config.h"
#include "core/engine/checkpoint.h"
#include "core/engine/model_builder.h"
#include "core/engine/optimizer_factory.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

constexpr const char *kModel = R"(name: fuzz_tiny
nodes:
  - {id: x, op: Input, shape: [4]}
  - {id: fc1, op: Linear, out_features: 3}
  - {id: act, op: ReLU}
  - {id: fc2, op: Linear, out_features: 2}
)";

struct Trained {
  std::shared_ptr<tw::engine::GraphModule> model;
  std::unique_ptr<torch::optim::Optimizer> optimizer;
};

Trained &trained() {
  static Trained t = [] {
    const tw::spec::ModelSpec spec = tw::spec::parseModelYaml(kModel, "fuzz_tiny.model.yaml");
    Trained made;
    made.model = tw::engine::buildModel(spec, tw::spec::analyzeOrThrow(spec));
    made.optimizer = tw::engine::makeOptimizer(made.model->parameters(), tw::config::TrainOptions{});
    return made;
  }();
  return t;
}

}  // namespace

TW_FUZZ_TARGET(checkpoint) {
  Trained &t = trained();
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz-checkpoint.pt");
  tw::fuzz::expectRefusalOnly(path, [&] { tw::engine::checkpointPosition(path); });
  tw::fuzz::expectRefusalOnly(path, [&] { tw::engine::loadCheckpointWeights(path, *t.model); });
  tw::fuzz::expectRefusalOnly(path, [&] { tw::engine::loadCheckpoint(path, *t.model, *t.optimizer); });
  return 0;
}
