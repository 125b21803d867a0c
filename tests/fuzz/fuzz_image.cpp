// Image bytes (JPEG through libjpeg-turbo, PNG through libspng, BMP and the rest through stb):
// the header reader, then a decode to a small fixed size, as an image folder's loader does.
#include "core/data/image_codec.h"
#include "tests/fuzz/fuzz_target.h"

#include <vector>

TW_FUZZ_TARGET(image) {
  tw::data::ImageHeader header;
  if (!tw::data::readImageHeader(data, size, &header)) return 0;
  if (header.width <= 0 || header.height <= 0)
    tw::fuzz::fail("readImageHeader accepted an image of " + std::to_string(header.width) + "x" +
                   std::to_string(header.height));
  // Decoding allocates width x height x components before resizing: keep it to what a real
  // folder would hold so the fuzzer looks for bugs rather than for the memory limit.
  if (static_cast<int64_t>(header.width) * header.height > 4096 * 4096) return 0;
  const int channels = (size % 2) ? 1 : 3;
  std::vector<uint8_t> out(static_cast<size_t>(channels) * 24 * 16);
  tw::fuzz::expectRefusalOnly("fuzz.img", [&] { tw::data::decodeImage(data, size, "fuzz.img", channels, 24, 16, out.data()); });
  return 0;
}
