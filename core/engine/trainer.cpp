#include "core/engine/trainer.h"

#include "core/engine/atomic_file.h"
#include "core/engine/batch_stream.h"
#include "core/engine/checkpoint.h"
#include "core/engine/dataset.h"
#include "core/engine/diagnostics.h"
#include "core/engine/engine_log.h"
#include "core/engine/evaluation.h"
#include "core/engine/lr_schedule.h"
#include "core/engine/model_builder.h"
#include "core/engine/monitor.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/precision.h"
#include "core/engine/threads.h"
#include "core/engine/train_setup.h"
#include "core/spec/analysis.h"
#include "tracking/metric_writer.h"

#include <spdlog/fmt/fmt.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;

namespace tw::engine {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One training run from setup to the test evaluation. The loop's state lives in `m_progress`,
// which is exactly what a checkpoint holds, so that a resumed run continues bit for bit.
class TrainRun {
 public:
  TrainRun(const config::RunConfig &config, tracking::MetricWriter *writer, const TrainCallbacks &callbacks,
           const TrainEnvironment &env)
      : m_config(config), m_t(config.train), m_writer(writer), m_callbacks(callbacks), m_env(env),
        m_setup(prepareTraining(config)), m_schedule(m_t, m_setup.stepsPerEpoch),
        m_scaler(m_setup.precision == Precision::FP16), m_augment(config.data) {
    m_params = m_setup.model->parameters();
    m_summary.parameters = countParameters(*m_setup.model);
    m_summary.classification = m_setup.data.task == Task::Classification;
    m_summary.trainSamples = m_setup.data.train.size();
    m_summary.valSamples = m_setup.data.val.size();
    m_summary.testSamples = m_setup.data.test.size();
    if (m_callbacks.onDataLoaded) m_callbacks.onDataLoaded(m_setup.data.fingerprint);
    if (!m_env.runDir.empty() && m_env.checkpoints) {
      fs::create_directories(fs::path(m_env.runDir) / "checkpoints");
      fs::create_directories(fs::path(m_env.runDir) / "artifacts");
      const int stale = removeStaleTemporaries((fs::path(m_env.runDir) / "checkpoints").string()) +
                        removeStaleTemporaries((fs::path(m_env.runDir) / "artifacts").string());
      if (stale) engineLog()->info("removed {} temporary file(s) left by an interrupted write", stale);
    }
  }

  TrainSummary run() {
    const auto runStart = Clock::now();
    resumeIfAsked();
    for (; m_progress.epoch <= m_t.epochs && !m_summary.stopped && !m_summary.earlyStopped; ) runEpoch();
    m_summary.steps = m_progress.step;
    m_summary.epochs = std::min(m_t.epochs, m_progress.epoch - 1);
    m_summary.samplesPerSec =
        m_progress.trainSeconds > 0 ? static_cast<double>(m_progress.trainedSamples) / m_progress.trainSeconds : 0.0;
    m_summary.bestEpoch = m_progress.bestEpoch;
    m_summary.bestValue = m_progress.best;
    // A stopped run ends promptly: the person asked for it, and a partial model's test score
    // would only be mistaken for the real one.
    if (!m_summary.stopped) finish();
    m_summary.weightsDigest = weightsDigest(*m_setup.model);
    m_summary.seconds = secondsSince(runStart);
    return m_summary;
  }

 private:
  std::string checkpointPath(const char *name) const {
    return (fs::path(m_env.runDir) / "checkpoints" / name).string();
  }
  bool writesFiles() const { return !m_env.runDir.empty() && m_env.checkpoints; }

  void resumeIfAsked() {
    if (!m_env.resume || m_env.runDir.empty() || !fs::exists(checkpointPath("last.pt"))) return;
    m_progress = stage("resuming", [&] { return loadCheckpoint(checkpointPath("last.pt"), *m_setup.model, *m_setup.optimizer); });
    m_schedule.restore(m_progress.plateau);
    m_scaler = GradScaler(m_scaler.enabled(), m_progress.lossScale, m_progress.scaleGoodSteps);
    m_summary.resumedFromStep = m_progress.step;
    engineLog()->info("resumed at epoch {}, batch {}, step {}", m_progress.epoch, m_progress.batch, m_progress.step);
  }

