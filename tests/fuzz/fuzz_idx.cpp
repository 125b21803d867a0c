// IDX files (the MNIST family's format): headers that lie about their counts and sizes, and
// truncated bodies. At most 16 examples are read, so a header may not ask for more memory.
#include "core/data/idx.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(idx) {
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz-idx3-ubyte");
  tw::fuzz::expectRefusalOnly(path, [&] { tw::data::readIdxImagesLayout(path, 16); });
  tw::fuzz::expectRefusalOnly(path, [&] { tw::data::readIdxImages(path, 16); });
  tw::fuzz::expectRefusalOnly(path, [&] { tw::data::readIdxLabels(path, 16, 10); });
  return 0;
}
