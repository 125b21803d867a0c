#include "core/engine/train_setup.h"

#include "core/engine/allocator.h"
#include "core/engine/engine_log.h"
#include "core/engine/memory_format.h"
#include "core/engine/model_builder.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/threads.h"

#include <algorithm>

namespace tw::engine {

std::string messageOf(const std::exception &e) {
  if (auto c10 = dynamic_cast<const c10::Error *>(&e)) return c10->what_without_backtrace();
  return e.what();
}

namespace {

// The data must fit the model: one input of the data's shape, an output the loss can read.
void checkModelFitsData(const GraphModule &model, const spec::Analysis &analysis, const Dataset &data,
                        const std::string &loss) {
  if (model.inputIds().size() != 1) {
    throw std::runtime_error("the model has " + std::to_string(model.inputIds().size()) +
                             " inputs; the data feeds exactly one");
  }
  const spec::NodeInfo *input = analysis.find(model.inputIds().front());
  if (input && input->outputShape != data.inputShape) {
    throw std::runtime_error("input '" + input->id + "' expects " + spec::formatShape(input->outputShape, true) +
                             " but the data is " + spec::formatShape(data.inputShape, true));
  }
  const spec::NodeInfo *output = analysis.find(analysis.output);
  if (!output) return;
  const spec::Shape &shape = output->outputShape;
  if (data.task == Task::Regression) {
    if (shape != spec::Shape{data.targetDim}) {
      throw std::runtime_error("output '" + output->id + "' gives " + spec::formatShape(shape, true) + "; " + loss +
                               " needs one value per target [N, " + std::to_string(data.targetDim) + "]");
    }
    return;
  }
  const bool binaryHead = loss == "bce_with_logits" && shape == spec::Shape{1} && data.classes <= 2;
  if (!binaryHead && (shape.size() != 1 || shape[0] < data.classes)) {
    throw std::runtime_error("output '" + output->id + "' gives " + spec::formatShape(shape, true) + "; " + loss +
                             " needs class scores [N, " + std::to_string(data.classes) + "]");
  }
  if (!binaryHead && shape[0] > data.classes)
    engineLog()->warn("{}", data::classSurplusWarning(output->id, shape[0], data.classes));
}

}  // namespace

TrainSetup prepareTraining(const config::RunConfig &config, int cores) {
  const auto log = engineLog();
  const config::TrainOptions &t = config.train;
  TrainSetup s;

  // The spec is plain data: reading it first tells the thread plan whether the model is
  // convolutional before LibTorch does any work (its thread pool sizes itself on first use).
  s.spec = stage("building model", [&] { return spec::parseModelYaml(config.modelYaml, config.modelFile); });
  s.analysis = stage("building model", [&] { return spec::analyzeOrThrow(s.spec); });
  const ThreadPlan plan = planThreads(static_cast<int>(t.threads), isConvolutional(s.spec),
                                     cores > 0 ? cores : availableCores());
  applyThreads(plan);
  keepStepAllocationsResident();
  log->info("threads: LibTorch {}, BLAS {} ({})", plan.torchThreads, plan.blasThreads, plan.reason);
  torch::manual_seed(static_cast<uint64_t>(t.seed));

  // Option mistakes surface before the data is read, not after.
  stage("configuring training", [&] {
    s.device = parseDevice(t.device);
    s.precision = parsePrecision(t.precision, s.device);
    s.channelsLast = useChannelsLast(t.memoryFormat, hasConv2d(s.spec), s.device);
    if (t.monitor.rfind("val/", 0) != 0)
      throw std::runtime_error("train.monitor: '" + t.monitor + "' is not a validation metric (val/loss, val/accuracy ...)");
    if (t.schedule == "multistep" && t.milestones.empty())
      throw std::runtime_error("train.schedule multistep needs train.milestones, e.g. [30, 60]");
    if (t.optimizer == "sgd" && t.nesterov && t.momentum <= 0.0)
      throw std::runtime_error("train.nesterov needs train.momentum > 0");
    // The task is known from the options already (only CSV tables can be regression), so a
    // loss that does not fit it is reported before any data is read.
    const Task task = config.data.dataset == "csv" ? data::parseTask(config.data.task) : Task::Classification;
    Loss(t, task, 0);
    return 0;
  });

  s.data = stage("loading data", [&] { return loadDataset(config.data, t.seed, modelUse(s.analysis)); });
  log->info("data: {} train, {} val, {} test examples from {}", s.data.train.size(), s.data.val.size(),
            s.data.test.size(), s.data.source);
  // What the reader decided on its own (filled values, columns read as categorical) is worth a
  // look before trusting the run: on stderr, not only in the log file.
  for (const auto &note : s.data.notes) log->warn("data: {}", note);

  stage("configuring training", [&] {
    s.loss = Loss(t, s.data.task, s.data.classes);
    s.monitorMetric = t.monitor.substr(4);
    const auto known = evaluationMetricNames(s.data.task, t.topK);
    if (std::find(known.begin(), known.end(), s.monitorMetric) == known.end()) {
      std::string list;
      for (const auto &name : known) list += (list.empty() ? "val/" : ", val/") + name;
      throw std::runtime_error("train.monitor: no metric '" + t.monitor + "' for this task (known: " + list + ")");
    }
    if (s.data.val.size() == 0 && (t.patience > 0 || t.schedule == "plateau"))
      throw std::runtime_error("train.patience and the plateau schedule watch a validation metric; set data.val_fraction > 0");
    return 0;
  });

  s.model = stage("building model", [&] {
    auto built = buildModel(s.spec, s.analysis);
    checkModelFitsData(*built, s.analysis, s.data, t.loss);
    built->to(s.device);
    if (s.channelsLast) {
      toChannelsLast(*built);
      built->setChannelsLastInputs(true);
    }
    return built;
  });
  s.optimizer = stage("configuring training", [&] { return makeOptimizer(s.model->parameters(), t); });
  s.batchesPerEpoch = (s.data.train.size() + config.data.batchSize - 1) / config.data.batchSize;
  s.stepsPerEpoch = (s.batchesPerEpoch + t.accumulate - 1) / t.accumulate;
  s.evalOptions.topK = t.topK;
  s.evalOptions.device = s.device;
  s.evalOptions.bf16 = s.precision == Precision::BF16;
  log->info("model '{}': {} parameters; {} with lr {}, batch {}, {} epochs, {} on {}, {}", s.spec.name,
            countParameters(*s.model), t.optimizer, t.lr, config.data.batchSize, t.epochs, t.precision, t.device,
            s.channelsLast ? "channels-last" : "contiguous");
  return s;
}

}  // namespace tw::engine
