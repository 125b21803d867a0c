// Training throughput of the engine on the full Fashion-MNIST training set, against a bare
// LibTorch loop (the same model in torch::nn::Sequential) over the same tensors with the same
// thread plan. Run on demand:
//
//   bench_trainer [optimizer=adam] [epochs=2] [batch=128] [threads=0 (auto)] [model=mlp|cnn]
//                 [--track] [--train-limit N] [--seed N] [--no-bare | --bare-only]
//                 [--memory-format auto|channels_last|contiguous]
//
// The bare loop runs after the engine for the MLP (--no-bare skips it), and alone, for either
// model, with --bare-only.
//
// Without --track the engine runs with no metric writer and no run folder: no tracking and no
// checkpoints. With --track it runs the way torchwright-worker does: a MetricWriter into a fresh
// tracking database (train/loss, train/lr, train/grad_norm every step), a run folder with
// checkpoints every epoch (last.pt, best.pt) and the final artifacts, the stop flag polled once
// a second. Both in a temporary workspace, removed at the end. The same binary either way, so
// tests/bench/bench_vs_pytorch.py compares the two to measure what tracking costs.
//
// The models are tests/bench/bench_mlp.model.yaml (784-256-128-10 without dropout) and
// tests/bench/bench_cnn.model.yaml.
// Prints one line per measurement and a JSON line at the end.

#include "core/engine/dataset.h"
#include "core/engine/threads.h"
#include "core/engine/trainer.h"
#include "core/engine/versions.h"
#include "core/spec/convolutions.h"
#include "core/spec/model_spec.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace tw;
namespace fs = std::filesystem;

namespace {

// The model files bench_vs_pytorch.py gives the CLI too: one definition of each benchmark model.
std::string benchModelYaml(const std::string &model) {
  const std::string path = std::string(TW_BENCH_DIR) + "/bench_" + model + ".model.yaml";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

torch::nn::Sequential bareModel(const std::string &model) {
  namespace nn = torch::nn;
  if (model == "cnn")
    return nn::Sequential(nn::Conv2d(nn::Conv2dOptions(1, 32, 3).padding(1)), nn::BatchNorm2d(32), nn::ReLU(),
                          nn::MaxPool2d(2), nn::Conv2d(nn::Conv2dOptions(32, 64, 3).padding(1)), nn::BatchNorm2d(64),
                          nn::ReLU(), nn::MaxPool2d(2), nn::Flatten(), nn::Linear(3136, 128), nn::ReLU(),
                          nn::Dropout(0.3), nn::Linear(128, 10));
  return nn::Sequential(nn::Flatten(), nn::Linear(784, 256), nn::ReLU(), nn::Linear(256, 128), nn::ReLU(),
                        nn::Linear(128, 10));
}

// The loop a person would write by hand: same data, same batches, same optimiser.
double bareLoop(const engine::Dataset &data, const config::RunConfig &c, const std::string &model) {
  torch::nn::Sequential net = bareModel(model);
  net->train();
  std::unique_ptr<torch::optim::Optimizer> opt;
  if (c.train.optimizer == "sgd")
    opt = std::make_unique<torch::optim::SGD>(net->parameters(), torch::optim::SGDOptions(c.train.lr).momentum(0.9));
  else
    opt = std::make_unique<torch::optim::Adam>(net->parameters(), torch::optim::AdamOptions(c.train.lr));
  int64_t samples = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t epoch = 1; epoch <= c.train.epochs; ++epoch) {
    engine::BatchOrder order(data.train.size(), c.data.batchSize, true, c.train.seed, epoch);
    for (int64_t b = 0; b < order.batches(); ++b) {
      const engine::Batch batch = engine::takeBatch(data.train, order, b);
      const torch::Tensor &x = batch.inputs, &y = batch.targets;
      opt->zero_grad();
      auto loss = torch::nn::functional::cross_entropy(net->forward(x), y);
      volatile double v = loss.item<double>();
      (void)v;
      loss.backward();
      opt->step();
      samples += x.size(0);
    }
  }
  return samples / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Flags {
  std::vector<std::string> positional;
  bool track = false, bare = true, bareOnly = false;
  int64_t trainLimit = 0, seed = -1;  // -1: the configuration's default seed
  std::string memoryFormat = "auto";
};

Flags parseFlags(int argc, char **argv) {
  Flags f;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&] {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return std::string(argv[++i]);
    };
    if (a == "--track") f.track = true;
    else if (a == "--no-bare") f.bare = false;
    else if (a == "--bare-only") f.bareOnly = true;
    else if (a == "--train-limit") f.trainLimit = std::stoll(value());
    else if (a == "--seed") f.seed = std::stoll(value());
    else if (a == "--memory-format") f.memoryFormat = value();
    else if (a.rfind("--", 0) == 0) throw std::runtime_error("unknown option " + a);
    else f.positional.push_back(a);
  }
  return f;
}

// A throwaway workspace with a database, a run row and a run folder, like `torchwright train`
// makes, so that --track exercises the same writer, checkpoints and artifacts as the worker.
struct TrackedWorkspace {
  fs::path root;
  std::unique_ptr<tracking::Store> store;
  tracking::RunRecord run;

  explicit TrackedWorkspace(const config::RunConfig &c) {
    root = fs::temp_directory_path() / ("bench_trainer_" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
    store = tracking::Store::open((root / "tracking.db").string());
    tracking::NewRun newRun;
    newRun.experiment = "bench";
    newRun.seed = c.train.seed;
    newRun.runsRoot = (root / "runs").string();
    run = store->createRun(newRun);
    if (run.runDir.empty()) run.runDir = (root / "runs" / run.uuid).string();
    fs::create_directories(fs::path(run.runDir) / "checkpoints");
    fs::create_directories(fs::path(run.runDir) / "artifacts");
    store->setStatus(run.id, tracking::RunStatus::Running);
  }
  ~TrackedWorkspace() {
    std::error_code ignored;
    fs::remove_all(root, ignored);
  }
};

}  // namespace

