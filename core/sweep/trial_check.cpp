#include "core/sweep/trial_check.h"

#include "core/spec/analysis.h"
#include "core/validate/validate_run.h"

namespace tw::sweep {

namespace {

// The trial's model text is generated from the base model with the trial's values written in, so
// its line numbers mean nothing to a person; the same node in the base model file has the line
// they can open. Node ids do not change with the values.
void locateInBaseModel(const SweepFile &sweep, std::vector<spec::Diagnostic> &diagnostics) {
  if (diagnostics.empty()) return;
  std::string file;
  spec::ModelSpec base;
  try {
    const config::RunConfig baseRun = config::parseRunConfig(sweep.baseYaml, sweep.baseFile);
    file = baseRun.modelFile;
    base = spec::parseModelYaml(baseRun.modelYaml, baseRun.modelFile);
  } catch (const std::exception &) {
    // parseSweepFile loaded both already; without them the messages keep no line.
  }
  for (spec::Diagnostic &d : diagnostics) {
    const spec::Node *node = d.node.empty() ? nullptr : base.find(d.node);
    // An inline base model was re-emitted too: its lines are no better.
    d.where = node && !file.empty() ? node->locationOf(d.field) : spec::SourceLocation{file, 0, 0};
  }
}

}  // namespace

std::vector<spec::Diagnostic> checkTrial(const SweepFile &sweep, const search::Params &params) {
  config::RunConfig config;
  try {
    config = trialConfig(sweep, params);
  } catch (const config::ConfigError &e) {
    return {{{sweep.sourceFile, 0, 0}, "", "", e.what()}};
  }
  bool edited = false;
  for (const auto &entry : params) edited = edited || entry.first.rfind("model.", 0) == 0;
  std::vector<spec::Diagnostic> modelProblems;
  spec::Analysis analysis;
  try {
    analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, config.modelFile));
    modelProblems = analysis.diagnostics;
  } catch (const spec::SpecError &e) {
    modelProblems = e.diagnostics();
    analysis.diagnostics = modelProblems;  // validateRun then checks only what needs no model
  }
  if (edited) locateInBaseModel(sweep, modelProblems);

  validate::ValidateOptions options;
  options.checkData = true;
  options.checkMemory = true;
  const validate::RunCheck check = validate::validateRun(config, analysis, options);
  std::vector<spec::Diagnostic> out = modelProblems;
  out.insert(out.end(), check.diagnostics.begin(), check.diagnostics.end());
  return out;
}

}  // namespace tw::sweep
