#include "app/cli/trial_config.h"

#include "core/spec/analysis.h"
#include "core/spec/convolutions.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"

namespace tw::cli {

PreparedTrial prepareTrial(const sweep::SweepFile &sweep, const search::Params &params) {
  PreparedTrial out;
  try {
    out.config = sweep::trialConfig(sweep, params);
    const spec::ModelSpec model = spec::parseModelYaml(out.config.modelYaml, out.config.modelFile);
    const spec::Analysis analysis = spec::analyze(model);
    if (!analysis.ok()) {
      out.message = spec::formatDiagnostics(analysis.diagnostics);
      return out;
    }
    const validate::RunCheck check = validate::validateRun(out.config, analysis);
    if (!check.ok()) {
      out.message = spec::formatDiagnostics(check.diagnostics);
      return out;
    }
    out.parameters = analysis.totalParams;
    out.convolutional = spec::hasConvolution(model);
    out.memoryBytes = check.memory.total();
    out.ok = true;
  } catch (const spec::SpecError &e) {
    out.message = spec::formatDiagnostics(e.diagnostics());
  } catch (const std::exception &e) {
    out.message = e.what();
  }
  return out;
}

}  // namespace tw::cli
