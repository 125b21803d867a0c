#include "core/engine/augment.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tw::engine {

namespace {

// Uniform in [0, 1) from the top 53 bits: the same numbers on every standard library.
double uniform(std::mt19937_64 &rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
int64_t uniformInt(std::mt19937_64 &rng, int64_t lo, int64_t hi) {  // inclusive
  return lo + static_cast<int64_t>(uniform(rng) * static_cast<double>(hi - lo + 1));
}

}  // namespace

Augment::Augment(const config::DataOptions &options)
    : m_cropPadding(options.cropPadding), m_flip(options.flip), m_erase(options.erase) {}

torch::Tensor Augment::apply(const torch::Tensor &images, uint64_t seed) const {
  if (!active() || images.dim() != 4) return images;
  std::mt19937_64 rng(seed);
  const int64_t n = images.size(0), h = images.size(2), w = images.size(3);
  torch::Tensor out = images.clone();
  torch::Tensor padded;
  if (m_cropPadding > 0) {
    const int64_t p = m_cropPadding;
    padded = torch::constant_pad_nd(images, {p, p, p, p}, 0.0);
  }
  for (int64_t i = 0; i < n; ++i) {
    torch::Tensor example = out[i];  // a view: writes land in `out`
    if (m_cropPadding > 0) {
      const int64_t dy = uniformInt(rng, 0, 2 * m_cropPadding), dx = uniformInt(rng, 0, 2 * m_cropPadding);
      example.copy_(padded[i].slice(1, dy, dy + h).slice(2, dx, dx + w));
    }
    if (m_flip > 0.0 && uniform(rng) < m_flip) example.copy_(example.flip({2}));
    if (m_erase > 0.0 && uniform(rng) < m_erase) {
      // torchvision's RandomErasing defaults: 2-33% of the area, aspect ratio 0.3-3.3 (log-uniform).
      for (int attempt = 0; attempt < 10; ++attempt) {
        const double area = static_cast<double>(h * w) * (0.02 + 0.31 * uniform(rng));
        const double ratio = std::exp(std::log(0.3) + (std::log(3.3) - std::log(0.3)) * uniform(rng));
        const int64_t eh = static_cast<int64_t>(std::lround(std::sqrt(area * ratio)));
        const int64_t ew = static_cast<int64_t>(std::lround(std::sqrt(area / ratio)));
        if (eh < 1 || ew < 1 || eh >= h || ew >= w) continue;
        const int64_t y = uniformInt(rng, 0, h - eh), x = uniformInt(rng, 0, w - ew);
        example.slice(1, y, y + eh).slice(2, x, x + ew).zero_();
        break;
      }
    }
  }
  return out;
}

}  // namespace tw::engine
