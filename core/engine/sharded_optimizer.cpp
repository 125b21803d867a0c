#include "core/engine/sharded_optimizer.h"

#include "core/engine/optimizer_factory.h"
#include "core/engine/optimizer_state.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace tw::engine {

namespace {

torch::Tensor flatView(const torch::Tensor &t) { return t.detach().reshape({-1}); }

}  // namespace

ShardedOptimizer::ShardedOptimizer(Communicator &comm, GradientSync &sync, torch::optim::Optimizer &full,
                                   const config::TrainOptions &options)
    : m_comm(comm), m_sync(sync), m_full(full), m_params(sync.params()), m_buckets(sync.bucketParams()) {
  std::map<const void *, size_t> groupOf;
  const auto &groups = full.param_groups();
  for (size_t g = 0; g < groups.size(); ++g)
    for (const torch::Tensor &p : groups[g].params()) groupOf[p.unsafeGetTensorImpl()] = g;
  std::vector<int64_t> numel;
  for (const torch::Tensor &p : m_params) {
    auto it = groupOf.find(p.unsafeGetTensorImpl());
    if (it == groupOf.end()) throw std::logic_error("sharded optimiser: a trainable parameter is in no optimiser group");
    numel.push_back(p.numel());
    m_groupOf.push_back(it->second);
  }
  m_layout = planShards(m_buckets, numel, m_groupOf, groups.size(), comm.rank(), comm.size());
  torch::NoGradGuard noGrad;
  std::vector<ParameterGroup> shardGroups;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto type = groups[g].params().empty() ? torch::kFloat : groups[g].params().front().scalar_type();
    torch::Tensor shard = torch::zeros({m_layout.groupElements[g]}, torch::TensorOptions().dtype(type).device(
                                                                         m_params.empty() ? torch::kCPU : m_params[0].device()));
    m_shards.push_back(shard);
    shardGroups.push_back({1.0, {shard}});
  }
  for (const ShardSegment &s : m_layout.segments)
    m_shards[s.group].narrow(0, s.shardOffset, s.length).copy_(flatView(m_params[s.param]).narrow(0, s.paramOffset, s.length));
  m_optimizer = makeOptimizer(shardGroups, options);
  takeState();
}

ShardedOptimizer::~ShardedOptimizer() = default;

// The full optimiser's state (a resumed checkpoint's, or gathered before the parameters changed)
// sliced into the shards'. A group whose parameters have no state yet (nothing stepped them) has
// none in the shard either. Where some of a group's parameters have state and some not (a
// checkpoint of one process whose backward never reached a parameter), the missing ones start
// from zeros with the group's step: the shard steps a group as one.
void ShardedOptimizer::takeState() {
  const OptimizerState &kind = optimizerState(m_full);
  auto &full = m_full.state();
  auto stateOf = [&](size_t param) -> torch::optim::OptimizerParamState * {
    auto it = full.find(stateKey(m_params[param]));
    return it == full.end() ? nullptr : it->second.get();
  };
  torch::NoGradGuard noGrad;
  std::vector<std::unique_ptr<torch::optim::OptimizerParamState>> made(m_shards.size());
  for (size_t k = 0; k < m_params.size(); ++k) {
    torch::optim::OptimizerParamState *from = stateOf(k);
    if (!from) continue;
    const size_t g = m_groupOf[k];
    if (!made[g]) {
      made[g] = kind.make();
      const auto fromTensors = kind.tensors(*from);
      const auto toTensors = kind.tensors(*made[g]);
      for (size_t f = 0; f < fromTensors.size(); ++f)
        if (fromTensors[f]->defined()) *toTensors[f] = torch::zeros({m_layout.groupElements[g]}, fromTensors[f]->options());
    }
    if (int64_t *step = kind.step(*from)) *kind.step(*made[g]) = std::max(*kind.step(*made[g]), *step);
  }
  for (const ShardSegment &s : m_layout.segments) {
    torch::optim::OptimizerParamState *from = stateOf(s.param);
    if (!from || !made[s.group]) continue;
    const auto fromTensors = kind.tensors(*from);
    const auto toTensors = kind.tensors(*made[s.group]);
    for (size_t f = 0; f < fromTensors.size(); ++f)
      if (fromTensors[f]->defined() && toTensors[f]->defined())
        toTensors[f]->narrow(0, s.shardOffset, s.length).copy_(flatView(*fromTensors[f]).narrow(0, s.paramOffset, s.length));
  }
  for (size_t g = 0; g < m_shards.size(); ++g)
    if (made[g]) m_optimizer->state()[stateKey(m_shards[g])] = std::move(made[g]);
  full.clear();
}

