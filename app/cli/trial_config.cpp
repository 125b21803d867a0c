#include "app/cli/trial_config.h"

#include "core/spec/analysis.h"
#include "core/spec/convolutions.h"
#include "core/spec/model_spec.h"
#include "core/sweep/trial_check.h"
#include "core/validate/memory_estimate.h"

namespace tw::cli {

PreparedTrial prepareTrial(const sweep::SweepFile &sweep, const search::Params &params) {
  PreparedTrial out;
  try {
    const auto problems = sweep::checkTrial(sweep, params);
    if (!problems.empty()) {
      out.message = spec::formatDiagnostics(problems);
      return out;
    }
    // Valid: what the driver plans with (a second analysis of a small graph costs nothing).
    out.config = sweep::trialConfig(sweep, params);
    const spec::ModelSpec model = spec::parseModelYaml(out.config.modelYaml, out.config.modelFile);
    const spec::Analysis analysis = spec::analyze(model);
    out.parameters = analysis.totalParams;
    out.convolutional = spec::hasConvolution(model);
    out.memoryBytes = validate::estimateMemory(out.config, analysis).total();
    out.ok = true;
  } catch (const spec::SpecError &e) {
    out.message = spec::formatDiagnostics(e.diagnostics());
  } catch (const std::exception &e) {
    out.message = e.what();
  }
  return out;
}

}  // namespace tw::cli
