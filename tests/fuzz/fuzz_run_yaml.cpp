// Run files and the validator: a run file that loads is checked by the same validateRun that
// `check`, `train` and Studio call (without touching data files or probing the machine), and
// its resolved YAML loads to the same configuration.
#include "core/config/run_config.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(run_yaml) {
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz.run.yaml");
  tw::config::RunConfig config;
  bool loaded = false;
  tw::fuzz::expectRefusalOnly("fuzz.run.yaml", [&] {
    config = tw::config::loadRunConfig(path);
    loaded = true;
  });
  if (!loaded) return 0;
  // An inline model's problems are the run file's; a model file's name its own file.
  const std::string modelName = config.modelFile.empty() ? path : config.modelFile;
  tw::fuzz::expectRefusalOnly(modelName, [&] {
    const tw::spec::ModelSpec model = tw::spec::parseModelYaml(config.modelYaml, modelName);
    const tw::spec::Analysis analysis = tw::spec::analyze(model);
    tw::validate::ValidateOptions options;
    options.checkData = false;
    options.machine = tw::validate::Machine{0, {}, 16e9, "fuzzing"};
    tw::validate::validateRun(config, analysis, options);
  });
  const std::string resolved = tw::config::toYaml(config);
  tw::config::RunConfig again;
  try {
    again = tw::config::parseRunConfig(resolved, tw::fuzz::scratchDir() + "/resolved.run.yaml");
  } catch (const std::runtime_error &e) {
    tw::fuzz::fail(std::string("a loaded run file resolves to YAML that does not load: ") + e.what());
  }
  if (tw::config::configHash(again) != tw::config::configHash(config))
    tw::fuzz::fail("a loaded run file does not survive resolving and loading back");
  return 0;
}