void ShardedOptimizer::takeGradients() {
  torch::NoGradGuard noGrad;
  for (torch::Tensor &shard : m_shards)
    if (!shard.grad().defined()) shard.mutable_grad() = torch::empty_like(shard);
  for (const ShardSegment &s : m_layout.segments) {
    torch::Tensor to = m_shards[s.group].mutable_grad().narrow(0, s.shardOffset, s.length);
    if (m_sync.shardsGradients()) {
      to.copy_(m_sync.chunk(s.bucket).narrow(0, s.chunkOffset, s.length));
      continue;
    }
    const torch::Tensor &grad = m_params[s.param].grad();
    if (grad.defined()) to.copy_(flatView(grad).narrow(0, s.paramOffset, s.length));
    else to.zero_();
  }
  if (m_sync.shardsGradients()) m_sync.releaseChunks();
}

// This rank's chunk of a bucket, from per-group flat tensors laid out as the shards (the shards
// themselves, or one field of their optimiser state); the padding past the bucket's end is zero.
torch::Tensor ShardedOptimizer::chunkOf(size_t bucket, const std::vector<torch::Tensor> &fromShards) const {
  const torch::Tensor &any = fromShards.empty() ? torch::Tensor() : fromShards.front();
  torch::Tensor chunk = torch::zeros({m_layout.chunk[bucket]}, any.options());
  for (const ShardSegment &s : m_layout.segments)
    if (s.bucket == bucket && fromShards[s.group].defined())
      chunk.narrow(0, s.chunkOffset, s.length).copy_(fromShards[s.group].narrow(0, s.shardOffset, s.length));
  return chunk;
}

void ShardedOptimizer::step() {
  m_optimizer->step();
  torch::NoGradGuard noGrad;
  // Sharding only the optimiser state, every rank holds the whole gradients already: the shards'
  // copy of its elements goes until the next step.
  if (!m_sync.shardsGradients())
    for (torch::Tensor &shard : m_shards) shard.mutable_grad().reset();
  // Every bucket's gather in flight at once; each is written into the parameters as it lands.
  std::vector<std::vector<torch::Tensor>> gathered(m_buckets.size());
  std::vector<PendingWork> work;
  for (size_t b = 0; b < m_buckets.size(); ++b) work.push_back(m_comm.allgatherAsync(chunkOf(b, m_shards), gathered[b]));
  for (size_t b = 0; b < m_buckets.size(); ++b) {
    work[b].wait();
    const torch::Tensor flat = torch::cat(gathered[b]);
    int64_t offset = 0;
    for (size_t k : m_buckets[b]) {
      torch::Tensor p = m_params[k].detach();
      p.copy_(flat.narrow(0, offset, p.numel()).view(p.sizes()));
      offset += p.numel();
    }
  }
}

double ShardedOptimizer::gradientNorm() {
  double squares = 0.0;
  for (const torch::Tensor &shard : m_shards) {
    if (!shard.grad().defined()) continue;
    const torch::Tensor g = shard.grad().to(torch::kDouble);
    squares += (g * g).sum().item<double>();
  }
  return std::sqrt(m_comm.allreduce(std::vector<double>{squares})[0]);
}

double ShardedOptimizer::clipGradientNorm(double maxNorm) {
  const double norm = gradientNorm();
  // In float, as clip_grad_norm_ computes it from its float norm.
  const float coefficient = static_cast<float>(maxNorm) / (static_cast<float>(norm) + 1e-6f);
  if (coefficient < 1.0f) {
    torch::NoGradGuard noGrad;
    for (const torch::Tensor &shard : m_shards)
      if (shard.grad().defined()) shard.grad().mul_(coefficient);
  }
  return norm;
}

std::vector<double> ShardedOptimizer::parameterGradientNorms() {
  std::vector<double> squares(m_params.size(), 0.0);
  for (const ShardSegment &s : m_layout.segments) {
    if (!m_shards[s.group].grad().defined()) continue;
    const torch::Tensor g = m_shards[s.group].grad().narrow(0, s.shardOffset, s.length).to(torch::kDouble);
    squares[s.param] += (g * g).sum().item<double>();
  }
  squares = m_comm.allreduce(squares);
  for (double &x : squares) x = std::sqrt(x);
  return squares;
}