  void log(const std::string &key, double value) {
    if (m_writer) m_writer->log(key, m_progress.step, value);
  }

  // Everything up to this step is in the database before the checkpoint says so: a resumed run
  // then re-logs only steps after it, with the same (run, key, step) keys, so nothing doubles.
  void checkpoint() {
    if (!writesFiles()) return;
    if (m_writer) m_writer->flush();
    m_progress.plateau = m_schedule.plateau();
    m_progress.lossScale = m_scaler.scaleValue();
    m_progress.scaleGoodSteps = m_scaler.goodSteps();
    saveCheckpoint(checkpointPath("last.pt"), *m_setup.model, *m_setup.optimizer, m_progress);
    if (!m_reportedLast && m_callbacks.onArtifact) m_callbacks.onArtifact("checkpoints/last.pt", "checkpoint");
    m_reportedLast = true;
  }

  void runEpoch() {
    GraphModule &model = *m_setup.model;
    const Dataset &data = m_setup.data;
    const int64_t epoch = m_progress.epoch;
    const int64_t batches = m_setup.batchesPerEpoch;
    model.train();
    BatchOrder order(data.train.size(), m_config.data.batchSize, m_config.data.shuffle, m_t.seed, epoch);
    BatchStream stream(data.train, order, m_progress.batch, m_augment, m_t.seed, epoch, m_config.data.prefetch);
    const auto epochStart = Clock::now();
    const int64_t seenBefore = m_progress.epochSeen;
    double groupLoss = 0.0;
    int64_t groupDone = 0;
    Batch batch;
    while (true) {
      const bool groupStart = groupDone == 0;
      if (groupStart && m_callbacks.shouldStop && m_callbacks.shouldStop()) {
        m_summary.stopped = true;
        break;
      }
      if (!stream.next(batch)) break;
      const int64_t groupFirst = (m_progress.batch / m_t.accumulate) * m_t.accumulate;
      const int64_t groupSize = std::min(m_t.accumulate, batches - groupFirst);
      if (groupStart) {
        m_lr = m_schedule.rate(m_progress.step, epoch);
        setLearningRate(*m_setup.optimizer, m_lr);
        m_setup.optimizer->zero_grad();
      }
      const torch::Tensor x = batch.inputs.to(m_setup.device), y = batch.targets.to(m_setup.device);
      torch::Tensor output;
      {
        AutocastGuard autocast(m_setup.precision, m_setup.device);
        output = model.forward(x);
      }
      const torch::Tensor loss = m_setup.loss(output, y);
      // The one host read per batch: logging and the NaN guard need the value.
      const double value = loss.item<double>();
      if (!std::isfinite(value)) {
        throw std::runtime_error(fmt::format(
            "loss is {} at step {} (epoch {}, batch {}){}; try a lower learning rate than {}",
            std::isnan(value) ? "NaN" : "Inf", m_progress.step + 1, epoch, m_progress.batch + 1,
            describeWeights(), m_lr));
      }
      m_scaler.scale(loss / static_cast<double>(groupSize)).backward();
      const int64_t n = x.size(0);
      m_progress.epochLossSum += value * static_cast<double>(n);
      m_progress.epochSeen += n;
      m_progress.batch += 1;
      groupLoss += value;
      if (++groupDone < groupSize) continue;
      optimizerStep(groupLoss / static_cast<double>(groupSize));
      groupLoss = 0.0;
      groupDone = 0;
      if (m_t.checkpointEvery > 0 && m_progress.step % m_t.checkpointEvery == 0 && m_progress.batch < batches) {
        m_progress.trainSeconds += secondsSince(epochStart) - m_countedSeconds;
        m_countedSeconds = secondsSince(epochStart);
        m_progress.trainedSamples += m_progress.epochSeen - seenBefore - m_countedSamples;
        m_countedSamples = m_progress.epochSeen - seenBefore;
        checkpoint();
      }
    }
    const double trainSeconds = secondsSince(epochStart);
    m_progress.trainSeconds += trainSeconds - m_countedSeconds;
    m_progress.trainedSamples += m_progress.epochSeen - seenBefore - m_countedSamples;
    m_countedSeconds = 0.0;
    m_countedSamples = 0;
    if (m_summary.stopped) {
      checkpoint();  // at a step boundary: a resume continues exactly here
      return;
    }
    endOfEpoch(trainSeconds, m_progress.epochSeen - seenBefore, stream.waitSeconds(), epochStart);
  }

