#include "core/data/shape_images.h"

#include "core/data/random.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <vector>

namespace fs = std::filesystem;

namespace tw::data {

namespace {

const char *kClasses[] = {"circle", "square", "triangle"};

// Whether (x, y) lies inside shape `kind` centred at (cx, cy) with radius r.
bool inside(int kind, double x, double y, double cx, double cy, double r) {
  const double dx = x - cx, dy = y - cy;
  if (kind == 0) return dx * dx + dy * dy <= r * r;
  if (kind == 1) return std::abs(dx) <= r * 0.85 && std::abs(dy) <= r * 0.85;
  // An upright triangle: below the apex, above the base, inside both slanted edges.
  const double top = cy - r, bottom = cy + r * 0.8;
  if (y < top || y > bottom) return false;
  const double halfWidth = (y - top) / (bottom - top) * r;
  return std::abs(dx) <= halfWidth;
}

}  // namespace

int64_t writeShapeImages(const std::string &dir, const ShapeImageOptions &options) {
  const int size = static_cast<int>(std::clamp<int64_t>(options.size, 8, 512));
  const int channels = options.colour ? 3 : 1;
  std::mt19937_64 rng(options.seed);
  int64_t written = 0;
  std::vector<unsigned char> pixels(static_cast<size_t>(size * size * channels));
  for (int kind = 0; kind < 3; ++kind) {
    const fs::path folder = fs::path(dir) / kClasses[kind];
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) throw std::runtime_error("cannot create '" + folder.string() + "': " + ec.message());
    for (int64_t i = 0; i < options.perClass; ++i) {
      const double r = size * (0.18 + 0.14 * uniform01(rng));
      const double cx = r + (size - 2 * r) * uniform01(rng), cy = r + (size - 2 * r) * uniform01(rng);
      const double background = 40.0 * uniform01(rng);
      double colour[3];
      for (double &c : colour) c = 120.0 + 135.0 * uniform01(rng);
      for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
          const bool in = inside(kind, x + 0.5, y + 0.5, cx, cy, r);
          for (int c = 0; c < channels; ++c) {
            const double value = (in ? colour[c] : background) + 12.0 * standardNormal(rng);
            pixels[static_cast<size_t>((y * size + x) * channels + c)] =
                static_cast<unsigned char>(std::clamp(value, 0.0, 255.0));
          }
        }
      }
      char name[32];
      std::snprintf(name, sizeof name, "%03lld.png", static_cast<long long>(i));
      const std::string path = (folder / name).string();
      if (!stbi_write_png(path.c_str(), size, size, channels, pixels.data(), size * channels))
        throw std::runtime_error("cannot write '" + path + "'");
      ++written;
    }
  }
  return written;
}

}  // namespace tw::data
