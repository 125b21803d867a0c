#include "core/validate/validate_run.h"

#include "core/config/number_text.h"
#include "core/config/init_from.h"
#include "core/config/zip_archive_check.h"
#include "core/config/loss_table.h"
#include "core/config/metric_keys.h"
#include "core/config/optimizer_rules.h"
#include "core/config/run_task.h"
#include "core/config/unfreeze.h"
#include "core/spec/param.h"
#include "core/spec/shape.h"
#include "core/validate/data_source.h"

#include <yaml-cpp/yaml.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace tw::validate {

namespace {


// Where a dotted key ("train.monitor") is written in the run file, so that a message can name the
// line; the file alone when the value came from a default or a --set override.
spec::SourceLocation locate(const config::RunConfig &config, const std::string &key) {
  spec::SourceLocation where{config.sourceFile, 0, 0};
  if (config.sourceFile.empty()) return where;
  try {
    // yaml-cpp's Node::operator= writes into the tree; reset() rebinds, which is what a walk needs.
    YAML::Node node = YAML::LoadFile(config.sourceFile);
    size_t start = 0;
    while (node.IsMap()) {
      const size_t dot = key.find('.', start);
      const std::string part = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
      bool found = false;
      YAML::Node child;
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (!it->first.IsScalar() || it->first.Scalar() != part) continue;
        found = true;
        if (dot == std::string::npos) where.line = it->first.Mark().line + 1;
        child.reset(it->second);
        break;
      }
      if (!found || dot == std::string::npos) break;
      node.reset(child);
      start = dot + 1;
    }
  } catch (const YAML::Exception &) {
    // The run file was parsed once already; a location is a courtesy.
  }
  return where;
}

class Checker {
 public:
  Checker(const config::RunConfig &config, const spec::Analysis &analysis, const ValidateOptions &options)
      : m_config(config), m_analysis(analysis), m_options(options) {}

  RunCheck run() {
    checkTraining();
    checkDevice();
    if (m_analysis.ok()) checkModel();
    if (m_options.checkData) {
      if (auto problem = detail::checkDataSource(m_config.data); !problem.empty()) report("data.path", problem);
      else checkBatchFitsTheData();
    }
    return std::move(m_result);
  }

 private:
  void report(const std::string &field, const std::string &message) {
    m_result.diagnostics.push_back({locate(m_config, field), "", field, message});
  }

  // A batch larger than the training split makes every epoch one step over all of it, which is
  // not what the number asked for; a spin box that clamped it would have hidden that.
  void checkBatchFitsTheData() {
    const int64_t train = detail::trainingExamples(m_config.data);
    const int64_t batch = m_config.data.batchSize;
    if (train <= 0 || batch <= train) return;
    report("data.batch_size", std::to_string(batch) + " is larger than the training split (" + std::to_string(train) +
                                  " examples): every epoch would be one step; use at most " + std::to_string(train) +
                                  ", or more data");
  }

  const Machine &machine() {
    if (!m_machine) m_machine = m_options.machine ? *m_options.machine : detectMachine();
    return *m_machine;
  }

  void checkTraining() {
    const config::TrainOptions &t = m_config.train;
    const config::metrics::RunTask task = config::runTask(m_config.data);
    const bool regression = task == config::metrics::RunTask::Regression;
    if (const config::LossProblem p = config::lossProblem(t.loss, task, t.labelSmoothing); !p.message.empty())
      report(p.field, p.message);

    const std::vector<std::string> monitors = config::monitorKeys(m_config.data, t.topK);
    if (std::find(monitors.begin(), monitors.end(), t.monitor) == monitors.end()) {
      std::string list;
      for (const std::string &name : monitors) list += (list.empty() ? "" : ", ") + name;
      const char *kind = regression ? "regression" : task == config::metrics::RunTask::NextToken ? "next-token" : "classification";
      report("train.monitor", "'" + t.monitor + "' is not a validation metric this " + kind + " run records (" + list + ")");
    }
    if (t.schedule == "multistep" && t.milestones.empty())
      report("train.milestones", "the multistep schedule needs milestones, e.g. train.milestones: [30, 60]");
    if (const std::string problem = config::nesterovProblem(t); !problem.empty()) report("train.nesterov", problem);
    if (m_config.data.dataset == "csv" && m_config.data.target.empty())
      report("data.target", "name the CSV column to predict");
    checkInitFrom();
    if (m_config.data.valFraction <= 0.0 && (t.patience > 0 || t.schedule == "plateau"))
      report(t.patience > 0 ? "train.patience" : "train.schedule",
             "early stopping and the plateau schedule watch a validation metric; set data.val_fraction > 0");
  }

