#include "core/engine/dataset.h"

#include "core/spec/param.h"

#include <memory>
#include <utility>

namespace tw::engine {

namespace {

// A tensor over a vector's memory, keeping the vector alive as long as the tensor: the one
// conversion from core/data's examples, with no copy of the pixels.
template <typename T>
torch::Tensor adopt(std::vector<T> &&values, std::vector<int64_t> shape, torch::ScalarType type) {
  auto owner = std::make_shared<std::vector<T>>(std::move(values));
  T *data = owner->data();
  return torch::from_blob(data, shape, [owner](void *) mutable { owner.reset(); }, torch::TensorOptions(type));
}

Split toTensors(data::Examples &&e) {
  Split split;
  std::vector<int64_t> shape{e.count};
  shape.insert(shape.end(), e.featureShape.begin(), e.featureShape.end());
  split.inputs = adopt(std::move(e.features), shape, torch::kFloat);
  if (e.task == Task::Classification)
    split.targets = adopt(std::move(e.labels), {e.count}, torch::kLong);
  else
    split.targets = adopt(std::move(e.targets), {e.count, e.targetDim}, torch::kFloat);
  return split;
}

}  // namespace

data::ModelUse modelUse(const spec::Analysis &analysis) {
  data::ModelUse use;
  for (const spec::NodeInfo &node : analysis.nodes) {
    if (node.op == "Input" && spec::has(node.params, "dtype") && spec::getString(node.params, "dtype") == "int64")
      use.indexInputs = true;
    // Only indices reach an Embedding (the analysis refuses floats there), and the one Input is
    // where they come from.
    if (node.op == "Embedding") use.embeddings.push_back({node.id, spec::getInt(node.params, "num_embeddings")});
  }
  return use;
}

Dataset loadDataset(const config::DataOptions &options, int64_t seed, const data::ModelUse &use) {
  data::DataSplits splits = data::loadDataSplits(options, seed, use);
  Dataset out;
  out.task = splits.train.task;
  out.classes = splits.train.classes;
  out.targetDim = splits.train.targetDim;
  out.classNames = splits.train.classNames;
  out.inputShape = splits.train.featureShape;
  out.images = splits.images;
  out.fingerprint = std::move(splits.fingerprint);
  out.source = std::move(splits.source);
  out.notes = std::move(splits.notes);
  out.preprocessing = std::move(splits.preprocessing);
  out.train = toTensors(std::move(splits.train));
  out.val = toTensors(std::move(splits.val));
  out.test = toTensors(std::move(splits.test));
  return out;
}

BatchOrder::BatchOrder(int64_t examples, int64_t batchSize, bool shuffle, int64_t seed, int64_t epoch)
    : m_examples(examples), m_batchSize(std::max<int64_t>(1, batchSize)) {
  if (shuffle && examples > 1) {
    const uint64_t s = mixSeed(mixSeed(static_cast<uint64_t>(seed), data::kShuffleStream), static_cast<uint64_t>(epoch));
    std::vector<int64_t> order = permutation(examples, s);
    m_order = torch::from_blob(order.data(), {examples}, torch::kLong).clone();
  }
}

void BatchOrder::shard(int rank, int world) {
  m_rank = rank;
  m_world = std::max(1, world);
}

torch::Tensor BatchOrder::indices(int64_t b) const {
  if (!m_order.defined()) return {};
  return m_order.slice(0, begin(b), end(b));
}

Batch takeBatch(const Split &split, const BatchOrder &order, int64_t b) {
  const torch::Tensor idx = order.indices(b);
  if (idx.defined()) return {split.inputs.index_select(0, idx), split.targets.index_select(0, idx)};
  return {split.inputs.slice(0, order.begin(b), order.end(b)), split.targets.slice(0, order.begin(b), order.end(b))};
}

}  // namespace tw::engine
