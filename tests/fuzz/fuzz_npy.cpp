// .npy arrays (shard members): the header dictionary, dtype, shape and the body's length. An
// array that parses holds exactly the bytes its shape says, counted without overflow.
#include "core/data/npy.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(npy) {
  tw::fuzz::expectRefusalOnly("fuzz.npy", [&] {
    const tw::data::NpyArray array = tw::data::parseNpy(tw::fuzz::bytes(data, size), "fuzz.npy");
    unsigned __int128 bytes = tw::data::npyItemSize(array.type);
    bool empty = false;
    for (int64_t dim : array.shape) {
      if (dim < 0) tw::fuzz::fail("a parsed .npy has a negative dimension");
      empty = empty || dim == 0;
      if (bytes <= size) bytes *= static_cast<uint64_t>(dim);  // saturates once past the input
    }
    if (empty) bytes = 0;
    if (bytes != array.data.size()) tw::fuzz::fail("a parsed .npy holds other bytes than its shape says");
  });
  return 0;
}
