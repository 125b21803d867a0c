#include "core/engine/train_setup.h"

#include "core/config/optimizer_rules.h"
#include "core/engine/allocator.h"
#include "core/engine/engine_log.h"
#include "core/engine/memory_format.h"
#include "core/engine/model_builder.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/threads.h"
#include "core/config/metric_keys.h"
#include "core/validate/validate_run.h"
#include "core/spec/convolutions.h"

#include <algorithm>

namespace tw::engine {

std::string messageOf(const std::exception &e) {
  if (auto c10 = dynamic_cast<const c10::Error *>(&e)) return withoutBacktrace(c10->what_without_backtrace());
  return withoutBacktrace(e.what());
}

std::string stageFailure(const char *stage, const std::exception &e) {
  const std::string message = messageOf(e);
  if (message != e.what()) engineLog()->info("{} failed: {}", stage, e.what());
  return std::string(stage) + ": " + message;
}

std::string withoutBacktrace(const std::string &text) {
  // c10 appends "\nException raised from <function> at <file>:<line> (most recent call first):"
  // and one "frame #N: ..." line per stack frame; a message that wrapped such an error carries them too.
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (line.rfind("Exception raised from ", 0) == 0) break;
    if (line.rfind("frame #", 0) != 0) out += (out.empty() ? "" : "\n") + line;
    start = end + 1;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
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
  if (data.task == Task::NextToken) {
    const int64_t t = data.inputShape.empty() ? 0 : data.inputShape[0];
    if (shape.size() != 2 || shape[0] != t)
      throw std::runtime_error("output '" + output->id + "' gives " + spec::formatShape(shape, true) +
                               "; next-token prediction needs a score per vocabulary token at every position [N, " +
                               std::to_string(t) + ", vocabulary]");
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

TrainSetup prepareTraining(const config::RunConfig &config, int cores, DatasetCache *cache) {
  const auto log = engineLog();
  const config::TrainOptions &t = config.train;
  TrainSetup s;

  // The spec is plain data: reading it first tells the thread plan whether the model is
  // convolutional before LibTorch does any work (its thread pool sizes itself on first use).
  s.spec = stage("building model", [&] { return spec::parseModelYaml(config.modelYaml, config.modelFile); });
  s.analysis = stage("building model", [&] { return spec::analyzeOrThrow(s.spec); });
  const ThreadPlan plan = planThreads(static_cast<int>(t.threads), spec::hasConvolution(s.spec),
                                     cores > 0 ? cores : availableCores());
  applyThreads(plan);
  keepStepAllocationsResident();
  log->info("threads: LibTorch {}, BLAS {} ({})", plan.torchThreads, plan.blasThreads, plan.reason);
  torch::manual_seed(static_cast<uint64_t>(t.seed));

  // Option mistakes surface before the data is read, not after. The rules are the validator's,
  // the same ones `check`, `train`, `launch` and Studio applied before the run was recorded; here
  // they also guard a resumed run and a node that joined from a run file. The data reader below
  // reports a missing file itself, with the stage.
  stage("configuring training", [&] {
    validate::ValidateOptions options;
    options.checkData = false;
    validate::validateRunOrThrow(config, s.analysis, options);
    s.device = parseDevice(t.device);
    s.precision = parsePrecision(t.precision, s.device);
    s.channelsLast = useChannelsLast(t.memoryFormat, spec::hasConvolution(s.spec, 2), s.device);
    return 0;
  });

  const int64_t keptBefore = cache ? cache->hits() : 0;
  s.data = stage("loading data", [&] {
    return cache ? cache->load(config.data, t.seed, modelUse(s.analysis)) : loadDataset(config.data, t.seed, modelUse(s.analysis));
  });
  log->info("data: {} train, {} val, {} test examples from {}{}", s.data.train.size(), s.data.val.size(),
            s.data.test.size(), s.data.source,
            cache && cache->hits() > keptBefore ? " (kept from an earlier run of this worker)" : "");
  // What the reader decided on its own (filled values, columns read as categorical) is worth a
  // look before trusting the run: on stderr, not only in the log file.
  for (const auto &note : s.data.notes) log->warn("data: {}", note);
  for (const auto &line : s.data.reading) log->info("data: {}", line);

  stage("configuring training", [&] {
    s.loss = Loss(t, s.data.task, s.data.classes);
    s.monitorMetric = t.monitor.substr(std::string(config::metrics::kValPrefix).size());
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
  s.optimizer = stage("configuring training", [&] {
    std::vector<ParameterGroup> groups = s.model->parameterGroups();
    if (groups.empty() && s.analysis.totalParams > 0)
      throw std::runtime_error("every node with parameters is frozen (trainable: false): nothing would train; "
                               "unfreeze at least the head");
    if (groups.empty()) groups.push_back({1.0, {}});
    for (const ParameterGroup &group : groups) s.lrFactors.push_back(group.lrFactor);
    return makeOptimizer(groups, t);
  });
  s.batchesPerEpoch = (s.data.train.size() + config.data.batchSize - 1) / config.data.batchSize;
  s.stepsPerEpoch = (s.batchesPerEpoch + t.accumulate - 1) / t.accumulate;
  s.evalOptions.topK = t.topK;
  s.evalOptions.device = s.device;
  s.evalOptions.bf16 = s.precision == Precision::BF16;
  log->info("model '{}': {} parameters ({} trainable); {} with lr {}, batch {}, {} epochs, {} on {}, {}", s.spec.name,
            countParameters(*s.model), s.analysis.trainableParams, t.optimizer, t.lr, config.data.batchSize, t.epochs, t.precision, t.device,
            s.channelsLast ? "channels-last" : "contiguous");
  return s;
}

}  // namespace tw::engine
