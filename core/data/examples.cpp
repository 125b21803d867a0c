#include "core/data/examples.h"

#include <cstring>
#include <stdexcept>

namespace tw::data {

namespace {

bool hostIsLittleEndian() {
  const uint16_t probe = 1;
  uint8_t first = 0;
  std::memcpy(&first, &probe, 1);
  return first == 1;
}

// The fingerprint must not depend on the host's byte order, or the same data would fingerprint
// differently on another machine. Every supported host is little-endian, so the common path hashes
// the vectors in place (no copy of a 100 MB feature matrix); the other path swaps a copy.
template <typename T>
void addLittleEndian(Fingerprint &fp, const std::string &label, const std::vector<T> &values) {
  if (hostIsLittleEndian()) {
    fp.addBytes(label, values.data(), values.size() * sizeof(T));
    return;
  }
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) {
    const auto *raw = reinterpret_cast<const uint8_t *>(&values[i]);
    for (size_t b = 0; b < sizeof(T); ++b) bytes[i * sizeof(T) + b] = raw[sizeof(T) - 1 - b];
  }
  fp.addBytes(label, bytes.data(), bytes.size());
}

// Names joined with a NUL, which no name from a CSV header or a folder can contain.
std::string joinNames(const std::vector<std::string> &names) {
  std::string joined;
  for (const std::string &name : names) {
    joined += name;
    joined += '\0';
  }
  return joined;
}

}  // namespace

Task parseTask(const std::string &name) {
  if (name == "classification") return Task::Classification;
  if (name == "regression") return Task::Regression;
  if (name == "next-token") return Task::NextToken;
  throw std::runtime_error("unknown task '" + name + "' (use classification, regression or next-token)");
}

const char *taskName(Task task) {
  switch (task) {
    case Task::Regression: return "regression";
    case Task::NextToken: return "next-token";
    case Task::Classification: break;
  }
  return "classification";
}

int64_t Examples::featureSize() const {
  if (featureShape.empty()) return 0;
  int64_t size = 1;
  for (int64_t d : featureShape) size *= d;
  return size;
}

Examples select(const Examples &all, const std::vector<int64_t> &indices) {
  Examples out;
  out.task = all.task;
  out.featureShape = all.featureShape;
  out.targetDim = all.targetDim;
  out.classes = all.classes;
  out.classNames = all.classNames;
  out.featureNames = all.featureNames;
  out.count = static_cast<int64_t>(indices.size());

  const int64_t fs = all.featureSize();
  const bool hasLabels = !all.labels.empty();
  const bool hasTargets = !all.targets.empty();
  const bool hasFeatures = !all.features.empty();  // a streamed source's examples carry labels only
  if (hasFeatures) out.features.reserve(static_cast<size_t>(out.count * fs));
  if (hasLabels) out.labels.reserve(indices.size());
  if (hasTargets) out.targets.reserve(static_cast<size_t>(out.count * all.targetDim));
  for (int64_t i : indices) {
    if (i < 0 || i >= all.count)
      throw std::out_of_range("select: index " + std::to_string(i) + " is outside 0.." +
                              std::to_string(all.count - 1));
    if (hasFeatures)
      out.features.insert(out.features.end(), all.features.begin() + i * fs, all.features.begin() + (i + 1) * fs);
    if (hasLabels) out.labels.push_back(all.labels[static_cast<size_t>(i)]);
    if (hasTargets)
      out.targets.insert(out.targets.end(), all.targets.begin() + i * all.targetDim,
                         all.targets.begin() + (i + 1) * all.targetDim);
  }
  return out;
}

void addToFingerprint(Fingerprint &fp, const std::string &label, const Examples &e) {
  fp.addOption(label + "/task", std::string(taskName(e.task)));
  fp.addOption(label + "/count", e.count);
  fp.addOption(label + "/classes", e.classes);
  fp.addOption(label + "/target-dim", e.targetDim);
  addLittleEndian(fp, label + "/feature-shape", e.featureShape);
  fp.addOption(label + "/class-names", joinNames(e.classNames));
  fp.addOption(label + "/feature-names", joinNames(e.featureNames));
  addLittleEndian(fp, label + "/features", e.features);
  addLittleEndian(fp, label + "/labels", e.labels);
  addLittleEndian(fp, label + "/targets", e.targets);
}

}  // namespace tw::data
