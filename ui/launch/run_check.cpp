#include "ui/launch/run_check.h"

#include "core/config/run_config.h"
#include "core/data/data_splits.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/validate_run.h"

namespace tw::ui {

QString runFileProblems(const QString &yaml, const QString &path) {
  try {
    const config::RunConfig config = config::parseRunConfig(yaml.toStdString(), path.toStdString());
    const spec::Analysis analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, "model"));
    if (!analysis.ok()) return QString::fromStdString(spec::formatDiagnostics(analysis.diagnostics));
    std::vector<spec::Diagnostic> problems = validate::validateRun(config, analysis).diagnostics;
    // The file is not written yet; the field says where the problem is on the form.
    for (spec::Diagnostic &d : problems) d.where = {};
    return QString::fromStdString(spec::formatDiagnostics(problems));
  } catch (const spec::SpecError &e) {
    return QString::fromStdString(spec::formatDiagnostics(e.diagnostics()));
  } catch (const std::exception &e) {
    return QString::fromStdString(e.what());
  }
}

ClassFit runClassFit(const QString &yaml, const QString &path) {
  ClassFit fit;
  try {
    const config::RunConfig config = config::parseRunConfig(yaml.toStdString(), path.toStdString());
    const spec::Analysis analysis = spec::analyze(spec::parseModelYaml(config.modelYaml, "model"));
    const spec::NodeInfo *output = analysis.ok() ? analysis.find(analysis.output) : nullptr;
    if (output && output->outputShape.size() == 1) fit.modelClasses = output->outputShape.front();
    fit.dataClasses = data::dataClassCount(config.data);
  } catch (const std::exception &) {
    // runFileProblems says what is wrong with the file; there is no fit to offer.
  }
  return fit;
}

}  // namespace tw::ui