  void optimizerStep(double loss) {
    const bool finite = m_scaler.unscale(m_params);
    const bool logged = m_writer && (m_progress.step + 1) % std::max<int64_t>(1, m_t.logEvery) == 0;
    // The norm costs a pass over every gradient: only when clipping or the log needs it (the loss
    // check above already catches most divergence on the steps in between).
    double gradNorm = 0.0;
    if (m_t.clipNorm > 0.0) {
      gradNorm = torch::nn::utils::clip_grad_norm_(m_params, m_t.clipNorm);
    } else if (logged) {
      gradNorm = gradientNorm(m_params);
    }
    if (m_t.clipValue > 0.0) torch::nn::utils::clip_grad_value_(m_params, m_t.clipValue);
    if (!std::isfinite(gradNorm) && !m_scaler.enabled()) {
      throw std::runtime_error(fmt::format("gradient norm is {} at step {} (epoch {}); first bad tensor {}",
                                           std::isnan(gradNorm) ? "NaN" : "Inf", m_progress.step + 1,
                                           m_progress.epoch, firstNonFinite(*m_setup.model, false)));
    }
    const bool step = finite && std::isfinite(gradNorm);
    if (step) m_setup.optimizer->step();
    m_scaler.update(step);
    m_progress.step += 1;
    if (logged) {
      log("train/loss", loss);
      log("train/lr", m_lr);
      log("train/grad_norm", gradNorm);
    }
  }

  std::string describeWeights() const {
    const std::string bad = firstNonFinite(*m_setup.model, true);
    return bad.empty() ? std::string() : "; first non-finite tensor " + bad;
  }

  void endOfEpoch(double trainSeconds, int64_t seen, double waitSeconds, Clock::time_point epochStart) {
    const int64_t epoch = m_progress.epoch;
    EpochReport report;
    report.epoch = epoch;
    report.epochs = m_t.epochs;
    report.step = m_progress.step;
    report.trainLoss = m_progress.epochSeen ? m_progress.epochLossSum / static_cast<double>(m_progress.epochSeen) : 0.0;
    report.samplesPerSec = trainSeconds > 0 ? static_cast<double>(seen) / trainSeconds : 0.0;
    report.dataWait = trainSeconds > 0 ? waitSeconds / trainSeconds : 0.0;
    report.lr = m_lr;
    const EvalResult val = evaluate(*m_setup.model, m_setup.data.val, m_setup.data, m_setup.loss, m_setup.evalOptions);
    report.val = val.metrics;
    report.valLoss = val.metrics.count("loss") ? val.metrics.at("loss") : 0.0;
    report.valAccuracy = val.metrics.count("accuracy") ? val.metrics.at("accuracy") : 0.0;
    log("train/epoch_loss", report.trainLoss);
    log("train/samples_per_sec", report.samplesPerSec);
    log("train/data_wait", report.dataWait);
    log("epoch", static_cast<double>(epoch));
    for (const auto &[key, value] : val.metrics) log("val/" + key, value);
    for (const auto &[key, value] : layerNorms(*m_setup.model)) log(key, value);

    if (val.examples > 0) watchMonitor(val);
    m_summary.trainLoss = report.trainLoss;
    m_summary.valLoss = report.valLoss;
    m_summary.valAccuracy = report.valAccuracy;

    m_progress.epoch += 1;
    m_progress.batch = 0;
    m_progress.epochLossSum = 0.0;
    m_progress.epochSeen = 0;
    checkpoint();
    report.seconds = secondsSince(epochStart);
    engineLog()->info("epoch {}/{}: train loss {:.4f}, val loss {:.4f}, {:.0f} samples/s, data wait {:.1f}%", epoch,
                      m_t.epochs, report.trainLoss, report.valLoss, report.samplesPerSec, 100.0 * report.dataWait);
    if (m_callbacks.onEpoch) m_callbacks.onEpoch(report);
  }

