#include "core/sweep/sweep_file.h"

namespace tw::sweep {

std::string baseHash(const SweepFile &sweep) {
  if (sweep.baseYaml.empty()) return {};
  return config::configHash(config::parseRunConfig(sweep.baseYaml, sweep.baseFile));
}

}  // namespace tw::sweep
