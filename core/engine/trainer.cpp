#include "core/engine/trainer.h"

#include "core/engine/dataset.h"
#include "core/engine/engine_log.h"
#include "core/engine/model_builder.h"
#include "core/engine/threads.h"
#include "core/spec/analysis.h"
#include "tracking/metric_writer.h"

#include <spdlog/fmt/fmt.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

namespace tw::engine {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// c10::Error's what() carries a C++ backtrace that means nothing to the person reading the run.
std::string messageOf(const std::exception &e) {
  if (auto c10 = dynamic_cast<const c10::Error *>(&e)) return c10->what_without_backtrace();
  return e.what();
}

// Runs one stage; any failure comes out as "<stage>: <what went wrong>".
template <typename F>
auto stage(const char *name, F &&f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception &e) {
    throw std::runtime_error(std::string(name) + ": " + messageOf(e));
  }
}

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(const std::vector<torch::Tensor> &params,
                                                       const config::TrainOptions &t) {
  if (t.optimizer == "sgd") {
    return std::make_unique<torch::optim::SGD>(
        params, torch::optim::SGDOptions(t.lr).momentum(t.momentum).weight_decay(t.weightDecay));
  }
  if (t.optimizer == "adam") {
    return std::make_unique<torch::optim::Adam>(
        params, torch::optim::AdamOptions(t.lr).betas({t.beta1, t.beta2}).weight_decay(t.weightDecay));
  }
  if (t.optimizer == "adamw") {
    return std::make_unique<torch::optim::AdamW>(
        params, torch::optim::AdamWOptions(t.lr).betas({t.beta1, t.beta2}).weight_decay(t.weightDecay));
  }
  throw std::runtime_error("unknown optimizer '" + t.optimizer + "' (expected sgd, adam or adamw)");
}

struct Evaluation {
  double loss = 0.0;
  double accuracy = 0.0;
};

Evaluation evaluate(GraphModule &model, const Split &split) {
  Evaluation result;
  if (split.size() == 0) return result;
  model.eval();
  torch::NoGradGuard noGrad;
  // Large slices: no optimiser step to wait for, so fewer, bigger GEMMs win.
  constexpr int64_t kSlice = 1000;
  torch::Tensor lossSum = torch::zeros({}, torch::kDouble);
  torch::Tensor correct = torch::zeros({}, torch::kLong);
  for (int64_t start = 0; start < split.size(); start += kSlice) {
    const int64_t end = std::min(split.size(), start + kSlice);
    const torch::Tensor labels = split.labels.slice(0, start, end);
    const torch::Tensor logits = model.forward(split.images.slice(0, start, end));
    lossSum += torch::nn::functional::cross_entropy(
        logits, labels, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
    correct += logits.argmax(1).eq(labels).sum();
  }
  result.loss = lossSum.item<double>() / static_cast<double>(split.size());
  result.accuracy = static_cast<double>(correct.item<int64_t>()) / static_cast<double>(split.size());
  return result;
}

// The data must fit the model: one image input of the data's shape, class scores out.
void checkModelFitsData(const GraphModule &model, const spec::Analysis &analysis, const Dataset &data) {
  if (model.inputIds().size() != 1) {
    throw std::runtime_error("the model has " + std::to_string(model.inputIds().size()) +
                             " inputs; image classification feeds exactly one");
  }
  const spec::NodeInfo *input = analysis.find(model.inputIds().front());
  const spec::Shape dataShape = data.train.images.sizes().slice(1).vec();
  if (input && input->outputShape != dataShape) {
    throw std::runtime_error("input '" + input->id + "' expects " + spec::formatShape(input->outputShape, true) +
                             " but the images are " + spec::formatShape(dataShape, true));
  }
  const spec::NodeInfo *output = analysis.find(analysis.output);
  if (output && (output->outputShape.size() != 1 || output->outputShape[0] < data.classes)) {
    throw std::runtime_error("output '" + output->id + "' gives " + spec::formatShape(output->outputShape, true) +
                             "; cross_entropy needs class scores [N, " + std::to_string(data.classes) + "]");
  }
}

double learningRate(const torch::optim::Optimizer &optimizer) {
  return optimizer.param_groups().front().options().get_lr();
}

}  // namespace

