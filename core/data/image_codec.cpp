#include "core/data/image_codec.h"

#include <spng.h>
#include <stb/stb_image.h>
#include <stb/stb_image_resize.h>
#include <turbojpeg.h>

#include <algorithm>
#include <array>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

namespace tw::data {

namespace {

std::array<float, 256> byteTable() {
  std::array<float, 256> t{};
  for (int v = 0; v < 256; ++v) t[static_cast<size_t>(v)] = static_cast<float>(v / 255.0);
  return t;
}

bool isJpeg(const unsigned char *b, size_t n) { return n >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF; }
bool isPng(const unsigned char *b, size_t n) {
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  return n >= 8 && std::equal(kSignature, kSignature + 8, b);
}

std::runtime_error cannotDecode(const std::string &where, const std::string &format, const std::string &reason) {
  return std::runtime_error(where + ": cannot decode (" + format + ": " + reason + ")");
}

// One decompressor per thread: creating one costs more than decoding a small image, and a handle
// must not be shared between threads.
struct JpegHandle {
  tjhandle handle = tjInitDecompress();
  ~JpegHandle() {
    if (handle) tjDestroy(handle);
  }
};
tjhandle jpegHandle() {
  thread_local JpegHandle h;
  return h.handle;
}

struct PngContext {
  spng_ctx *ctx = spng_ctx_new(0);
  ~PngContext() { spng_ctx_free(ctx); }
};

constexpr int kMaxImageSide = 65535;

// stb's conversion to gray, so a colour PNG or BMP gives the gray it always gave.
uint8_t luma(const uint8_t *rgb) { return static_cast<uint8_t>((rgb[0] * 77 + rgb[1] * 150 + rgb[2] * 29) >> 8); }

// Interleaved pixels (HWC, `have` channels) to planes (CHW, `channels`), resized first when the
// size differs from the one asked for.
void toPlanes(const uint8_t *pixels, int w, int h, int have, int channels, int width, int height,
              const std::string &where, uint8_t *out) {
  // A side no real image has (JPEG's own limit): stb lets 16,777,216 through, and resizing a
  // 1 x 16,777,216 PSD that claims it needs gigabytes (found by tests/fuzz/image).
  if (w > kMaxImageSide || h > kMaxImageSide)
    throw std::runtime_error(where + ": " + std::to_string(w) + "x" + std::to_string(h) +
                             " pixels; images wider or taller than " + std::to_string(kMaxImageSide) + " are refused");
  std::vector<uint8_t> resized;
  if (w != width || h != height) {
    resized.resize(static_cast<size_t>(width) * height * have);
    if (!stbir_resize_uint8(pixels, w, h, 0, resized.data(), width, height, 0, have))
      throw std::runtime_error(where + ": cannot resize " + std::to_string(w) + "x" + std::to_string(h) + " to " +
                               std::to_string(width) + "x" + std::to_string(height));
    pixels = resized.data();
  }
  const size_t plane = static_cast<size_t>(width) * static_cast<size_t>(height);
  const size_t stride = static_cast<size_t>(have);
  if (have == channels) {
    for (size_t c = 0; c < stride; ++c)
      for (size_t p = 0; p < plane; ++p) out[c * plane + p] = pixels[p * stride + c];
  } else if (channels == 1) {  // have 3
    for (size_t p = 0; p < plane; ++p) out[p] = luma(pixels + p * stride);
  } else {  // have 1, want 3
    for (size_t c = 0; c < 3; ++c)
      for (size_t p = 0; p < plane; ++p) out[c * plane + p] = pixels[p];
  }
}

bool jpegHeader(const unsigned char *bytes, size_t size, ImageHeader *header) {
  int w = 0, h = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(jpegHandle(), bytes, static_cast<unsigned long>(size), &w, &h, &subsampling, &colorspace) != 0)
    return false;
  header->width = w;
  header->height = h;
  header->components = colorspace == TJCS_GRAY ? 1 : (colorspace == TJCS_CMYK || colorspace == TJCS_YCCK ? 4 : 3);
  return true;
}

// The smallest of libjpeg-turbo's DCT scalings (1/8 .. 1) that still gives at least the size
// asked for: decoding at a quarter of the size costs a fraction of decoding whole and resizing.
tjscalingfactor jpegScaling(int w, int h, int width, int height) {
  int count = 0;
  const tjscalingfactor *factors = tjGetScalingFactors(&count);
  tjscalingfactor best{1, 1};
  int bestW = w;
  for (int i = 0; factors && i < count; ++i) {
    const int sw = TJSCALED(w, factors[i]), sh = TJSCALED(h, factors[i]);
    if (sw >= width && sh >= height && sw < bestW) {
      best = factors[i];
      bestW = sw;
    }
  }
  return best;
}

void decodeJpeg(const unsigned char *bytes, size_t size, const std::string &where, int channels, int width,
                int height, uint8_t *out) {
  ImageHeader header;
  tjhandle tj = jpegHandle();
  if (!tj) throw cannotDecode(where, "JPEG", "libjpeg-turbo could not start");
  if (!jpegHeader(bytes, size, &header)) throw cannotDecode(where, "JPEG", tjGetErrorStr2(tj));
  const tjscalingfactor scale = jpegScaling(header.width, header.height, width, height);
  const int w = TJSCALED(header.width, scale), h = TJSCALED(header.height, scale);
  const int have = channels == 1 ? 1 : 3;
  std::vector<uint8_t> pixels(static_cast<size_t>(w) * h * have);
  // Warnings (a truncated file, bad data) stop decoding: the rest of such an image is grey.
  if (tjDecompress2(tj, bytes, static_cast<unsigned long>(size), pixels.data(), w, 0, h,
                    have == 1 ? TJPF_GRAY : TJPF_RGB, TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT) != 0)
    throw cannotDecode(where, "JPEG", tjGetErrorStr2(tj));
  toPlanes(pixels.data(), w, h, have, channels, width, height, where, out);
}

bool pngHeader(const unsigned char *bytes, size_t size, ImageHeader *header) {
  PngContext png;
  spng_ihdr ihdr{};
  if (!png.ctx || spng_set_png_buffer(png.ctx, bytes, size) != 0 || spng_get_ihdr(png.ctx, &ihdr) != 0) return false;
  header->width = static_cast<int>(ihdr.width);
  header->height = static_cast<int>(ihdr.height);
  switch (ihdr.color_type) {
    case SPNG_COLOR_TYPE_GRAYSCALE: header->components = 1; break;
    case SPNG_COLOR_TYPE_GRAYSCALE_ALPHA: header->components = 2; break;
    case SPNG_COLOR_TYPE_TRUECOLOR_ALPHA: header->components = 4; break;
    default: header->components = 3;  // truecolour, palette
  }
  return true;
}

void decodePng(const unsigned char *bytes, size_t size, const std::string &where, int channels, int width,
               int height, uint8_t *out) {
  PngContext png;
  spng_ihdr ihdr{};
  int err = png.ctx ? spng_set_png_buffer(png.ctx, bytes, size) : SPNG_EMEM;
  if (err == 0) err = spng_get_ihdr(png.ctx, &ihdr);
  size_t length = 0;
  if (err == 0) err = spng_decoded_image_size(png.ctx, SPNG_FMT_RGB8, &length);
  std::vector<uint8_t> pixels;
  if (err == 0) {
    pixels.resize(length);
    // RGB8 whatever the file holds (16-bit, palette, gray): a gray image comes back with R = G = B,
    // whose luma is the gray value itself.
    err = spng_decode_image(png.ctx, pixels.data(), length, SPNG_FMT_RGB8, 0);
  }
  if (err != 0) throw cannotDecode(where, "PNG", spng_strerror(err));
  toPlanes(pixels.data(), static_cast<int>(ihdr.width), static_cast<int>(ihdr.height), 3, channels, width, height,
           where, out);
}

void decodeOther(const unsigned char *bytes, size_t size, const std::string &where, int channels, int width,
                 int height, uint8_t *out) {
  int w = 0, h = 0, comp = 0;
  std::unique_ptr<unsigned char, void (*)(void *)> pixels(
      stbi_load_from_memory(bytes, static_cast<int>(size), &w, &h, &comp, channels), stbi_image_free);
  if (!pixels) {
    // stb keeps one global reason: with several decoding threads it may be a neighbour's; the
    // image named is always the one that failed.
    const char *reason = stbi_failure_reason();
    throw cannotDecode(where, "stb", reason ? reason : "unknown reason");
  }
  toPlanes(pixels.get(), w, h, channels, channels, width, height, where, out);
}

}  // namespace

