// Activation checkpointing (`checkpoint_activations`, model_spec.h; engine/activation_checkpoint.h):
// the Transformer example trained with its encoder layers checkpointed computes the same
// gradients and weights as without (dropout's masks included), while the activations autograd
// holds after the forward pass, counted by a CPU allocator that sees every allocation, are at
// least halved. The key reads and writes back with its segments, and the memory estimate counts it.

#include "core/engine/model_builder.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/validate/memory_estimate.h"

#include <c10/core/CPUAllocator.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <QtTest>

#include <atomic>
#include <cstring>
#include <fstream>
#include <sstream>

using namespace tw;

namespace {

// Every CPU allocation LibTorch makes, counted: bytes held now and the most held since reset().
class CountingAllocator : public c10::Allocator {
 public:
  explicit CountingAllocator(c10::Allocator *base) : m_base(base) {}
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
  c10::DataPtr allocate(size_t bytes) override { return counted(bytes); }
  void copy_data(void *dest, const void *src, std::size_t count) const override { std::memcpy(dest, src, count); }
#else
  c10::DataPtr allocate(size_t bytes) const override { return counted(bytes); }
#endif
  c10::DeleterFnPtr raw_deleter() const override { return nullptr; }

  int64_t held() const { return m_held.load(); }
  int64_t peak() const { return m_peak.load(); }
  void reset() { m_peak.store(m_held.load()); }

 private:
  struct Block {
    c10::DataPtr inner;
    size_t bytes;
    const CountingAllocator *owner;
  };
  static void release(void *context) {
    auto *block = static_cast<Block *>(context);
    block->owner->m_held -= static_cast<int64_t>(block->bytes);
    delete block;
  }
  c10::DataPtr counted(size_t bytes) const {
    auto *block = new Block{m_base->allocate(bytes), bytes, this};
    const int64_t now = m_held += static_cast<int64_t>(bytes);
    int64_t peak = m_peak.load();
    while (now > peak && !m_peak.compare_exchange_weak(peak, now)) {
    }
    return c10::DataPtr(block->inner.get(), block, &release, block->inner.device());
  }
  c10::Allocator *m_base;
  mutable std::atomic<int64_t> m_held{0}, m_peak{0};
};

CountingAllocator *counter() {
  static CountingAllocator *allocator = [] {
    auto *a = new CountingAllocator(c10::GetCPUAllocator());
    c10::SetCPUAllocator(a, /*priority=*/100);
    return a;
  }();
  return allocator;
}

std::string exampleModel(bool checkpointed) {
  std::ifstream in(TW_SOURCE_DIR "/resources/examples/fashion_transformer.model.yaml");
  std::stringstream text;
  text << in.rdbuf();
  std::string yaml = text.str();
  if (checkpointed) {
    for (const char *layer : {"encoder1", "encoder2"}) {
      const std::string from = std::string("{id: ") + layer + ", op: TransformerEncoderLayer,";
      const auto at = yaml.find(from);
      if (at != std::string::npos) yaml.replace(at, from.size(), from + " checkpoint_activations: true,");
    }
  }
  return yaml;
}

std::shared_ptr<engine::GraphModule> build(const std::string &yaml) {
  const spec::ModelSpec s = spec::parseModelYaml(yaml);
  return engine::buildModel(s, spec::analyzeOrThrow(s));
}

// Three SGD steps on one fixed batch, dropout on; the gradients of the first step and the weights
// after the last.
struct Trained {
  std::vector<torch::Tensor> firstGrads, weights;
};
Trained train(engine::GraphModule &model, const torch::Tensor &images, const torch::Tensor &labels) {
  model.train(true);
  torch::optim::SGD sgd(model.parameters(), torch::optim::SGDOptions(0.05));
  Trained out;
  for (int step = 0; step < 3; ++step) {
    torch::manual_seed(100 + step);  // the same dropout masks for both models
    sgd.zero_grad();
    torch::nn::functional::cross_entropy(model.forward(images), labels).backward();
    if (step == 0)
      for (const auto &item : model.named_parameters()) {
        const torch::Tensor &p = item.value();
        if (!p.grad().defined()) qWarning("%s has no gradient", item.key().c_str());
        out.firstGrads.push_back(p.grad().defined() ? p.grad().clone() : torch::full_like(p, NAN));
      }
    sgd.step();
  }
  for (const auto &p : model.parameters()) out.weights.push_back(p.detach().clone());
  return out;
}

// What autograd holds once the forward pass is done (the loss computed), and the most held until
// the backward pass has finished, above what the model and the batch hold already.
struct Held {
  int64_t afterForward = 0, peak = 0;
};
Held measure(engine::GraphModule &model, const torch::Tensor &images, const torch::Tensor &labels) {
  model.train(true);
  for (auto &p : model.parameters()) p.mutable_grad() = torch::zeros_like(p);  // gradients' memory up front
  CountingAllocator *c = counter();
  torch::manual_seed(1);
  const int64_t before = c->held();
  c->reset();
  torch::Tensor loss = torch::nn::functional::cross_entropy(model.forward(images), labels);
  Held held;
  held.afterForward = c->held() - before;
  loss.backward();
  loss = torch::Tensor();
  held.peak = c->peak() - before;
  return held;
}

}  // namespace

