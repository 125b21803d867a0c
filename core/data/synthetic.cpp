#include "core/data/synthetic.h"

#include "core/data/random.h"

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

namespace tw::data {

namespace {

const double kPi = 3.14159265358979323846;

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

Examples emptySet(const char *what, int64_t count, int64_t classes, int64_t dims) {
  if (classes < 2)
    throw std::runtime_error(std::string(what) + ": " + std::to_string(classes) +
                             " classes (at least 2, set data.classes)");
  if (count < classes)
    throw std::runtime_error(std::string(what) + ": " + std::to_string(count) + " samples for " +
                             std::to_string(classes) + " classes (at least one each, set data.samples)");
  Examples e;
  e.task = Task::Classification;
  e.count = count;
  e.classes = classes;
  e.featureShape = {dims};
  e.features.reserve(static_cast<size_t>(count * dims));
  e.labels.reserve(static_cast<size_t>(count));
  for (int64_t k = 0; k < classes; ++k) e.classNames.push_back(std::to_string(k));
  return e;
}

}  // namespace

Examples makeSpirals(int64_t count, int64_t classes, double noise, uint64_t seed) {
  if (!(noise >= 0.0))
    throw std::runtime_error("spirals: noise " + number(noise) + " is negative");
  Examples e = emptySet("spirals", count, classes, 2);
  e.featureNames = {"x", "y"};
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t k = i % classes;
    // Position along the arm: the arm's j-th of n points, evenly from the centre to the rim.
    const int64_t n = count / classes + (k < count % classes ? 1 : 0);
    const int64_t j = i / classes;
    const double t = n > 1 ? static_cast<double>(j) / static_cast<double>(n - 1) : 0.0;
    const double angle = 2.0 * kPi * static_cast<double>(k) / static_cast<double>(classes) +
                         3.0 * kPi * t + noise * standardNormal(rng);
    e.features.push_back(static_cast<float>(t * std::cos(angle)));
    e.features.push_back(static_cast<float>(t * std::sin(angle)));
    e.labels.push_back(k);
  }
  return e;
}

Examples makeBlobs(int64_t count, int64_t classes, int64_t dims, double spread, uint64_t seed) {
  if (dims < 1) throw std::runtime_error("blobs: " + std::to_string(dims) + " dimensions (at least 1)");
  if (!(spread >= 0.0))
    throw std::runtime_error("blobs: spread " + number(spread) + " is negative");
  Examples e = emptySet("blobs", count, classes, dims);
  for (int64_t d = 0; d < dims; ++d) e.featureNames.push_back("x" + std::to_string(d));
  std::mt19937_64 rng(seed);
  // The centres come first from the generator, so they do not depend on `count`.
  std::vector<double> centres(static_cast<size_t>(classes * dims));
  for (double &c : centres) c = -10.0 + 20.0 * uniform01(rng);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t k = i % classes;
    for (int64_t d = 0; d < dims; ++d)
      e.features.push_back(static_cast<float>(centres[static_cast<size_t>(k * dims + d)] +
                                              spread * standardNormal(rng)));
    e.labels.push_back(k);
  }
  return e;
}

Examples makeSyntheticSet(const std::string &kind, int64_t count, int64_t classes, double noise, int64_t runSeed) {
  const uint64_t seed = mixSeed(static_cast<uint64_t>(runSeed), kSyntheticStream);
  if (kind == "spirals") return makeSpirals(count, classes, noise, seed);
  if (kind == "blobs") return makeBlobs(count, classes, 2, noise, seed);
  throw std::runtime_error("unknown synthetic set '" + kind + "' (spirals or blobs)");
}

}  // namespace tw::data
