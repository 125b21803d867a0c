#include "core/engine/communicator.h"

#include "core/engine/engine_log.h"

#include <spdlog/fmt/fmt.h>

#ifdef TW_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#include <torch/csrc/distributed/c10d/FileStore.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#if defined(TW_WITH_CUDA) && defined(USE_C10D_NCCL)
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace tw::engine {

namespace {

// LibTorch 2.x moved the backends under c10d::Backend; 1.13's ProcessGroupGloo is itself the
// ProcessGroup. Both offer the same collectives, which is all this file uses.
#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;
#else
using Group = c10d::ProcessGroup;
#endif

bool isLoopback(const std::string &host) {
  return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

#ifdef TW_HAVE_GLOO
std::shared_ptr<::gloo::transport::Device> glooDevice(const dist::DistEnv &env) {
  // GLOO_SOCKET_IFNAME picks the interface, as with torch.distributed; a single-machine run
  // stays on loopback (no firewall prompts, nothing listening on the network).
  if (const char *ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
    return c10d::ProcessGroupGloo::createDeviceForInterface(ifname);
  if (!env.rendezvousFile.empty() || isLoopback(env.masterAddr))
    return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
  return c10d::ProcessGroupGloo::createDefaultDevice();
}
#endif

std::string chooseBackend(const std::string &requested, const torch::Device &device) {
  const std::string backend = requested == "auto" ? (device.is_cuda() ? "nccl" : "gloo") : requested;
  if (backend == "nccl") {
#if defined(TW_WITH_CUDA) && defined(USE_C10D_NCCL)
    if (!device.is_cuda())
      throw std::runtime_error("distributed.backend: nccl needs a CUDA device (train.device is " + device.str() + ")");
#else
    throw std::runtime_error("distributed.backend: nccl is not in this build (Debian's LibTorch has no CUDA); use gloo");
#endif
  }
#ifndef TW_HAVE_GLOO
  if (backend == "gloo") throw std::runtime_error("distributed.backend: this LibTorch has no Gloo headers; use nccl");
#endif
  return backend;
}

std::vector<uint8_t> bytesOf(const std::string &text) { return {text.begin(), text.end()}; }

}  // namespace

struct Communicator::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<Group> group;
  std::string rendezvousFile;
};

PendingWork::PendingWork(c10::intrusive_ptr<c10d::Work> work) : m_work(std::move(work)) {}
PendingWork::~PendingWork() = default;
PendingWork::PendingWork(PendingWork &&) noexcept = default;
PendingWork &PendingWork::operator=(PendingWork &&) noexcept = default;

void PendingWork::wait() {
  if (!m_work) return;
  auto work = std::move(m_work);
  work->wait();
}

Communicator::Communicator(const dist::DistEnv &env, const std::string &backend, torch::Device device,
                           std::chrono::seconds timeout)
    : m_impl(std::make_unique<Impl>()), m_rank(env.rank), m_size(env.worldSize), m_device(device), m_timeout(timeout) {
  m_backendName = chooseBackend(backend, device);
  const bool fileStore = !env.rendezvousFile.empty();
  const std::string where = fileStore ? "the rendezvous file " + env.rendezvousFile
                                      : fmt::format("{}:{}", env.masterAddr, env.masterPort);
  if (fileStore) {
    // One machine: the ranks meet through a file, so nothing listens for the rendezvous (1.13's
    // TCPStore binds every interface and has no option to bind one).
    try {
      auto store = c10::make_intrusive<c10d::FileStore>(env.rendezvousFile, env.worldSize);
      store->setTimeout(std::chrono::duration_cast<std::chrono::milliseconds>(timeout));
      m_impl->store = store;
      m_impl->rendezvousFile = env.rendezvousFile;
    } catch (const std::exception &e) {
      std::string what = e.what();
      throw std::runtime_error(fmt::format("rank {} could not open {}: {}", env.rank, where, what.substr(0, what.find('\n'))));
    }
  }
  c10d::TCPStoreOptions options;
  options.port = static_cast<uint16_t>(env.masterPort);
  options.isServer = env.rank == 0;
  options.numWorkers = static_cast<size_t>(env.worldSize);
  options.waitWorkers = true;
  options.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
  try {
    if (!fileStore) m_impl->store = c10::make_intrusive<c10d::TCPStore>(env.masterAddr, options);
  } catch (const std::exception &e) {
    std::string what = e.what();
    what = what.substr(0, what.find('\n'));
    if (env.rank == 0)
      throw std::runtime_error(fmt::format("rank 0 could not serve the rendezvous store on {}: {} (is the port taken? "
                                           "choose another with --master-port or MASTER_PORT)", where, what));
    throw std::runtime_error(fmt::format("rank {} could not reach the rendezvous store on {} within {} s: {}", env.rank,
                                         where, timeout.count(), what));
  }
  try {
    if (m_backendName == "gloo") {
#ifdef TW_HAVE_GLOO
      auto groupOptions = c10d::ProcessGroupGloo::Options::create(std::chrono::duration_cast<std::chrono::milliseconds>(timeout));
      groupOptions->devices.push_back(glooDevice(env));
      // Collectives of one rank run one after another in this training loop: two threads are plenty.
      groupOptions->threads = 2;
      m_impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(m_impl->store, env.rank, env.worldSize, groupOptions);
#endif
    } else {
#if defined(TW_WITH_CUDA) && defined(USE_C10D_NCCL)
      auto groupOptions = c10d::ProcessGroupNCCL::Options::create();
      groupOptions->timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
      m_impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(m_impl->store, env.rank, env.worldSize, groupOptions);
#endif
    }
  } catch (const std::exception &e) {
    std::string what = e.what();
    throw std::runtime_error(fmt::format("rank {} could not join the {} process group through {}: {}", env.rank,
                                         m_backendName, where, what.substr(0, what.find('\n'))));
  }
  engineLog()->info("joined the {} process group: {}", m_backendName, env.describe());
}

Communicator::~Communicator() {
  m_impl->group.reset();
  m_impl->store.reset();  // the last FileStore out removes its file
  // Ranks outlive a launcher killed with SIGKILL (they stop on SIGHUP) and its rendezvous folder
  // would stay behind: each rank tries to remove it, and rmdir succeeds only once it is empty.
  if (!m_impl->rendezvousFile.empty())
    ::rmdir(std::filesystem::path(m_impl->rendezvousFile).parent_path().c_str());
}

PendingWork Communicator::allreduceAsync(torch::Tensor &tensor) {
  std::vector<torch::Tensor> tensors{tensor};
  return PendingWork(m_impl->group->allreduce(tensors));
}

void Communicator::allreduce(torch::Tensor &tensor) { allreduceAsync(tensor).wait(); }

std::vector<double> Communicator::allreduce(const std::vector<double> &values) {
  if (values.empty()) return {};
  torch::Tensor t = torch::tensor(values, torch::kDouble).to(m_device);
  allreduce(t);
  t = t.cpu();
  const double *data = t.data_ptr<double>();
  return {data, data + values.size()};
}

void Communicator::broadcast(const std::vector<torch::Tensor> &tensors, int root) {
  // One flat buffer per dtype: a model's weights in one collective, not one per tensor.
  std::map<c10::ScalarType, std::vector<torch::Tensor>> byType;
  for (const auto &t : tensors)
    if (t.defined() && t.numel() > 0) byType[t.scalar_type()].push_back(t);
  torch::NoGradGuard noGrad;
  for (auto &[type, group] : byType) {
    std::vector<torch::Tensor> flat;
    for (const auto &t : group) flat.push_back(t.detach().reshape({-1}));
    std::vector<torch::Tensor> buffer{torch::cat(flat)};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    m_impl->group->broadcast(buffer, options)->wait();
    int64_t offset = 0;
    for (auto &t : group) {
      t.detach().copy_(buffer[0].slice(0, offset, offset + t.numel()).view_as(t));
      offset += t.numel();
    }
  }
}

PendingWork Communicator::allgatherAsync(const torch::Tensor &mine, std::vector<torch::Tensor> &all) {
  all.clear();
  for (int r = 0; r < m_size; ++r) all.push_back(torch::empty_like(mine));
  std::vector<std::vector<torch::Tensor>> outputs{all};
  std::vector<torch::Tensor> inputs{mine};
  return PendingWork(m_impl->group->allgather(outputs, inputs));
}

std::vector<torch::Tensor> Communicator::gather(const torch::Tensor &mine, int root) {
  std::vector<torch::Tensor> all;
  std::vector<std::vector<torch::Tensor>> outputs;
  if (m_rank == root) {
    for (int r = 0; r < m_size; ++r) all.push_back(torch::empty_like(mine));
    outputs.push_back(all);
  }
  std::vector<torch::Tensor> inputs{mine};
  c10d::GatherOptions options;
  options.rootRank = root;
  m_impl->group->gather(outputs, inputs, options)->wait();
  return all;
}

PendingWork Communicator::alltoallAsync(torch::Tensor &input, torch::Tensor &output) {
  std::vector<int64_t> even;  // empty: equal pieces
  return PendingWork(m_impl->group->alltoall_base(output, input, even, even));
}

void Communicator::setText(const std::string &key, const std::string &value) {
  m_impl->store->set(key, bytesOf(value));
}

std::string Communicator::getText(const std::string &key) {
  const std::vector<uint8_t> bytes = m_impl->store->get(key);
  return {bytes.begin(), bytes.end()};
}

bool Communicator::tryGetText(const std::string &key, std::string *value) {
  if (!m_impl->store->check({key})) return false;
  const std::vector<uint8_t> bytes = m_impl->store->get(key);
  value->assign(bytes.begin(), bytes.end());
  return true;
}

}  // namespace tw::engine