int main(int argc, char **argv) try {
  const Flags flags = parseFlags(argc, argv);
  const auto &p = flags.positional;
  config::RunConfig c;
  c.train.optimizer = p.size() > 0 ? p[0] : "adam";
  c.train.epochs = p.size() > 1 ? std::stoll(p[1]) : 2;
  c.data.batchSize = p.size() > 2 ? std::stoll(p[2]) : 128;
  c.train.threads = p.size() > 3 ? std::stoll(p[3]) : 0;
  const std::string model = p.size() > 4 ? p[4] : "mlp";
  if (model != "mlp" && model != "cnn") throw std::runtime_error("model '" + model + "': expected mlp or cnn");
  c.modelYaml = benchModelYaml(model);
  c.data.path = TW_FASHION_MNIST_DIR;
  c.data.trainLimit = flags.trainLimit;
  if (flags.seed >= 0) c.train.seed = flags.seed;
  c.train.memoryFormat = flags.memoryFormat;
  c.train.lr = c.train.optimizer == "sgd" ? 0.05 : 1e-3;
  c.train.logEvery = 1;

  std::printf("%s\n", engine::libraryVersions().c_str());
  engine::TrainSummary s;
  double writerCpu = 0.0;
  std::vector<double> epochSps;
  if (!flags.bareOnly) {
    engine::TrainCallbacks callbacks;
    callbacks.onEpoch = [&](const engine::EpochReport &r) {
      epochSps.push_back(r.samplesPerSec);
      std::printf("epoch %lld/%lld  train loss %.4f  %.0f samples/s  %.1fs\n", (long long)r.epoch,
                  (long long)r.epochs, r.trainLoss, r.samplesPerSec, r.seconds);
      std::fflush(stdout);
    };
    if (flags.track) {
      TrackedWorkspace ws(c);
      tracking::MetricWriter writer(ws.store->path(), ws.run.id);
      auto lastStopCheck = std::chrono::steady_clock::now();
      callbacks.shouldStop = [&] {  // as torchwright-worker polls the Stop flag
        auto now = std::chrono::steady_clock::now();
        if (now - lastStopCheck > std::chrono::seconds(1)) {
          lastStopCheck = now;
          return ws.store->stopRequested(ws.run.id);
        }
        return false;
      };
      callbacks.onDataLoaded = [&](const std::string &fp, const std::vector<std::string> &) { ws.store->setDataFingerprint(ws.run.id, fp); };
      callbacks.onArtifact = [&](const std::string &path, const std::string &kind) {
        ws.store->addArtifact(ws.run.id, path, kind);
      };
      engine::TrainEnvironment env;
      env.runDir = ws.run.runDir;
      s = engine::train(c, &writer, callbacks, env);
      writer.flush();
      writerCpu = writer.cpuSeconds();
      ws.store->setStatus(ws.run.id, tracking::RunStatus::Finished);
    } else {
      s = engine::train(c, nullptr, callbacks);
    }
  }

  using GetThreads = int (*)();
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  const bool found = dlsym(RTLD_DEFAULT, "openblas_set_num_threads") != nullptr;
  std::printf("openblas_set_num_threads found by dlsym: %s; OpenBLAS threads now %d; LibTorch threads %d\n",
              found ? "yes" : "no", get ? get() : -1, at::get_num_threads());
  if (!flags.bareOnly)
    std::printf("engine %s %s batch %lld, tracking %s: %.0f samples/s (test accuracy %.4f)\n", model.c_str(),
                c.train.optimizer.c_str(), (long long)c.data.batchSize, flags.track ? "on" : "off", s.samplesPerSec,
                s.testAccuracy);

  double bare = 0;
  if ((model == "mlp" && flags.bare) || flags.bareOnly) {
    if (flags.bareOnly) {
      // The engine did not run, so nothing has applied a thread plan yet: use the engine's.
      engine::applyThreads(
          engine::planThreads(static_cast<int>(c.train.threads), spec::hasConvolution(spec::parseModelYaml(c.modelYaml)),
                              engine::availableCores()));
    }
    const engine::Dataset data = engine::loadDataset(c.data, c.train.seed);
    bare = bareLoop(data, c, model);
    std::printf("bare LibTorch loop: %.0f samples/s\n", bare);
  }
  std::string epochs;
  for (double v : epochSps) epochs += (epochs.empty() ? "" : ",") + std::to_string(static_cast<long long>(v));
  std::printf("{\"bench\":\"trainer\",\"model\":\"%s\",\"optimizer\":\"%s\",\"batch\":%lld,\"tracking\":%s,"
              "\"train_samples\":%lld,\"engine_sps\":%.0f,\"epoch_sps\":[%s],\"test_accuracy\":%.4f,"
              "\"torch_threads\":%d,\"blas_threads\":%d,\"bare_sps\":%.0f,\"train_seconds\":%.4f,"
              "\"tracking_step_seconds\":%.4f,\"writer_cpu_seconds\":%.4f}\n",
              model.c_str(), c.train.optimizer.c_str(), (long long)c.data.batchSize, flags.track ? "true" : "false",
              (long long)s.trainSamples, s.samplesPerSec, epochs.c_str(), s.testAccuracy, at::get_num_threads(),
              get ? get() : -1, bare, s.trainSeconds, s.trackingSeconds, writerCpu);
  return 0;
} catch (const std::exception &e) {
  std::fprintf(stderr, "bench_trainer: %s\n", e.what());
  return 1;
}