const std::array<float, 256> kByteToUnit = byteTable();

bool readImageHeader(const unsigned char *bytes, size_t size, ImageHeader *header) {
  bool known = false;
  if (isJpeg(bytes, size))
    known = jpegHeader(bytes, size, header);
  else if (isPng(bytes, size))
    known = pngHeader(bytes, size, header);
  else
    known = size <= static_cast<size_t>(std::numeric_limits<int>::max()) &&
            stbi_info_from_memory(bytes, static_cast<int>(size), &header->width, &header->height,
                                  &header->components) != 0;
  // stb's header readers pass some formats' sizes through unchecked (found by tests/fuzz/image:
  // 9 x -2147483636): a size no decoder could produce is no image.
  return known && header->width > 0 && header->height > 0 && header->components > 0;
}

void decodeImage(const unsigned char *bytes, size_t size, const std::string &where, int channels, int width,
                 int height, uint8_t *out) {
  if (channels != 1 && channels != 3) throw std::runtime_error(where + ": decode to 1 or 3 channels, not " +
                                                               std::to_string(channels));
  if (isJpeg(bytes, size)) {
    ImageHeader h;
    // CMYK JPEGs are rare and libjpeg-turbo will not turn them into RGB: stb does.
    if (jpegHeader(bytes, size, &h) && h.components == 4) return decodeOther(bytes, size, where, channels, width, height, out);
    return decodeJpeg(bytes, size, where, channels, width, height, out);
  }
  if (isPng(bytes, size)) return decodePng(bytes, size, where, channels, width, height, out);
  decodeOther(bytes, size, where, channels, width, height, out);
}

}  // namespace tw::data
