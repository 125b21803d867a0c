#include "core/data/image_augment.h"

#include <cmath>
#include <random>

namespace tw::data {

namespace {

// Uniform in [0, 1) from the top 53 bits: the same numbers on every standard library.
double uniform(std::mt19937_64 &rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
int64_t uniformInt(std::mt19937_64 &rng, int64_t lo, int64_t hi) {  // inclusive
  return lo + static_cast<int64_t>(uniform(rng) * static_cast<double>(hi - lo + 1));
}

}  // namespace

AugmentOptions augmentOptions(const config::DataOptions &data) {
  AugmentOptions options;
  options.cropPadding = data.cropPadding;
  options.flip = data.flip;
  options.erase = data.erase;
  return options;
}

std::vector<ImageAugment> drawAugments(const AugmentOptions &options, int64_t n, int64_t h, int64_t w, uint64_t seed) {
  std::vector<ImageAugment> draws(static_cast<size_t>(n));
  std::mt19937_64 rng(seed);
  const int64_t p = options.cropPadding;
  for (ImageAugment &a : draws) {
    a.cropY = a.cropX = p;  // no crop: the image where it is
    if (p > 0) {
      a.cropY = uniformInt(rng, 0, 2 * p);
      a.cropX = uniformInt(rng, 0, 2 * p);
    }
    if (options.flip > 0.0) a.flip = uniform(rng) < options.flip;
    if (options.erase > 0.0 && uniform(rng) < options.erase) {
      // torchvision's RandomErasing defaults: 2-33% of the area, aspect ratio 0.3-3.3 (log-uniform).
      for (int attempt = 0; attempt < 10; ++attempt) {
        const double area = static_cast<double>(h * w) * (0.02 + 0.31 * uniform(rng));
        const double ratio = std::exp(std::log(0.3) + (std::log(3.3) - std::log(0.3)) * uniform(rng));
        const int64_t eh = static_cast<int64_t>(std::lround(std::sqrt(area * ratio)));
        const int64_t ew = static_cast<int64_t>(std::lround(std::sqrt(area / ratio)));
        if (eh < 1 || ew < 1 || eh >= h || ew >= w) continue;
        a.eraseY = uniformInt(rng, 0, h - eh);
        a.eraseX = uniformInt(rng, 0, w - ew);
        a.eraseHeight = eh;
        a.eraseWidth = ew;
        break;
      }
    }
  }
  return draws;
}

void augmentFloatImages(const float *images, int64_t n, int64_t c, int64_t h, int64_t w, const AugmentOptions &options,
                        uint64_t seed, float *out) {
  const std::vector<ImageAugment> draws = drawAugments(options, n, h, w, seed);
  const int64_t size = c * h * w;
  for (int64_t k = 0; k < n; ++k)
    augmentImage(images + k * size, c, h, w, options.cropPadding, draws[static_cast<size_t>(k)],
                 [](float v) { return v; }, out + k * size);
}

}  // namespace tw::data