  void watchMonitor(const EvalResult &val) {
    const std::string name = m_setup.monitorMetric;  // without "val/"
    const double value = val.metrics.at(name);
    const bool lower = lowerIsBetter(name);
    m_schedule.endOfEpoch(value, lower);
    const bool improved = !m_progress.haveBest || improves(value, m_progress.best, lower, m_t.minDelta);
    if (improved) {
      m_progress.best = value;
      m_progress.haveBest = true;
      m_progress.bestEpoch = m_progress.epoch;
      m_progress.badEpochs = 0;
      if (writesFiles()) {
        // best.pt is a complete checkpoint too: it can be resumed from or exported.
        TrainProgress atBest = m_progress;
        atBest.epoch += 1;
        atBest.batch = 0;
        atBest.epochLossSum = 0.0;
        atBest.epochSeen = 0;
        saveCheckpoint(checkpointPath("best.pt"), *m_setup.model, *m_setup.optimizer, atBest);
        if (!m_reportedBest && m_callbacks.onArtifact) m_callbacks.onArtifact("checkpoints/best.pt", "checkpoint");
        m_reportedBest = true;
      }
    } else {
      m_progress.badEpochs += 1;
    }
    if (m_t.patience > 0 && m_progress.badEpochs >= m_t.patience) {
      m_summary.earlyStopped = true;
      engineLog()->info("early stop: {} did not improve for {} epochs (best {:.4f} in epoch {})", m_t.monitor,
                        m_t.patience, m_progress.best, m_progress.bestEpoch);
    }
  }

  void finish() {
    const EvalResult test = stage("testing", [&] {
      return evaluate(*m_setup.model, m_setup.data.test, m_setup.data, m_setup.loss, m_setup.evalOptions);
    });
    m_summary.test = test.metrics;
    m_summary.testLoss = test.metrics.count("loss") ? test.metrics.at("loss") : 0.0;
    m_summary.testAccuracy = test.metrics.count("accuracy") ? test.metrics.at("accuracy") : 0.0;
    for (const auto &[key, value] : test.metrics) log("test/" + key, value);
    if (m_writer) m_writer->flush();
    if (!writesFiles()) return;
    const fs::path artifacts = fs::path(m_env.runDir) / "artifacts";
    auto artifact = [&](const std::string &name, const std::string &bytes, const std::string &kind) {
      writeFileAtomically((artifacts / name).string(), bytes);
      if (m_callbacks.onArtifact) m_callbacks.onArtifact("artifacts/" + name, kind);
    };
    if (test.report) {
      artifact("test_confusion_matrix.csv", confusionCsv(*test.report, m_setup.data.classNames), "report");
      artifact("test_class_report.csv", classReportCsv(*test.report, m_setup.data.classNames), "report");
    }
    torch::serialize::OutputArchive archive;
    m_setup.model->save(archive);
    std::ostringstream bytes;
    archive.save_to(bytes);
    artifact("model.pt", bytes.str(), "model");
  }

  const config::RunConfig &m_config;
  const config::TrainOptions &m_t;
  tracking::MetricWriter *m_writer;
  const TrainCallbacks &m_callbacks;
  TrainEnvironment m_env;
  TrainSetup m_setup;
  LrSchedule m_schedule;
  GradScaler m_scaler;
  Augment m_augment;
  std::vector<torch::Tensor> m_params;
  TrainProgress m_progress;
  TrainSummary m_summary;
  double m_lr = 0.0;
  double m_countedSeconds = 0.0;  // of this epoch, already added to m_progress by a checkpoint
  int64_t m_countedSamples = 0;
  bool m_reportedLast = false, m_reportedBest = false;
};

}  // namespace

TrainSummary train(const config::RunConfig &config, tracking::MetricWriter *writer, const TrainCallbacks &callbacks,
                   const TrainEnvironment &environment) {
  TrainRun run(config, writer, callbacks, environment);
  return stage("training", [&] { return run.run(); });
}

}  // namespace tw::engine