  // A run reference is the tracking store's to check (app/common/init_source.h); a file is here.
  void checkInitFrom() {
    const config::InitFrom from = config::parseInitFrom(m_config.train.initFrom);
    if (!from.problem.empty()) return report("train.init_from", from.problem);
    if (from.file.empty()) return;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(from.file, ec))
      report("train.init_from", "the weights file " + from.file + " does not exist or is not a file");
    else if (::access(from.file.c_str(), R_OK) != 0)
      report("train.init_from", "the weights file " + from.file + " cannot be read: " + std::strerror(errno));
    else if (const std::string problem = config::zipArchiveProblem(from.file); !problem.empty())
      report("train.init_from", "the weights file " + from.file + " " + problem);
  }

  void checkDevice() {
    const config::TrainOptions &t = m_config.train;
    bool cuda = false;
    int index = -1;
    if (const std::string problem = parseDeviceName(t.device, &cuda, &index); !problem.empty()) {
      report("train.device", problem);
      return;
    }
    if (t.precision == "fp16" && !cuda) report("train.precision", "fp16 needs a CUDA device; on the CPU use bf16");
    if (m_config.distributed.backend == "nccl" && !cuda)
      report("distributed.backend", "nccl needs a CUDA device (train.device is " + t.device + "); use gloo or auto");
    if (!cuda) return;
    const Machine &m = machine();
    if (m.gpuCount == 0) {
      report("train.device", "'" + t.device + "' but this machine has no GPU (" + m.gpuWhy + "); use cpu");
    } else if (index >= m.gpuCount) {
      report("train.device", "'" + t.device + "' but this machine has " + std::to_string(m.gpuCount) + " GPU" +
                                 (m.gpuCount == 1 ? "" : "s") + " (cuda:0" +
                                 (m.gpuCount > 1 ? " to cuda:" + std::to_string(m.gpuCount - 1) : "") + ")");
    }
  }

  void checkModel() {
    int inputs = 0;
    for (const spec::NodeInfo &node : m_analysis.nodes) inputs += node.op == "Input";
    if (inputs != 1)
      report("model", "the model has " + std::to_string(inputs) + " Input nodes; the data feeds exactly one");
    if (config::runTask(m_config.data) == config::metrics::RunTask::NextToken) checkNextTokenModel();
    checkUnfreeze();
    m_result.memory = estimateMemory(m_config, m_analysis);
    if (m_options.checkMemory) checkMemory();
  }

  // Each step names frozen nodes of this model (or block instances with frozen members), at an
  // epoch the run reaches after its first.
  void checkUnfreeze() {
    std::string problem;
    const std::vector<config::UnfreezeStep> steps = config::parseUnfreeze(m_config.train.unfreeze, &problem);
    if (!problem.empty()) return report("train.unfreeze", problem);
    for (const config::UnfreezeStep &step : steps) {
      const std::string at = "epoch " + std::to_string(step.epoch);
      if (step.epoch < 2 || step.epoch > m_config.train.epochs)
        report("train.unfreeze", at + ": unfreezing happens at the start of epoch 2 to train.epochs (" +
                                     std::to_string(m_config.train.epochs) + "); a node that trains from the first "
                                     "epoch is simply not frozen");
      for (const std::string &name : step.nodes) {
        int covered = 0, frozen = 0;
        for (const spec::NodeInfo &node : m_analysis.nodes)
          if (config::coversNode(name, node.id)) {
            ++covered;
            frozen += !node.trainable && node.paramCount > 0;
          }
        if (covered == 0)
          report("train.unfreeze", at + ": the model has no node or block instance '" + name + "'");
        else if (frozen == 0)
          report("train.unfreeze", at + ": '" + name + "' has no frozen parameters to unfreeze (mark it trainable: false "
                                        "in the model)");
      }
    }
  }

  // A next-token model reads data.seq_len token ids and scores the vocabulary at every position.
  void checkNextTokenModel() {
    const int64_t t = m_config.data.seqLen;
    for (const spec::NodeInfo &node : m_analysis.nodes) {
      if (node.op != "Input") continue;
      const bool ids = spec::has(node.params, "dtype") && spec::getString(node.params, "dtype") == "int64";
      if (!ids || node.outputShape != spec::Shape{t})
        report("model", "input '" + node.id + "' is " + spec::formatShape(node.outputShape, true) +
                            (ids ? "" : " of floats") + "; token-file feeds [N, " + std::to_string(t) +
                            "] token ids (shape: [" + std::to_string(t) + "], dtype: int64, data.seq_len " +
                            std::to_string(t) + ")");
    }
    const spec::NodeInfo *output = m_analysis.find(m_analysis.output);
    if (output && (output->outputShape.size() != 2 || output->outputShape[0] != t))
      report("model", "output '" + output->id + "' gives " + spec::formatShape(output->outputShape, true) +
                          "; next-token prediction needs a score per token of the vocabulary at every position [N, " +
                          std::to_string(t) + ", vocabulary]");
  }

  // The device's whole memory, not what is free now: free memory changes by the second, and the
  // estimate is a lower bound, so only a run that cannot fit even an idle device is refused.
  void checkMemory() {
    const config::TrainOptions &t = m_config.train;
    bool cuda = false;
    int index = -1;
    if (!parseDeviceName(t.device, &cuda, &index).empty()) return;
    const Machine &m = machine();
    const MemoryEstimate &e = m_result.memory;
    double need = e.total(), have = 0.0;
    std::string device;
    if (!cuda) {
      // Every rank on this machine holds its own model, gradients and optimiser state in host RAM.
      const double ranks = static_cast<double>(std::max<int64_t>(1, m_config.distributed.nprocPerNode));
      need *= ranks;
      have = m.hostMemoryBytes;
      device = "this machine's RAM";
      if (ranks > 1) device += " (" + std::to_string(static_cast<int64_t>(ranks)) + " ranks)";
    } else {
      const size_t gpu = static_cast<size_t>(std::max(index, 0));
      if (gpu >= m.gpuMemoryBytes.size()) return;  // the driver did not say
      have = m.gpuMemoryBytes[gpu];
      device = "cuda:" + std::to_string(gpu);
    }
    if (have <= 0.0 || need <= have) return;
    const bool canShard = m_config.distributed.nprocPerNode > 1 && m_config.distributed.shard != "gradients";
    report("train.device",
           "the run needs about " + config::formatBytes(need) + " (parameters " + config::formatBytes(e.parameters) + ", gradients " +
               config::formatBytes(e.gradients) + ", optimiser state " + config::formatBytes(e.optimizerState) +
               (e.parameterShard > 0 ? ", parameter shard " + config::formatBytes(e.parameterShard) : std::string()) +
               ", activations " + config::formatBytes(e.activations) + " at batch " + std::to_string(e.batch) + ") but " + device +
               " has " + config::formatBytes(have) + ": " + config::formatBytes(need - have) +
               " too much; lower data.batch_size or make the model smaller" +
               (canShard ? ", or split the optimiser state and gradients across the ranks (distributed.shard: gradients)"
                         : std::string()));
  }

  const config::RunConfig &m_config;
  const spec::Analysis &m_analysis;
  const ValidateOptions &m_options;
  std::optional<Machine> m_machine;
  RunCheck m_result;
};

}  // namespace

std::string parseDeviceName(const std::string &name, bool *cuda, int *index) {
  *cuda = false;
  *index = -1;
  if (name == "cpu") return {};
  if (name == "cuda") {
    *cuda = true;
    return {};
  }
  const std::string prefix = "cuda:";
  if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() && name.size() <= prefix.size() + 4 &&
      std::all_of(name.begin() + static_cast<long>(prefix.size()), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    *cuda = true;
    *index = std::stoi(name.substr(prefix.size()));
    return {};
  }
  return "unknown device '" + name + "' (expected cpu, cuda or cuda:N)";
}

RunCheck validateRun(const config::RunConfig &config, const spec::Analysis &analysis, const ValidateOptions &options) {
  return Checker(config, analysis, options).run();
}

void validateRunOrThrow(const config::RunConfig &config, const spec::Analysis &analysis,
                        const ValidateOptions &options) {
  const RunCheck check = validateRun(config, analysis, options);
  if (!check.ok()) throw std::runtime_error(spec::formatDiagnostics(check.diagnostics));
}

}  // namespace tw::validate
