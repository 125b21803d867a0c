#pragma once
// A node's 2-D parameters as the builders and both exporters read them: one number means the
// same in both dimensions, and pooling's stride defaults to its kernel size (analysis fills it in;
// this covers a spec that carries no stride at all). Engine-internal, torch-free.

#include "core/spec/param.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::engine {

inline std::vector<int64_t> pairParam(const spec::ParamMap &params, const std::string &name) {
  std::vector<int64_t> v = spec::getInts(params, name);
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2)
    throw std::runtime_error("parameter '" + name + "' has " + std::to_string(v.size()) + " values, expected 2");
  return v;
}

inline std::vector<int64_t> poolStrideParam(const spec::ParamMap &params) {
  return spec::has(params, "stride") ? pairParam(params, "stride") : pairParam(params, "kernel_size");
}

}  // namespace tw::engine
