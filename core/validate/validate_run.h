#pragma once
// Everything that can be known to be wrong with a run before it starts, checked in one place
// without LibTorch: `torchwright check`, `train` and `launch`, Studio's Launch page and the
// engine itself call this one function, so a bad run is refused before a run row exists and
// the rules are never written twice.
//
//   auto model = tw::spec::parseModelYaml(config.modelYaml, config.modelFile);
//   auto analysis = tw::spec::analyze(model);      // the model's own problems come from here
//   tw::validate::RunCheck check = tw::validate::validateRun(config, analysis);
//   if (!check.ok()) print(tw::spec::formatDiagnostics(check.diagnostics));
//
// The rules: the loss fits the task; train.monitor is a val/ metric the task records;
// multistep needs milestones; Nesterov needs momentum; label smoothing is cross_entropy's;
// fp16 and the nccl backend need a CUDA device; a CSV table needs data.target; early stopping
// and the plateau schedule need a validation split;
// train.device names a device this machine has (cuda:N below its GPU count); the model has one
// Input; the data source exists and is readable; data.batch_size is at most the training split
// (where its size is known before reading the data: generated sets, IDX files, shard sets); the memory
// estimate fits the device.

#include "core/config/run_config.h"
#include "core/spec/analysis.h"
#include "core/spec/diagnostic.h"
#include "core/validate/machine.h"
#include "core/validate/memory_estimate.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::validate {

struct ValidateOptions {
  bool checkData = true;     // the data source exists and is readable (no example is read)
  bool checkMemory = true;   // the memory estimate fits the device it would train on
  // The machine to compare against; unset: detectMachine() (NVML, /proc).
  std::optional<Machine> machine;
};

struct RunCheck {
  std::vector<spec::Diagnostic> diagnostics;  // every problem; field is the run-file key
  MemoryEstimate memory;                      // filled when the model's analysis is valid
  bool ok() const { return diagnostics.empty(); }
};

// `analysis` is the model's (spec::analyze); when it has problems of its own, only the rules
// that do not need the model are checked.
RunCheck validateRun(const config::RunConfig &config, const spec::Analysis &analysis,
                     const ValidateOptions &options = {});

// Throws std::runtime_error with every problem, one per line, when validateRun finds any.
void validateRunOrThrow(const config::RunConfig &config, const spec::Analysis &analysis,
                        const ValidateOptions &options = {});

// The device kinds train.device may name: "cpu", "cuda", "cuda:N". Returns the problem with the
// name itself (not with this machine), or "" when it reads. `index` is N, or -1 for "cuda".
std::string parseDeviceName(const std::string &name, bool *cuda, int *index);

}  // namespace tw::validate