class TestActivationCheckpoint : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    counter();  // before any tensor: every allocation is counted from here on
    torch::set_num_threads(1);
  }

  void checkpointedTrainingEqualsPlainTraining() {
    auto plain = build(exampleModel(false));
    auto checkpointed = build(exampleModel(true));
    QCOMPARE(plain->checkpointSegments(), size_t(0));
    QCOMPARE(checkpointed->checkpointSegments(), size_t(2));
    {
      torch::NoGradGuard noGrad;
      auto from = plain->parameters(), to = checkpointed->parameters();
      QCOMPARE(from.size(), to.size());
      for (size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
    }
    torch::manual_seed(3);
    const torch::Tensor images = torch::rand({32, 1, 28, 28});
    const torch::Tensor labels = torch::randint(0, 10, {32});
    const Trained a = train(*plain, images, labels), b = train(*checkpointed, images, labels);
    QCOMPARE(a.firstGrads.size(), b.firstGrads.size());
    double gradDiff = 0.0, weightDiff = 0.0;
    for (size_t i = 0; i < a.firstGrads.size(); ++i) {
      gradDiff = std::max(gradDiff, (a.firstGrads[i] - b.firstGrads[i]).abs().max().item<double>());
      weightDiff = std::max(weightDiff, (a.weights[i] - b.weights[i]).abs().max().item<double>());
    }
    qInfo("largest difference: gradients %.3g, weights after 3 steps %.3g", gradDiff, weightDiff);
    // The same operations on the same values; only the order of a few sums may differ.
    QVERIFY2(gradDiff <= 1e-6, qPrintable(QString::number(gradDiff)));
    QVERIFY2(weightDiff <= 1e-6, qPrintable(QString::number(weightDiff)));
    // Evaluation mode and no-grad runs take the plain path: the same output either way.
    checkpointed->eval();
    plain->eval();
    torch::NoGradGuard noGrad;
    QVERIFY(torch::allclose(plain->forward(images), checkpointed->forward(images), 1e-5, 1e-6));
  }

  // The example's batch of 128: the activations held after the forward pass at least halve.
  void activationMemoryAtLeastHalves() {
    auto plain = build(exampleModel(false));
    auto checkpointed = build(exampleModel(true));
    torch::manual_seed(4);
    const torch::Tensor images = torch::rand({128, 1, 28, 28});
    const torch::Tensor labels = torch::randint(0, 10, {128});
    const Held a = measure(*plain, images, labels), b = measure(*checkpointed, images, labels);
    const double ratio = static_cast<double>(a.afterForward) / static_cast<double>(std::max<int64_t>(1, b.afterForward));
    qInfo("activations held after the forward pass: %.2f MiB plain, %.2f MiB checkpointed (%.2fx less); "
          "peak through backward %.2f MiB and %.2f MiB",
          a.afterForward / 1048576.0, b.afterForward / 1048576.0, ratio, a.peak / 1048576.0, b.peak / 1048576.0);
    std::printf("{\"bench\":\"activation_checkpoint\",\"plain_mib\":%.3f,\"checkpointed_mib\":%.3f,\"ratio\":%.3f,"
                "\"plain_peak_mib\":%.3f,\"checkpointed_peak_mib\":%.3f}\n",
                a.afterForward / 1048576.0, b.afterForward / 1048576.0, ratio, a.peak / 1048576.0, b.peak / 1048576.0);
    QVERIFY2(a.afterForward > 0 && b.afterForward > 0, "the allocator counted nothing");
    QVERIFY2(ratio >= 2.0, qPrintable(QString("only %1x").arg(ratio)));
    QVERIFY2(b.peak < a.peak, "checkpointing did not lower the peak");
  }

  // A block instance is one segment, named after it; written back node by node the members name
  // it, and read again they form the same segment. A value that is not true, false or a name is
  // refused at its line.
  void theKeyReadsAndWritesBackItsSegments() {
    const std::string yaml = R"(name: blocks
blocks:
  dense:
    params: {width: 16}
    inputs: [x]
    nodes:
      - {id: fc, op: Linear, out_features: $width, inputs: [x]}
      - {id: act, op: ReLU}
    output: act
nodes:
  - {id: image, op: Input, shape: [8]}
  - {id: h1, block: dense, checkpoint_activations: true}
  - {id: h2, block: dense}
  - {id: out, op: Linear, out_features: 2, checkpoint_activations: true}
output: out
)";
    const spec::ModelSpec s = spec::parseModelYaml(yaml);
    auto segmentOf = [](const spec::ModelSpec &m, const std::string &id) { return m.find(id)->checkpointSegment; };
    QCOMPARE(segmentOf(s, "h1.fc"), std::string("h1"));
    QCOMPARE(segmentOf(s, "h1.act"), std::string("h1"));
    QCOMPARE(segmentOf(s, "h2.fc"), std::string());
    QCOMPARE(segmentOf(s, "out"), std::string("out"));
    const spec::ModelSpec back = spec::parseModelYaml(spec::toYaml(s));
    for (const auto &node : s.nodes) QCOMPARE(segmentOf(back, node.id), node.checkpointSegment);
    QCOMPARE(build(spec::toYaml(s))->checkpointSegments(), size_t(2));

    try {
      spec::parseModelYaml("name: m\nnodes:\n  - {id: image, op: Input, shape: [8]}\n"
                           "  - {id: fc, op: Linear, out_features: 2, checkpoint_activations: 3}\n");
      QFAIL("a number was taken");
    } catch (const spec::SpecError &e) {
      QVERIFY2(QString::fromStdString(e.what()).contains("checkpoint_activations' must be true, false or the name"),
               e.what());
    }
  }

  // `check`'s estimate counts node outputs: a checkpointed block keeps only its output, plus the
  // largest block's insides while it is recomputed. (A single checkpointed op, such as the
  // example's encoder layers, keeps its output; its insides were never in the estimate.)
  void theMemoryEstimateCountsIt() {
    auto model = [](bool checkpointed) {
      std::string yaml = "name: deep\nblocks:\n  dense:\n    inputs: [x]\n    nodes:\n"
                         "      - {id: fc, op: Linear, out_features: 256, inputs: [x]}\n"
                         "      - {id: act, op: ReLU}\n      - {id: drop, op: Dropout, p: 0.1}\n    output: drop\n"
                         "nodes:\n  - {id: image, op: Input, shape: [256]}\n";
      for (int i = 1; i <= 3; ++i)
        yaml += "  - {id: h" + std::to_string(i) + ", block: dense" + (checkpointed ? ", checkpoint_activations: true" : "") + "}\n";
      return yaml + "  - {id: out, op: Linear, out_features: 10}\noutput: out\n";
    };
    config::RunConfig run;
    run.data.batchSize = 100;
    const validate::MemoryEstimate plain = validate::estimateMemory(run, spec::analyzeOrThrow(spec::parseModelYaml(model(false))));
    const validate::MemoryEstimate checkpointed =
        validate::estimateMemory(run, spec::analyzeOrThrow(spec::parseModelYaml(model(true))));
    // Per example: input 256 + 3 blocks x 3 outputs x 256 + 10 plain; checkpointed, the 3 block
    // outputs kept and one block's fc and act recomputed at a time.
    QCOMPARE(plain.activations, (256.0 + 9 * 256 + 10) * 4 * 100);
    QCOMPARE(checkpointed.activations, (256.0 + 3 * 256 + 10 + 2 * 256) * 4 * 100);
    QCOMPARE(checkpointed.checkpointedSegments, 3);
    QVERIFY(validate::formatMemoryEstimate(checkpointed, run).find("activations (3 recomputed)") != std::string::npos);
  }
};

QTEST_GUILESS_MAIN(TestActivationCheckpoint)
#include "test_activation_checkpoint.moc"