bool ShardedOptimizer::everyRank(bool yes) {
  return m_comm.allreduce(std::vector<double>{yes ? 0.0 : 1.0})[0] == 0.0;
}

int64_t ShardedOptimizer::firstNonFiniteParameter() const {
  for (const ShardSegment &s : m_layout.segments)
    if (m_shards[s.group].grad().defined() && !torch::isfinite(m_shards[s.group].grad().narrow(0, s.shardOffset, s.length)).all().item<bool>())
      return static_cast<int64_t>(s.param);
  return -1;
}

void ShardedOptimizer::gatherState(int root) {
  const OptimizerState &kind = optimizerState(*m_optimizer);
  // Which groups have state, and which of its tensors: alike on every rank (all step together).
  std::vector<torch::optim::OptimizerParamState *> groupState(m_shards.size(), nullptr);
  std::vector<bool> defined;
  for (size_t g = 0; g < m_shards.size(); ++g) {
    auto it = m_optimizer->state().find(stateKey(m_shards[g]));
    if (it == m_optimizer->state().end()) continue;
    groupState[g] = it->second.get();
    if (defined.empty())
      for (const torch::Tensor *t : kind.tensors(*groupState[g])) defined.push_back(t->defined());
  }
  if (defined.empty()) return;  // nothing stepped yet
  torch::NoGradGuard noGrad;
  for (size_t b = 0; b < m_buckets.size(); ++b) {
    // One collective per bucket: this rank's chunk of every state tensor, one after another.
    std::vector<torch::Tensor> pieces;
    for (size_t f = 0; f < defined.size(); ++f) {
      if (!defined[f]) continue;
      std::vector<torch::Tensor> field;
      for (size_t g = 0; g < m_shards.size(); ++g)
        field.push_back(groupState[g] ? *kind.tensors(*groupState[g])[f] : torch::zeros_like(m_shards[g]));
      pieces.push_back(chunkOf(b, field));
    }
    std::vector<torch::Tensor> all;
    if (root < 0) m_comm.allgatherAsync(torch::cat(pieces), all).wait();
    else all = m_comm.gather(torch::cat(pieces), root);
    if (all.empty()) continue;  // not the root
    // Per state tensor, the whole bucket: every rank's chunk of it in rank order.
    const int64_t chunk = m_layout.chunk[b];
    std::vector<torch::Tensor> flat(defined.size());
    for (size_t f = 0, piece = 0; f < defined.size(); ++f) {
      if (!defined[f]) continue;
      std::vector<torch::Tensor> ranks;
      for (const torch::Tensor &r : all) ranks.push_back(r.narrow(0, static_cast<int64_t>(piece) * chunk, chunk));
      flat[f] = torch::cat(ranks);
      ++piece;
    }
    int64_t offset = 0;
    for (size_t k : m_buckets[b]) {
      const torch::Tensor &p = m_params[k];
      if (torch::optim::OptimizerParamState *group = groupState[m_groupOf[k]]) {
        auto &slot = m_full.state()[stateKey(p)];
        if (!slot) slot = kind.make();
        if (int64_t *step = kind.step(*slot)) *step = *kind.step(*group);
        const auto tensors = kind.tensors(*slot);
        for (size_t f = 0; f < defined.size(); ++f) {
          if (!defined[f]) continue;
          // In the parameter's memory format, as the optimiser makes its state.
          torch::Tensor t = torch::empty_like(p.detach(), torch::MemoryFormat::Preserve);
          t.copy_(flat[f].narrow(0, offset, p.numel()).view(p.sizes()));
          *tensors[f] = t;
        }
      }
      offset += p.numel();
    }
  }
}

void ShardedOptimizer::releaseFullState() { m_full.state().clear(); }

int64_t ShardedOptimizer::stateBytes() const { return optimizerStateBytes(*m_optimizer); }

int64_t ShardedOptimizer::gradientBytes() const {
  int64_t bytes = 0;
  for (const torch::Tensor &shard : m_shards)
    if (shard.grad().defined()) bytes += shard.grad().numel() * static_cast<int64_t>(shard.grad().element_size());
  return bytes;
}

}  // namespace tw::engine
