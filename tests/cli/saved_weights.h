#pragma once
// The weights a run saved (artifacts/model.pt), read back with LibTorch, and how far two runs'
// weights are apart.

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

// Every tensor of a saved module, by its dotted name (submodules are nested archives).
inline void collect(torch::serialize::InputArchive &archive, const std::string &prefix,
             std::map<std::string, torch::Tensor> &weights) {
  for (const auto &key : archive.keys()) {
    torch::Tensor t;
    torch::serialize::InputArchive nested;
    if (archive.try_read(key, t)) weights[prefix + key] = t;
    else if (archive.try_read(key, nested)) collect(nested, prefix + key + ".", weights);
  }
}

inline std::map<std::string, torch::Tensor> loadWeights(const std::string &path) {
  torch::serialize::InputArchive archive;
  archive.load_from(path);
  std::map<std::string, torch::Tensor> weights;
  collect(archive, "", weights);
  return weights;
}

// The largest absolute difference between two runs' weights, NaN as soon as one tensor's is NaN,
// so that `< tolerance` fails: std::max(worst, NaN) keeps `worst` and would read a NaN weight as
// no difference at all. A tensor one side lacks fails too (map::at throws).
inline double largestDifference(const std::map<std::string, torch::Tensor> &a, const std::map<std::string, torch::Tensor> &b) {
  double worst = 0.0;
  for (const auto &[key, t] : a) {
    const double d = (t - b.at(key)).abs().max().item<double>();
    if (std::isnan(d)) return d;
    worst = std::max(worst, d);
  }
  return worst;
}
