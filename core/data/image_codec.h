#pragma once
// Encoded images (a file's bytes, a shard member) decoded into 8-bit planes: the one decoder every
// image source uses, so a folder, a packed shard set and a preview see the same pixels.
//
//   ImageHeader h;
//   if (!readImageHeader(bytes.data(), bytes.size(), &h)) ...;      // size and colour, no pixels
//   std::vector<uint8_t> chw(3 * 64 * 64);
//   decodeImage(bytes.data(), bytes.size(), "cat/7.jpg", 3, 64, 64, chw.data());
//
// JPEG goes through libjpeg-turbo (with its DCT scaling when the image is at least twice the size
// asked for), PNG through libspng, anything else (BMP) through stb_image. Channel conversion is
// stb's: RGB to gray by luma ((77 R + 150 G + 29 B) >> 8; a colour JPEG gives its Y plane), gray to
// RGB by copying, alpha dropped. A different size is resized (stb_image_resize). A truncated or
// corrupt file is an error, never a half-grey image.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace tw::data {

struct ImageHeader {
  int width = 0, height = 0;
  int components = 0;  // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA (or CMYK)
};

// From the header alone; false when the bytes are no image the decoders know.
bool readImageHeader(const unsigned char *bytes, size_t size, ImageHeader *header);

// channels x height x width bytes (CHW) into `out`. Throws std::runtime_error beginning with
// `where`: "photos/cat/7.jpg: cannot decode (JPEG: Premature end of JPEG file)".
void decodeImage(const unsigned char *bytes, size_t size, const std::string &where, int channels, int width,
                 int height, uint8_t *out);

// v / 255 as the float every source gives a byte (IDX, images, shards): one table, so a pixel
// is the same float whichever source it came through.
extern const std::array<float, 256> kByteToUnit;

}  // namespace tw::data
