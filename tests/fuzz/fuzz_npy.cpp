// .npy arrays (shard members): the header dictionary, dtype, shape and the body's length.
#include "core/data/npy.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(npy) {
  tw::fuzz::expectRefusalOnly("fuzz.npy", [&] { tw::data::parseNpy(tw::fuzz::bytes(data, size), "fuzz.npy"); });
  return 0;
}
