#include "core/engine/gradient_sync.h"

#include "core/engine/shard_layout.h"

#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <chrono>
#include <cmath>
#include <stdexcept>

namespace tw::engine {

namespace {

// Runs after AccumulateGrad: the parameter's .grad then holds this step's whole gradient.
class GradReadyHook : public torch::autograd::FunctionPostHook {
 public:
  explicit GradReadyHook(std::function<void()> ready) : m_ready(std::move(ready)) {}
  torch::autograd::variable_list operator()(const torch::autograd::variable_list &outputs,
                                            const torch::autograd::variable_list & /*inputs*/) override {
    m_ready();
    return outputs;
  }

 private:
  std::function<void()> m_ready;
};

constexpr double kFirstBucketMb = 1.0;

}  // namespace

GradientSync::GradientSync(Communicator &comm, std::vector<torch::Tensor> params, double bucketMb, bool shardGradients)
    : m_comm(comm), m_shardGradients(shardGradients) {
  for (auto &p : params)
    if (p.requires_grad()) m_params.push_back(p);
  m_bucketOf.resize(m_params.size());
  // Backward produces gradients roughly in reverse registration order, so buckets fill from the
  // back. A bucket holds one dtype.
  double limitBytes = kFirstBucketMb * 1024.0 * 1024.0;
  for (size_t k = m_params.size(); k-- > 0;) {
    const torch::Tensor &p = m_params[k];
    const double bytes = static_cast<double>(p.numel() * p.element_size());
    const bool startNew = m_buckets.empty() ||
                          (m_buckets.back().numel > 0 &&
                           (static_cast<double>(m_buckets.back().numel) * p.element_size() + bytes > limitBytes ||
                            m_params[m_buckets.back().params.front()].scalar_type() != p.scalar_type()));
    if (startNew) {
      if (!m_buckets.empty()) limitBytes = bucketMb * 1024.0 * 1024.0;
      m_buckets.emplace_back();
    }
    m_buckets.back().params.push_back(k);
    m_buckets.back().numel += p.numel();
    m_bucketOf[k] = m_buckets.size() - 1;
  }
  // The accumulators must outlive every backward, or autograd makes fresh ones without the hook.
  for (size_t k = 0; k < m_params.size(); ++k) {
    auto accumulator = torch::autograd::impl::grad_accumulator(m_params[k]);
    if (!accumulator) throw std::logic_error("gradient sync: a parameter is not a leaf");
    accumulator->add_post_hook(std::make_unique<GradReadyHook>([this, k, alive = m_alive] {
      if (*alive) onGradReady(k);
    }));
    m_accumulators.push_back(std::move(accumulator));
  }
}

GradientSync::~GradientSync() {
  *m_alive = false;  // the hooks stay on the accumulators; a sync made after this one adds its own
  // A failed step may leave collectives in flight; their buffers must not vanish under them.
  for (auto &bucket : m_buckets) {
    try {
      bucket.work.wait();
    } catch (const std::exception &) {
    }
  }
}

std::vector<std::vector<size_t>> GradientSync::bucketParams() const {
  std::vector<std::vector<size_t>> out;
  for (const Bucket &bucket : m_buckets) out.push_back(bucket.params);
  return out;
}

void GradientSync::releaseChunks() {
  for (Bucket &bucket : m_buckets) bucket.chunk = torch::Tensor();
}

bool GradientSync::carriesExtras() const {
  // A reduce-scattered bucket gives each rank only its chunk of the sums.
  if (m_buckets.empty() || m_shardGradients) return false;
  const auto type = m_params[m_buckets.back().params.front()].scalar_type();
  return type == torch::kFloat || type == torch::kDouble;
}

// A double as two floats: `hi` keeps 12 significant bits, so that the ranks' his add up exactly
// in float, and `lo` the next 24. The sums keep about 36 bits of the loss, where one float
// would keep 24 (the logged loss of N ranks then matches one rank's to ~1e-11).
torch::Tensor GradientSync::packExtras(const Bucket &bucket) const {
  const torch::Tensor &p = m_params[bucket.params.front()];
  std::vector<double> split;
  for (double x : m_extras) {
    int exponent = 0;
    const double mantissa = std::frexp(x, &exponent);
    const double hi = std::ldexp(std::round(mantissa * 4096.0) / 4096.0, exponent);
    split.push_back(hi);
    split.push_back(x - hi);
  }
  return torch::tensor(split, torch::kDouble).to(p.options());
}

std::vector<double> GradientSync::unpackExtras(const Bucket &bucket) const {
  const int64_t n = static_cast<int64_t>(m_extras.size());
  const torch::Tensor tail = bucket.flat.slice(0, bucket.numel, bucket.numel + 2 * n).to(torch::kDouble);
  const double *data = tail.data_ptr<double>();
  std::vector<double> sums;
  for (int64_t i = 0; i < n; ++i) sums.push_back(data[2 * i] + data[2 * i + 1]);
  return sums;
}

void GradientSync::arm(std::vector<double> extras) {
  m_armed = true;
  m_extras = std::move(extras);
  m_nextLaunch = 0;
  for (auto &bucket : m_buckets) {
    bucket.ready = 0;
    bucket.launched = false;
  }
}

void GradientSync::onGradReady(size_t param) {
  if (!m_armed) return;  // a micro-step that only accumulates
  Bucket &bucket = m_buckets[m_bucketOf[param]];
  if (++bucket.ready == bucket.params.size()) launchReadyBuckets();
}

void GradientSync::launchReadyBuckets() {
  while (m_nextLaunch < m_buckets.size() && m_buckets[m_nextLaunch].ready == m_buckets[m_nextLaunch].params.size())
    launch(m_buckets[m_nextLaunch++]);
}

void GradientSync::launch(Bucket &bucket) {
  torch::NoGradGuard noGrad;
  std::vector<torch::Tensor> parts;
  parts.reserve(bucket.params.size());
  for (size_t k : bucket.params) {
    const torch::Tensor &p = m_params[k];
    const torch::Tensor grad = p.grad();
    // A parameter this step did not reach (or a rank with nothing to train on) adds zeros.
    parts.push_back(grad.defined() ? grad.reshape({-1}) : torch::zeros({p.numel()}, p.options()));
  }
  if (&bucket == &m_buckets.back() && carriesExtras()) parts.push_back(packExtras(bucket));
  bucket.launched = true;
  if (!m_shardGradients) {
    bucket.flat = torch::cat(parts);
    bucket.work = m_comm.allreduceAsync(bucket.flat);
    return;
  }
  const int64_t padded = chunkElements(bucket.numel, m_comm.size()) * m_comm.size();
  if (padded > bucket.numel) parts.push_back(torch::zeros({padded - bucket.numel}, parts.front().options()));
  bucket.flat = torch::cat(parts);
  // The bucket holds them now: the gradient memory left is this bucket's, until its sums arrive.
  for (size_t k : bucket.params) m_params[k].mutable_grad().reset();
  bucket.received = torch::empty_like(bucket.flat);
  bucket.work = m_comm.alltoallAsync(bucket.flat, bucket.received);
}

std::vector<double> GradientSync::finish() {
  if (!m_armed) throw std::logic_error("gradient sync: finish() without arm()");
  for (auto &bucket : m_buckets) bucket.ready = bucket.params.size();
  launchReadyBuckets();
  const auto start = std::chrono::steady_clock::now();
  // On this hardware a collective costs about 0.5 ms however small, so the extras ride in the
  // last bucket when they can.
  std::vector<double> sums = carriesExtras() ? std::vector<double>() : m_comm.allreduce(m_extras);
  torch::NoGradGuard noGrad;
  for (auto &bucket : m_buckets) {
    bucket.work.wait();
    if (m_shardGradients) {
      // Added up in rank order, piece by piece: for two ranks the very sums an all-reduce makes
      // (a reduction from zero would turn a sum of two -0.0 into +0.0).
      const torch::Tensor pieces = bucket.received.view({m_comm.size(), -1});
      bucket.chunk = pieces[0].clone();
      for (int r = 1; r < m_comm.size(); ++r) bucket.chunk.add_(pieces[r]);
      bucket.flat = bucket.received = torch::Tensor();
      continue;
    }
    if (&bucket == &m_buckets.back() && carriesExtras()) sums = unpackExtras(bucket);
    int64_t offset = 0;
    for (size_t k : bucket.params) {
      torch::Tensor &p = m_params[k];
      const torch::Tensor summed = bucket.flat.slice(0, offset, offset + p.numel()).view_as(p);
      offset += p.numel();
      if (p.grad().defined()) p.mutable_grad().copy_(summed);
      else p.mutable_grad() = summed.clone();
    }
    bucket.flat = torch::Tensor();
  }
  m_waitSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m_armed = false;
  return sums;
}

}  // namespace tw::engine
