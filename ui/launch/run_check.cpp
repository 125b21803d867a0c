#include "ui/launch/run_check.h"

#include "core/config/run_config.h"
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

}  // namespace tw::ui
