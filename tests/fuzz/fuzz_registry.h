#pragma once
// The replay build's table of harnesses (fuzz_target.h), read by test_fuzz_regressions.

#include "tests/fuzz/fuzz_target.h"

#include <map>
#include <stdexcept>
#include <string>

namespace tw::fuzz {

// What fail() throws in the replay build. Not a std::runtime_error, so that a harness's own
// check inside expectRefusalOnly is never mistaken for the reader refusing its input.
struct ContractBroken : std::logic_error {
  using std::logic_error::logic_error;
};

const std::map<std::string, Harness> &harnesses();

}  // namespace tw::fuzz
