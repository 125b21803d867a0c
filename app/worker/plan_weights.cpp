#include "app/worker/plan_weights.h"

#include "app/worker/worker_args.h"

#include "core/config/run_config.h"
#include "core/engine/model_builder.h"
#include "core/engine/weight_transfer.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"

#include <cstdio>

namespace tw::worker {

int planWeights(int argc, char **argv) {
  const std::string file = option(argc, argv, "--plan-weights");
  const std::string runFile = option(argc, argv, "--config");
  if (file.empty() || runFile.empty()) {
    std::fprintf(stderr, "usage: torchwright-worker --plan-weights FILE --config RUN.yaml [--set KEY=VALUE ...]\n");
    return 2;
  }
  try {
    const config::RunConfig config = config::loadRunConfig(runFile, options(argc, argv, "--set"));
    const spec::ModelSpec spec = spec::parseModelYaml(config.modelYaml, config.modelFile.empty() ? runFile : config.modelFile);
    const auto model = engine::buildModel(spec, spec::analyzeOrThrow(spec));
    const engine::NamedTensors tensors = engine::readWeightsFile(file);
    const engine::WeightTransfer plan = engine::planWeightTransfer(*model, tensors);
    std::printf("%s", plan.table(config.train.initFrom + (file == config.train.initFrom ? "" : " (" + file + ")")).c_str());
    if (plan.count(engine::WeightMatch::Kind::Taken) == 0) {
      std::fprintf(stderr, "torchwright: no tensor of the model matches %s by name and shape: another architecture?\n",
                   file.c_str());
      return 1;
    }
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright: %s\n", e.what());
    return 1;
  }
}

}  // namespace tw::worker
