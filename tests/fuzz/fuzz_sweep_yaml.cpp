// Sweep files: syntax, the space against the config table, samplers and pruners against the
// catalog, budget and objectives. The base is inline or absent (an external objective), so the
// fuzzer reaches everything without other files.
#include "core/sweep/sweep_file.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(sweep_yaml) {
  const std::string text = tw::fuzz::bytes(data, size);
  tw::fuzz::expectRefusalOnly("fuzz.sweep.yaml", [&] {
    const bool requireBase = size > 0 && (data[0] & 1) == 0;
    tw::sweep::parseSweepFile(text, tw::fuzz::scratchDir() + "/fuzz.sweep.yaml", {}, requireBase);
  });
  return 0;
}
