// Training throughput of the engine on the full Fashion-MNIST training set, against a bare
// LibTorch loop over the same tensors with the same thread plan. Run on demand:
//
//   bench_trainer [optimizer=adam] [epochs=2] [batch=128] [threads=0 (auto)] [model=mlp|cnn]
//
// Prints one line per measurement and a JSON line at the end.

#include "core/engine/dataset.h"
#include "core/engine/threads.h"
#include "core/engine/trainer.h"
#include "core/engine/versions.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <string>

using namespace tw;

namespace {

const char *kMlp = R"(name: mlp
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: flat, op: Flatten}
  - {id: fc1, op: Linear, out_features: 256}
  - {id: act1, op: ReLU}
  - {id: fc2, op: Linear, out_features: 128}
  - {id: act2, op: ReLU}
  - {id: logits, op: Linear, out_features: 10}
)";

const char *kCnn = R"(name: cnn
nodes:
  - {id: image, op: Input, shape: [1, 28, 28]}
  - {id: c1, op: Conv2d, out_channels: 16, kernel_size: 3, padding: 1}
  - {id: a1, op: ReLU}
  - {id: p1, op: MaxPool2d, kernel_size: 2}
  - {id: c2, op: Conv2d, out_channels: 32, kernel_size: 3, padding: 1}
  - {id: a2, op: ReLU}
  - {id: p2, op: MaxPool2d, kernel_size: 2}
  - {id: flat, op: Flatten}
  - {id: logits, op: Linear, out_features: 10}
)";

// The loop a person would write by hand: same data, same batches, same optimiser.
double bareLoop(const engine::Dataset &data, const config::RunConfig &c) {
  torch::nn::Sequential mlp(torch::nn::Flatten(), torch::nn::Linear(784, 256), torch::nn::ReLU(),
                            torch::nn::Linear(256, 128), torch::nn::ReLU(), torch::nn::Linear(128, 10));
  std::unique_ptr<torch::optim::Optimizer> opt;
  if (c.train.optimizer == "sgd")
    opt = std::make_unique<torch::optim::SGD>(mlp->parameters(), torch::optim::SGDOptions(c.train.lr).momentum(0.9));
  else
    opt = std::make_unique<torch::optim::Adam>(mlp->parameters(), torch::optim::AdamOptions(c.train.lr));
  int64_t samples = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t epoch = 1; epoch <= c.train.epochs; ++epoch) {
    engine::BatchOrder order(data.train.size(), c.data.batchSize, true, c.train.seed, epoch);
    for (int64_t b = 0; b < order.batches(); ++b) {
      const engine::Batch batch = engine::takeBatch(data.train, order, b);
      const torch::Tensor &x = batch.inputs, &y = batch.targets;
      opt->zero_grad();
      auto loss = torch::nn::functional::cross_entropy(mlp->forward(x), y);
      volatile double v = loss.item<double>();
      (void)v;
      loss.backward();
      opt->step();
      samples += x.size(0);
    }
  }
  return samples / std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char **argv) {
  config::RunConfig c;
  c.train.optimizer = argc > 1 ? argv[1] : "adam";
  c.train.epochs = argc > 2 ? std::stoll(argv[2]) : 2;
  c.data.batchSize = argc > 3 ? std::stoll(argv[3]) : 128;
  c.train.threads = argc > 4 ? std::stoll(argv[4]) : 0;
  const std::string model = argc > 5 ? argv[5] : "mlp";
  c.modelYaml = model == "cnn" ? kCnn : kMlp;
  c.data.path = TW_FASHION_MNIST_DIR;
  c.train.lr = c.train.optimizer == "sgd" ? 0.05 : 1e-3;
  c.train.logEvery = 1;

  std::printf("%s\n", engine::libraryVersions().c_str());
  const engine::TrainSummary s = engine::train(c, nullptr);

  using GetThreads = int (*)();
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "openblas_get_num_threads"));
  const bool found = dlsym(RTLD_DEFAULT, "openblas_set_num_threads") != nullptr;
  std::printf("openblas_set_num_threads found by dlsym: %s; OpenBLAS threads now %d; LibTorch threads %d\n",
              found ? "yes" : "no", get ? get() : -1, at::get_num_threads());
  std::printf("engine %s %s batch %lld: %.0f samples/s (test accuracy %.4f)\n", model.c_str(),
              c.train.optimizer.c_str(), (long long)c.data.batchSize, s.samplesPerSec, s.testAccuracy);

  double bare = 0;
  if (model == "mlp") {
    const engine::Dataset data = engine::loadDataset(c.data, c.train.seed);
    bare = bareLoop(data, c);
    std::printf("bare LibTorch loop: %.0f samples/s\n", bare);
  }
  std::printf("{\"bench\":\"trainer\",\"model\":\"%s\",\"optimizer\":\"%s\",\"batch\":%lld,\"engine_sps\":%.0f,"
              "\"bare_sps\":%.0f}\n",
              model.c_str(), c.train.optimizer.c_str(), (long long)c.data.batchSize, s.samplesPerSec, bare);
  return 0;
}
