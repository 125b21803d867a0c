#pragma once
// A sampled configuration checked before any process starts: the trial's run configuration and
// model built (trialConfig), the model analysed (spec::analyze) and the run validated
// (validate::validateRun, with the data and memory checks), so that a trial whose model does not
// fit (a shape mismatch) is recorded FAILED with these messages instead of crashing a worker.
//
//   auto problems = checkTrial(sweep, params);
//   if (!problems.empty()) failTrial(number, spec::formatDiagnostics(problems));

#include "core/sweep/sweep_file.h"

#include <vector>

namespace tw::sweep {

// Every problem, empty when the trial may start. A model problem names the node and field, at the
// node's line in the base model file (the trial's own model text is generated, not written).
std::vector<spec::Diagnostic> checkTrial(const SweepFile &sweep, const search::Params &params);

}  // namespace tw::sweep