TrainSummary train(const config::RunConfig &config, tracking::MetricWriter *writer,
                   const TrainCallbacks &callbacks) {
  const auto log = engineLog();
  const auto runStart = Clock::now();
  const config::TrainOptions &t = config.train;
  const int64_t logEvery = std::max<int64_t>(1, t.logEvery);

  // The spec is plain data: reading it first tells the thread plan whether the model is
  // convolutional before LibTorch does any work (its thread pool sizes itself on first use).
  const spec::ModelSpec modelSpec = stage("building model", [&] {
    return spec::parseModelYaml(config.modelYaml, config.modelFile);
  });
  const spec::Analysis analysis = stage("building model", [&] { return spec::analyzeOrThrow(modelSpec); });

  const ThreadPlan plan = planThreads(static_cast<int>(t.threads), isConvolutional(modelSpec), availableCores());
  applyThreads(plan);
  log->info("threads: LibTorch {}, BLAS {} ({})", plan.torchThreads, plan.blasThreads, plan.reason);
  torch::manual_seed(static_cast<uint64_t>(t.seed));

  // Option mistakes surface before the data is read, not after.
  if (t.loss != "cross_entropy")
    throw std::runtime_error("configuring training: unknown loss '" + t.loss + "' (expected cross_entropy)");
  if (t.optimizer != "sgd" && t.optimizer != "adam" && t.optimizer != "adamw")
    throw std::runtime_error("configuring training: unknown optimizer '" + t.optimizer + "' (expected sgd, adam or adamw)");

  const auto loadStart = Clock::now();
  const Dataset data = stage("loading data", [&] { return loadDataset(config.data, t.seed); });
  log->info("data: {} train, {} val, {} test images from {} in {:.2f}s (mean {:.4f}, std {:.4f})",
            data.train.size(), data.val.size(), data.test.size(), data.directory, secondsSince(loadStart),
            data.mean, data.stddev);
  if (callbacks.onDataLoaded) callbacks.onDataLoaded(data.fingerprint);

  const std::shared_ptr<GraphModule> model = stage("building model", [&] {
    auto built = buildModel(modelSpec, analysis);
    checkModelFitsData(*built, analysis, data);
    return built;
  });
  const std::unique_ptr<torch::optim::Optimizer> optimizer =
      stage("configuring training", [&] { return makeOptimizer(model->parameters(), t); });

  TrainSummary summary;
  summary.parameters = countParameters(*model);
  summary.trainSamples = data.train.size();
  summary.valSamples = data.val.size();
  summary.testSamples = data.test.size();
  log->info("model '{}': {} parameters; {} with lr {}, batch {}, {} epochs", modelSpec.name, summary.parameters,
            t.optimizer, t.lr, config.data.batchSize, t.epochs);

  int64_t step = 0;
  int64_t trainedSamples = 0;
  double trainSeconds = 0.0;
  stage("training", [&] {
    for (int64_t epoch = 1; epoch <= t.epochs && !summary.stopped; ++epoch) {
      model->train();
      BatchIterator batches(data.train, config.data.batchSize, config.data.shuffle, t.seed, epoch);
      const double lr = learningRate(*optimizer);
      const auto epochStart = Clock::now();
      double lossSum = 0.0;
      int64_t seen = 0;
      torch::Tensor x, y;
      while (batches.next(x, y)) {
        if (callbacks.shouldStop && callbacks.shouldStop()) {
          summary.stopped = true;
          break;
        }
        optimizer->zero_grad();
        const torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(x), y);
        // The one host read per step: logging and the NaN guard need the value (on the CPU it
        // is a plain load, no device sync).
        const double value = loss.item<double>();
        if (!std::isfinite(value)) {
          throw std::runtime_error(fmt::format("loss is {} at step {} (epoch {}); try a lower learning rate than {}",
                                               std::isnan(value) ? "NaN" : "Inf", step + 1, epoch, lr));
        }
        loss.backward();
        optimizer->step();
        ++step;
        const int64_t n = x.size(0);
        lossSum += value * static_cast<double>(n);
        seen += n;
        if (writer && step % logEvery == 0) {
          writer->log("train/loss", step, value);
          writer->log("train/lr", step, lr);
        }
      }
      const double epochTrainSeconds = secondsSince(epochStart);
      trainSeconds += epochTrainSeconds;
      trainedSamples += seen;
      if (summary.stopped) break;

      EpochReport report;
      report.epoch = epoch;
      report.epochs = t.epochs;
      report.step = step;
      report.trainLoss = seen ? lossSum / static_cast<double>(seen) : 0.0;
      report.samplesPerSec = epochTrainSeconds > 0 ? static_cast<double>(seen) / epochTrainSeconds : 0.0;
      const Evaluation val = evaluate(*model, data.val);
      report.valLoss = val.loss;
      report.valAccuracy = val.accuracy;
      report.seconds = secondsSince(epochStart);
      if (writer) {
        writer->log("train/epoch_loss", step, report.trainLoss);
        writer->log("train/samples_per_sec", step, report.samplesPerSec);
        if (data.val.size() > 0) {
          writer->log("val/loss", step, val.loss);
          writer->log("val/accuracy", step, val.accuracy);
        }
        writer->log("epoch", step, static_cast<double>(epoch));
      }
      log->info("epoch {}/{}: train loss {:.4f}, val loss {:.4f}, val accuracy {:.2f}%, {:.0f} samples/s",
                epoch, t.epochs, report.trainLoss, val.loss, 100.0 * val.accuracy, report.samplesPerSec);
      summary.epochs = epoch;
      summary.trainLoss = report.trainLoss;
      summary.valLoss = report.valLoss;
      summary.valAccuracy = report.valAccuracy;
      if (callbacks.onEpoch) callbacks.onEpoch(report);
    }
  });
  summary.steps = step;
  summary.samplesPerSec = trainSeconds > 0 ? static_cast<double>(trainedSamples) / trainSeconds : 0.0;

  // A stopped run ends promptly: the person asked for it, and a partial model's test score
  // would only be mistaken for the real one.
  if (!summary.stopped) {
    const Evaluation test = stage("testing", [&] { return evaluate(*model, data.test); });
    summary.testLoss = test.loss;
    summary.testAccuracy = test.accuracy;
    if (writer) {
      writer->log("test/loss", step, test.loss);
      writer->log("test/accuracy", step, test.accuracy);
    }
    log->info("test: loss {:.4f}, accuracy {:.2f}%", test.loss, 100.0 * test.accuracy);
  } else {
    log->info("stopped on request after {} steps", step);
  }
  summary.seconds = secondsSince(runStart);
  return summary;
}

}  // namespace tw::engine
