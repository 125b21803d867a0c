#pragma once
// Training-time augmentation of [C, H, W] images: random crop after padding, horizontal flip,
// random erasing. The draws for a batch come from the batch's own seed (one generator, example
// after example), so a resumed run and a prefetch thread reproduce the same batches. Padded and
// erased pixels are 0 in the standardised space (the training mean), whatever the pixels' type:
// a streamed batch is cropped and flipped while still 8-bit and becomes floats in the same pass
// (image_batch.h), and gives the floats an in-memory batch of the same images would.
//
//   const AugmentOptions options = augmentOptions(config.data);
//   const std::vector<ImageAugment> draws = drawAugments(options, n, h, w, seed);
//   for (k ...) augmentImage(src + k * c * h * w, c, h, w, options.cropPadding, draws[k], identity, dst + ...);

#include "core/config/run_config.h"

#include <cstdint>
#include <vector>

namespace tw::data {

struct AugmentOptions {
  int64_t cropPadding = 0;  // data.crop_padding
  double flip = 0.0;        // data.flip
  double erase = 0.0;       // data.erase
  bool active() const { return cropPadding > 0 || flip > 0.0 || erase > 0.0; }
};

AugmentOptions augmentOptions(const config::DataOptions &data);

// What one example draws: where its crop starts in the padded image (0 .. 2 x padding), whether it
// is mirrored, and the rectangle erased afterwards (empty when none).
struct ImageAugment {
  int64_t cropY = 0, cropX = 0;
  bool flip = false;
  int64_t eraseY = 0, eraseX = 0, eraseHeight = 0, eraseWidth = 0;
};

// The draws of `n` examples of h x w from `seed`, in the order every path applies them.
std::vector<ImageAugment> drawAugments(const AugmentOptions &options, int64_t n, int64_t h, int64_t w, uint64_t seed);

// One example from `src` (c x h x w of T) into `dst` (c x h x w floats), each pixel through
// `convert` (T -> float); what the crop takes from outside the image and what is erased is 0.
template <class T, class Convert>
void augmentImage(const T *src, int64_t c, int64_t h, int64_t w, int64_t padding, const ImageAugment &a,
                  Convert convert, float *dst) {
  const int64_t shiftY = a.cropY - padding, shiftX = a.cropX - padding;
  for (int64_t ch = 0; ch < c; ++ch) {
    const T *plane = src + ch * h * w;
    for (int64_t y = 0; y < h; ++y) {
      float *row = dst + (ch * h + y) * w;
      const int64_t sy = y + shiftY;
      const bool erasedRow = y >= a.eraseY && y < a.eraseY + a.eraseHeight;
      if (sy < 0 || sy >= h) {
        for (int64_t x = 0; x < w; ++x) row[x] = 0.0f;
        continue;
      }
      const T *from = plane + sy * w;
      for (int64_t x = 0; x < w; ++x) {
        // Crop first, then the mirror of the cropped image: output x reads cropped x' = w - 1 - x.
        const int64_t sx = (a.flip ? w - 1 - x : x) + shiftX;
        row[x] = (sx < 0 || sx >= w) ? 0.0f : convert(from[sx]);
      }
      if (erasedRow)
        for (int64_t x = a.eraseX; x < a.eraseX + a.eraseWidth; ++x) row[x] = 0.0f;
    }
  }
}

// A batch of float images [n, c, h, w] augmented into `out` (the same size).
void augmentFloatImages(const float *images, int64_t n, int64_t c, int64_t h, int64_t w, const AugmentOptions &options,
                        uint64_t seed, float *out);

}  // namespace tw::data
