#include "core/engine/dimension_builders.h"

#include "core/spec/param.h"

namespace tw::engine {

namespace {

using spec::getBool;
using spec::getInt;
using spec::getInts;

BuiltOp stateless(std::function<torch::Tensor(const torch::Tensor &)> fn) {
  BuiltOp op;
  op.forward = [fn = std::move(fn)](const std::vector<torch::Tensor> &in) { return fn(in[0]); };
  return op;
}

}  // namespace

// The dims are the ones analysis checked (torch numbering, negatives allowed), so torch resolves
// them exactly as the shape rule did.
BuiltOp buildTranspose(const spec::NodeInfo &node) {
  const int64_t a = getInt(node.params, "dim0"), b = getInt(node.params, "dim1");
  return stateless([a, b](const torch::Tensor &x) { return x.transpose(a, b); });
}

BuiltOp buildPermute(const spec::NodeInfo &node) {
  std::vector<int64_t> dims = getInts(node.params, "dims");
  // Without the batch's leading 0 (the short form), put it back: the batch stays first.
  if (dims.size() == node.inputShapes.at(0).size()) dims.insert(dims.begin(), 0);
  return stateless([dims](const torch::Tensor &x) { return x.permute(dims); });
}

BuiltOp buildMax(const spec::NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  const bool keep = getBool(node.params, "keepdim");
  return stateless([dim, keep](const torch::Tensor &x) { return std::get<0>(x.max(dim, keep)); });
}

BuiltOp buildMean(const spec::NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  const bool keep = getBool(node.params, "keepdim");
  return stateless([dim, keep](const torch::Tensor &x) { return x.mean(dim, keep); });
}

BuiltOp buildSum(const spec::NodeInfo &node) {
  const int64_t dim = getInt(node.params, "dim");
  const bool keep = getBool(node.params, "keepdim");
  return stateless([dim, keep](const torch::Tensor &x) { return x.sum(dim, keep); });
}

}  // namespace tw::engine
