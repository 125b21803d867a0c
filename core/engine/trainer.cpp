#include "core/engine/trainer.h"

#include "core/data/shuffle_order.h"

#include "core/engine/atomic_file.h"
#include "core/engine/batch_stream.h"
#include "core/engine/checkpoint.h"
#include "core/engine/communicator.h"
#include "core/engine/dataset.h"
#include "core/engine/diagnostics.h"
#include "core/engine/engine_log.h"
#include "core/engine/evaluation.h"
#include "core/engine/gradient_sync.h"
#include "core/engine/remote_system_metrics.h"
#include "core/engine/sharded_optimizer.h"
#include "core/engine/optimizer_state.h"
#include "core/engine/lr_schedule.h"
#include "core/engine/model_builder.h"
#include "core/config/metric_direction.h"
#include "core/config/metric_keys.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/memory_format.h"
#include "core/engine/precision.h"
#include "core/engine/threads.h"
#include "core/engine/train_setup.h"
#include "core/engine/weight_transfer.h"
#include "core/config/checkpoint_choice.h"
#include "core/config/init_from.h"
#include "core/config/unfreeze.h"
#include "core/spec/analysis.h"
#include "tracking/metric_writer.h"

#include <spdlog/fmt/fmt.h>
#include <torch/torch.h>

#include <chrono>
#include <optional>
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

// The cores this process may use: what its launcher granted, else an even share of the machine
// among the ranks on it (ranks x threads must never exceed the cores).
int coresFor(const dist::DistEnv &env) {
  const int available = availableCores();
  if (env.coresPerRank > 0) return std::min(env.coresPerRank, available);
  return std::max(1, available / std::max(1, env.localWorldSize));
}

// What the ranks sum after each optimiser step, along with the gradients.
enum Extra { kLossMean, kLossSum, kExamples, kStop, kCheckpoint, kExtras };

// One training run from setup to the test evaluation. The loop's state lives in `m_progress`,
// which is exactly what a checkpoint holds, so that a resumed run continues bit for bit.
class TrainRun {
 public:
  TrainRun(const config::RunConfig &config, tracking::MetricWriter *writer, const TrainCallbacks &callbacks,
           const TrainEnvironment &env)
      : m_config(config), m_t(config.train), m_writer(writer), m_callbacks(callbacks), m_env(env),
        m_setup(prepareTraining(config, coresFor(env.dist), env.dataCache.get())), m_schedule(m_t, m_setup.stepsPerEpoch),
        m_scaler(m_setup.precision == Precision::FP16), m_augment(data::augmentOptions(config.data)) {
    m_params = m_setup.model->trainableParameters();
    std::string problem;
    m_unfreeze = config::parseUnfreeze(m_t.unfreeze, &problem);
    if (!problem.empty()) throw std::runtime_error("configuring training: train.unfreeze: " + problem);
    std::stable_sort(m_unfreeze.begin(), m_unfreeze.end(),
                     [](const config::UnfreezeStep &a, const config::UnfreezeStep &b) { return a.epoch < b.epoch; });
    m_summary.parameters = countParameters(*m_setup.model);
    m_summary.classification = m_setup.data.task == Task::Classification;
    m_summary.trainSamples = m_setup.data.train.size();
    m_summary.valSamples = m_setup.data.val.size();
    m_summary.testSamples = m_setup.data.test.size();
    if (m_callbacks.onDataLoaded) m_callbacks.onDataLoaded(m_setup.data.fingerprint, m_setup.data.reading);
    if (m_callbacks.onPreprocessing) m_callbacks.onPreprocessing(data::preprocessingJson(m_setup.data.preprocessing));
    if (m_env.dist.distributed()) joinProcessGroup();
    if (writesFiles()) {
      fs::create_directories(fs::path(m_env.runDir) / "checkpoints");
      fs::create_directories(fs::path(m_env.runDir) / "artifacts" / "evaluations");
      const int stale = removeStaleTemporaries((fs::path(m_env.runDir) / "checkpoints").string()) +
                        removeStaleTemporaries((fs::path(m_env.runDir) / "artifacts").string()) +
                        removeStaleTemporaries((fs::path(m_env.runDir) / "artifacts" / "evaluations").string());
      if (stale) engineLog()->info("removed {} temporary file(s) left by an interrupted write", stale);
    }
  }

  TrainSummary run() {
    const auto runStart = Clock::now();
    if (!resumeIfAsked()) startFromWeights();
    if (m_comm) startTogether();
    if (m_comm && m_config.distributed.shard != "none") startSharding();
    else if (m_config.distributed.shard != "none")
      engineLog()->info("distributed.shard: {} has nothing to split with one rank", m_config.distributed.shard);
    for (; m_progress.epoch <= m_t.epochs && !m_summary.stopped && !m_summary.earlyStopped; ) runEpoch();
    if (m_remoteSystem) m_remoteSystem->tick(true);
    m_summary.steps = m_progress.step;
    m_summary.epochs = std::min(m_t.epochs, m_progress.epoch - 1);
    m_summary.samplesPerSec =
        m_progress.trainSeconds > 0 ? static_cast<double>(m_progress.trainedSamples) / m_progress.trainSeconds : 0.0;
    m_summary.trainSeconds = m_progress.trainSeconds;
    m_summary.trackingSeconds = m_trackingSeconds;
    m_summary.bestEpoch = m_progress.bestEpoch;
    m_summary.bestValue = m_progress.best;
    m_summary.monitor = m_t.monitor;
    // A stopped run ends promptly: the person asked for it, and a partial model's test score
    // would only be mistaken for the real one.
    if (!m_summary.stopped) finish();
    m_summary.weightsDigest = weightsDigest(*m_setup.model);
    m_summary.seconds = secondsSince(runStart);
    m_summary.worldSize = m_comm ? m_comm->size() : 1;
    if (m_sync && m_progress.trainSeconds > 0) m_summary.allreduceShare = m_sync->waitSeconds() / m_progress.trainSeconds;
    return m_summary;
  }

 private:
  std::string checkpointPath(const char *name) const {
    return (fs::path(m_env.runDir) / "checkpoints" / name).string();
  }
  bool writesFiles() const { return checkpointsWritten() && m_env.dist.rank == 0; }
  // Whether rank 0 writes checkpoints, as every rank sees it: a sharded run's ranks all take part
  // in gathering the optimiser state that goes into one.
  bool checkpointsWritten() const { return !m_env.runDir.empty() && m_env.checkpoints; }

  std::unique_ptr<GradientSync> makeSync() const {
    return std::make_unique<GradientSync>(*m_comm, m_params, m_config.distributed.bucketMb,
                                          m_config.distributed.shard == "gradients");
  }

  // Each rank keeps the optimiser state (and, sharding gradients, the summed gradients) of its
  // chunk of every bucket; a resumed checkpoint's full state is cut into the shards here.
  void startSharding() {
    m_sharded = std::make_unique<ShardedOptimizer>(*m_comm, *m_sync, *m_setup.optimizer, m_t);
    engineLog()->info("rank {}: distributed.shard {}: {} of {} trainable values", m_comm->rank(),
                      m_config.distributed.shard, shardValues(), countParameters(*m_setup.model));
  }
  int64_t shardValues() const {
    int64_t n = 0;
    for (const torch::Tensor &shard : m_sharded->shards()) n += shard.numel();
    return n;
  }

  // While it lives, the run's optimiser holds every rank's state on rank 0 (a sharded run), so
  // that a checkpoint written from it is whole.
  class WholeOptimizerState {
   public:
    WholeOptimizerState(ShardedOptimizer *sharded, int root) : m_sharded(sharded) {
      if (m_sharded) m_sharded->gatherState(root);
    }
    ~WholeOptimizerState() {
      if (m_sharded) m_sharded->releaseFullState();
    }
    WholeOptimizerState(const WholeOptimizerState &) = delete;
    WholeOptimizerState &operator=(const WholeOptimizerState &) = delete;

   private:
    ShardedOptimizer *m_sharded;
  };

  void joinProcessGroup() {
    const dist::DistEnv &env = m_env.dist;
    if (m_config.data.batchSize < env.worldSize)
      throw std::runtime_error(fmt::format("configuring training: data.batch_size {} is smaller than the {} ranks; "
                                           "each rank trains on a share of every batch", m_config.data.batchSize,
                                           env.worldSize));
    m_comm = stage("joining the process group", [&] {
      return std::make_unique<Communicator>(env, m_config.distributed.backend, m_setup.device,
                                            std::chrono::seconds(m_config.distributed.timeoutS));
    });
    // Every rank must train the same thing: a node started with another run file would
    // otherwise average gradients of different models, or hang on mismatched collectives.
    config::RunConfig same = m_config;
    same.train.device = "";  // "cuda:<local rank>" differs by design
    const std::string hash = config::configHash(same);
    if (env.rank == 0) {
      m_comm->setText("torchwright/config_hash", hash);
      m_comm->setText("torchwright/run_dir", m_env.runDir);
    } else {
      const std::string rootHash = m_comm->getText("torchwright/config_hash");
      if (rootHash != hash)
        throw std::runtime_error(fmt::format("joining the process group: rank {}'s run configuration differs from "
                                             "rank 0's (hash {} vs {}); start every rank with the same run file",
                                             env.rank, hash.substr(0, 12), rootHash.substr(0, 12)));
      if (m_env.runDir.empty()) m_env.runDir = m_comm->getText("torchwright/run_dir");
    }
    m_sync = makeSync();
    if (RemoteSystemMetrics::needed(env))
      m_remoteSystem = std::make_unique<RemoteSystemMetrics>(*m_comm, env, env.rank == 0 ? m_writer : nullptr,
                                                             m_setup.device.is_cuda() ? m_setup.device.index() : -1);
    for (const auto &buffer : m_setup.model->buffers()) m_buffers.push_back(buffer);
    engineLog()->info("rank {} of {}: {} gradient bucket(s), data.batch_size {} split across the ranks", env.rank,
                      env.worldSize, m_sync->buckets(), m_config.data.batchSize);
  }

  // All ranks start from rank 0's weights and the same checkpoint; a rank that could not read
  // rank 0's checkpoint (no shared run folder) would silently train something else.
  void startTogether() {
    const int64_t step = m_progress.step;
    if (m_comm->rank() == 0) m_comm->setText("torchwright/start_step", std::to_string(step));
    const int64_t rootStep = std::stoll(m_comm->getText("torchwright/start_step"));
    if (rootStep != step)
      throw std::runtime_error(fmt::format("resuming: rank {} starts at step {} but rank 0 at step {}; every rank reads "
                                           "the checkpoint from the run folder {}, which must be shared between "
                                           "machines", m_comm->rank(), step, rootStep, m_env.runDir));
    std::vector<torch::Tensor> state = m_setup.model->parameters();
    state.insert(state.end(), m_buffers.begin(), m_buffers.end());
    m_comm->broadcast(state);
  }

  void syncBuffers() {
    if (m_comm && m_config.distributed.broadcastBuffers && !m_buffers.empty()) m_comm->broadcast(m_buffers);
  }

  // train.init_from: the weights a new run starts from, where names and shapes match.
  void startFromWeights() {
    const config::InitFrom from = config::parseInitFrom(m_t.initFrom);
    if (from.empty() || m_env.dist.rank != 0) return;
    const std::string file = !m_env.initFile.empty() ? m_env.initFile : from.file;
    if (file.empty())
      throw std::runtime_error("starting from weights: train.init_from " + m_t.initFrom +
                               " names a run, which only a run recorded in a workspace can resolve");
    stage("starting from weights", [&] {
      const NamedTensors tensors = readWeightsFile(file);
      const WeightTransfer plan = planWeightTransfer(*m_setup.model, tensors);
      applyWeightTransfer(*m_setup.model, tensors, plan, m_t.initFrom);
      if (m_callbacks.onWeightsTaken) m_callbacks.onWeightsTaken(m_t.initFrom, file, plan);
      return 0;
    });
  }

  // Gradual unfreezing: the steps due by the start of `epoch` (and, with `throughEpoch`, the one
  // at it) not taken yet. Their nodes' parameters join the optimiser as groups of their own, in
  // step order, so that a resumed run rebuilds the same groups before loading the optimiser.
  void unfreezeDue(int64_t epoch, bool throughEpoch) {
    const bool sharded = m_sharded != nullptr;
    for (; m_unfrozenSteps < m_unfreeze.size(); ++m_unfrozenSteps) {
      const config::UnfreezeStep &step = m_unfreeze[m_unfrozenSteps];
      if (step.epoch > epoch || (step.epoch == epoch && !throughEpoch)) break;
      // The shards follow the buckets: every rank takes the whole state back before they change.
      if (m_sharded) {
        m_sharded->gatherState(-1);
        m_sharded.reset();
      }
      const std::vector<ParameterGroup> groups = m_setup.model->unfreeze(step.nodes);
      const int64_t startStep = (step.epoch - 1) * m_setup.stepsPerEpoch;
      int64_t count = 0;
      for (const ParameterGroup &group : groups) {
        m_setup.optimizer->add_param_group(torch::optim::OptimizerParamGroup(group.params));
        m_setup.lrFactors.push_back(group.lrFactor);
        m_groupStart.resize(m_setup.lrFactors.size() - 1, -1);
        m_groupStart.push_back(startStep);
        for (const torch::Tensor &p : group.params) count += p.numel();
      }
      m_params = m_setup.model->trainableParameters();
      // The buckets follow the parameters that have gradients now.
      if (m_comm) m_sync = makeSync();
      std::string names;
      for (const std::string &name : step.nodes) names += (names.empty() ? "" : ", ") + name;
      engineLog()->info("epoch {}: unfroze {} parameters of {} ({} optimiser group(s), learning rate warmed up over {} "
                        "steps)", step.epoch, count, names, groups.size(), unfreezeWarmupSteps());
    }
    if (sharded && !m_sharded) startSharding();
  }

  int64_t unfreezeWarmupSteps() const {
    return m_t.unfreezeWarmupSteps > 0 ? m_t.unfreezeWarmupSteps : m_setup.stepsPerEpoch;
  }

  // Each optimiser group's share of the schedule's rate: its lr_factor, and while a group unfrozen
  // during the run warms up, the part of the rate it has reached.
  std::vector<double> groupFactors() const {
    std::vector<double> factors = m_setup.lrFactors;
    for (size_t g = 0; g < factors.size() && g < m_groupStart.size(); ++g)
      if (m_groupStart[g] >= 0) factors[g] *= config::unfreezeWarmup(m_progress.step, m_groupStart[g], unfreezeWarmupSteps());
    return factors;
  }

  bool resumeIfAsked() {
    if (!m_env.resume || m_env.runDir.empty() || !fs::exists(checkpointPath("last.pt"))) return false;
    // The optimiser groups the checkpoint was saved with: steps of earlier epochs, and the one at
    // its epoch when the checkpoint was taken inside that epoch.
    const auto [epoch, batch] = checkpointPosition(checkpointPath("last.pt"));
    unfreezeDue(epoch, batch > 0);
    m_progress = stage("resuming", [&] { return loadCheckpoint(checkpointPath("last.pt"), *m_setup.model, *m_setup.optimizer); });
    // Loading takes the layout the checkpoint was saved in; the run keeps the one it chose.
    if (m_setup.channelsLast) toChannelsLast(*m_setup.model);
    m_schedule.restore(m_progress.plateau);
    m_scaler = GradScaler(m_scaler.enabled(), m_progress.lossScale, m_progress.scaleGoodSteps);
    m_summary.resumedFromStep = m_progress.step;
    engineLog()->info("resumed at epoch {}, batch {}, step {}", m_progress.epoch, m_progress.batch, m_progress.step);
    return true;
  }

  void log(const std::string &key, double value) {
    if (m_writer) m_writer->log(key, m_progress.step, value);
  }

  // Everything up to this step is in the database before the checkpoint says so: a resumed run
  // then re-logs only steps after it, with the same (run, key, step) keys, so nothing doubles.
  void checkpoint() {
    if (!checkpointsWritten()) return;
    const WholeOptimizerState whole(m_sharded.get(), 0);
    if (!writesFiles()) return;
    if (m_writer) m_writer->flush();
    m_progress.plateau = m_schedule.plateau();
    m_progress.lossScale = m_scaler.scaleValue();
    m_progress.scaleGoodSteps = m_scaler.goodSteps();
    saveCheckpoint(checkpointPath("last.pt"), *m_setup.model, *m_setup.optimizer, m_progress);
    if (!m_reportedLast && m_callbacks.onArtifact) m_callbacks.onArtifact("checkpoints/last.pt", "checkpoint");
    m_reportedLast = true;
  }

  // The end of an epoch kept as epoch-N.pt for init_from, export and predict: a hard link to the
  // last.pt just written (the next save replaces last.pt by a rename, which leaves this one whole),
  // a copy where the file system has no links. Epochs older than the newest keep_epochs go.
  void keepEpoch(int64_t epoch) {
    if (!writesFiles() || m_t.keepEpochs <= 0) return;
    const std::string name = config::epochCheckpointName(epoch) + ".pt";
    const fs::path kept = checkpointPath(name.c_str());
    std::error_code ec;
    fs::remove(kept, ec);
    fs::create_hard_link(checkpointPath("last.pt"), kept, ec);
    if (ec) writeFileAtomically(kept.string(), readWholeFile(checkpointPath("last.pt")));
    if (m_callbacks.onArtifact) m_callbacks.onArtifact("checkpoints/" + name, "checkpoint");
    for (const int64_t old : config::keptEpochs(kept.parent_path().string())) {
      if (old > epoch - m_t.keepEpochs) break;
      const std::string oldName = config::epochCheckpointName(old) + ".pt";
      fs::remove(checkpointPath(oldName.c_str()), ec);
      if (m_callbacks.onArtifactRemoved) m_callbacks.onArtifactRemoved("checkpoints/" + oldName);
    }
  }

  void runEpoch() {
    GraphModule &model = *m_setup.model;
    const Dataset &data = m_setup.data;
    const int64_t epoch = m_progress.epoch;
    const int64_t batches = m_setup.batchesPerEpoch;
    unfreezeDue(epoch, true);
    model.train();
    BatchOrder order = epochOrder(data.train, m_config.data, m_t.seed, epoch);
    watchOrder(order);
    if (m_comm) order.shard(m_comm->rank(), m_comm->size());
    BatchStream stream(data.train, order, m_progress.batch, m_augment, m_t.seed, epoch, m_config.data.prefetch);
    const auto epochStart = Clock::now();
    const int64_t seenBefore = m_progress.epochSeen;
    std::vector<double> group(kExtras, 0.0);  // this rank's share of the group's numbers
    int64_t groupDone = 0;
    Batch batch;
    while (true) {
      const bool groupStart = groupDone == 0;
      if (groupStart) {
        // Ranks stop together: each says whether it was asked, and all stop after the step in
        // which any one said so.
        const bool asked = m_callbacks.shouldStop && m_callbacks.shouldStop();
        if (m_stopAgreed || (asked && !m_comm)) {
          m_summary.stopped = true;
          break;
        }
        group[kStop] = asked ? 1.0 : 0.0;
        group[kCheckpoint] = m_callbacks.shouldCheckpoint && m_callbacks.shouldCheckpoint() ? 1.0 : 0.0;
      }
      const int64_t batchIndex = m_progress.batch;
      if (!stream.next(batch)) break;
      const int64_t groupFirst = (m_progress.batch / m_t.accumulate) * m_t.accumulate;
      const int64_t groupSize = std::min(m_t.accumulate, batches - groupFirst);
      if (groupStart) {
        m_lr = m_schedule.rate(m_progress.step, epoch);
        setLearningRate(*m_setup.optimizer, m_lr, groupFactors());
        if (m_sharded) setLearningRate(m_sharded->optimizer(), m_lr, groupFactors());
        releaseGradients(*m_setup.optimizer);
        syncBuffers();
      }
      const bool lastOfGroup = groupDone + 1 == groupSize;
      const int64_t n = batch.inputs.size(0);
      const int64_t globalN = order.globalSize(batchIndex);
      // A rank's loss is the mean over its share; weighted by the share's size, the ranks'
      // gradients sum to the gradient of the whole batch's mean, exactly as one process has it.
      const double share = static_cast<double>(n) / static_cast<double>(globalN);
      double value = 0.0;
      torch::Tensor loss;
      if (n > 0) {
        // To a GPU from page-locked memory, without waiting: the copy overlaps the work queued
        // before it, as PyTorch's DataLoader(pin_memory=True) and .to(non_blocking=True) do.
        const bool cuda = m_setup.device.is_cuda();
        const torch::Tensor x = cuda ? batch.inputs.pin_memory().to(m_setup.device, /*non_blocking=*/true) : batch.inputs;
        const torch::Tensor y = cuda ? batch.targets.pin_memory().to(m_setup.device, /*non_blocking=*/true) : batch.targets;
        torch::Tensor output;
        {
          AutocastGuard autocast(m_setup.precision, m_setup.device);
          output = model.forward(x);
        }
        loss = m_setup.loss(output, y);
        // The one host read per batch: logging and the NaN guard need the value.
        value = loss.item<double>();
        if (!std::isfinite(value)) {
          throw std::runtime_error(fmt::format(
              "loss is {} at step {} (epoch {}, batch {}){}; try a lower learning rate than {}",
              std::isnan(value) ? "NaN" : "Inf", m_progress.step + 1, epoch, m_progress.batch + 1,
              describeWeights(), m_lr));
        }
      }
      group[kLossMean] += value * share;
      group[kLossSum] += value * static_cast<double>(n);
      group[kExamples] += static_cast<double>(n);
      if (m_sync && lastOfGroup) m_sync->arm(group);
      if (n > 0) {
        torch::Tensor scaled = loss / static_cast<double>(groupSize);
        if (m_comm) scaled = scaled * share;
        m_scaler.scale(scaled).backward();
      }
      m_progress.batch += 1;
      if (++groupDone < groupSize) continue;
      if (m_sync) {
        group = m_sync->finish();
        m_stopAgreed = group[kStop] > 0.0;
      }
      const bool checkpointAsked = group[kCheckpoint] > 0.0;  // any rank's request, every rank agrees
      m_progress.epochLossSum += group[kLossSum];
      m_progress.epochSeen += static_cast<int64_t>(std::llround(group[kExamples]));
      optimizerStep(group[kLossMean] / static_cast<double>(groupSize));
      if (m_callbacks.onStep) m_callbacks.onStep(m_progress.step, m_t.epochs * m_setup.stepsPerEpoch);
      std::fill(group.begin(), group.end(), 0.0);
      groupDone = 0;
      const bool everyN = m_t.checkpointEvery > 0 && m_progress.step % m_t.checkpointEvery == 0;
      if (checkpointAsked) engineLog()->info("checkpoint on request at step {}", m_progress.step);
      if ((everyN || checkpointAsked) && m_progress.batch < batches) {
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
    const double syncSeconds = m_sync ? m_sync->waitSeconds() - m_syncSecondsBefore : 0.0;
    if (m_sync) m_syncSecondsBefore = m_sync->waitSeconds();
    if (m_comm) {
      log(config::metrics::kDistAllreduceShare, trainSeconds > 0 ? syncSeconds / trainSeconds : 0.0);
      logRankMemory();
    }
    syncBuffers();  // every rank evaluates, checkpoints and stops early on rank 0's statistics
    endOfEpoch(trainSeconds, m_progress.epochSeen - seenBefore, stream.waitSeconds(), epochStart);
  }

  void optimizerStep(double loss) {
    // Sharding gradients, this rank holds only its elements of the summed gradients (the shards'):
    // the norm is summed over the ranks, and all agree whether to step.
    const bool shardedGradients = m_sharded && m_sharded->shardsGradients();
    if (shardedGradients) m_sharded->takeGradients();
    const std::vector<torch::Tensor> &grads = shardedGradients ? m_sharded->shards() : m_params;
    bool finite = m_scaler.unscale(grads);
    if (shardedGradients && m_scaler.enabled()) finite = m_sharded->everyRank(finite);
    // Every rank must take part in the collective norm, so whether the log wants it cannot depend
    // on rank 0's writer.
    const bool logged = (m_writer || shardedGradients) && (m_progress.step + 1) % std::max<int64_t>(1, m_t.logEvery) == 0;
    // The norm costs a pass over every gradient: only when clipping or the log needs it (the loss
    // check above already catches most divergence on the steps in between).
    double gradNorm = 0.0;
    if (m_t.clipNorm > 0.0) {
      gradNorm = shardedGradients ? m_sharded->clipGradientNorm(m_t.clipNorm)
                                  : static_cast<double>(torch::nn::utils::clip_grad_norm_(m_params, m_t.clipNorm));
    } else if (logged) {
      const auto normStart = Clock::now();
      gradNorm = shardedGradients ? m_sharded->gradientNorm() : gradientNorm(m_params);
      m_trackingSeconds += secondsSince(normStart);
    }
    if (m_t.clipValue > 0.0) torch::nn::utils::clip_grad_value_(grads, m_t.clipValue);
    if (!std::isfinite(gradNorm) && !m_scaler.enabled()) {
      throw std::runtime_error(fmt::format("gradient norm is {} at step {} (epoch {}); first bad tensor {}",
                                           std::isnan(gradNorm) ? "NaN" : "Inf", m_progress.step + 1,
                                           m_progress.epoch, describeBadGradient()));
    }
    const bool step = finite && std::isfinite(gradNorm);
    if (step && m_sharded) {
      if (!shardedGradients) m_sharded->takeGradients();
      m_sharded->step();
    } else if (step) {
      m_setup.optimizer->step();
    }
    m_scaler.update(step);
    m_progress.step += 1;
    if (m_remoteSystem) m_remoteSystem->tick();
    if (logged) {
      const auto logStart = Clock::now();
      log(config::metrics::kTrainLoss, loss);
      log(config::metrics::kTrainLr, m_lr);
      log(config::metrics::kTrainGradNorm, gradNorm);
      m_trackingSeconds += secondsSince(logStart);
    }
  }

  std::string describeBadGradient() const {
    if (!m_sharded || !m_sharded->shardsGradients()) return firstNonFinite(*m_setup.model, false);
    const int64_t k = m_sharded->firstNonFiniteParameter();
    if (k < 0) return "on another rank's shard";
    for (const auto &item : m_setup.model->named_parameters())
      if (item.value().is_same(m_sync->params()[static_cast<size_t>(k)])) return "'" + item.key() + "' (gradient)";
    return {};
  }

  // The largest optimiser state and gradients any rank keeps between steps (all ranks take part).
  void logRankMemory() {
    int64_t state = 0, gradients = 0;
    if (m_sharded) {
      state = m_sharded->stateBytes();
      gradients = m_sharded->gradientBytes();
    } else {
      state = optimizerStateBytes(*m_setup.optimizer);
    }
    for (const torch::Tensor &p : m_params)
      if (p.grad().defined()) gradients += p.grad().numel() * static_cast<int64_t>(p.grad().element_size());
    const int ranks = m_comm->size(), rank = m_comm->rank();
    std::vector<double> slots(2 * static_cast<size_t>(ranks), 0.0);
    slots[static_cast<size_t>(rank)] = static_cast<double>(state);
    slots[static_cast<size_t>(ranks + rank)] = static_cast<double>(gradients);
    slots = m_comm->allreduce(slots);
    const double mib = 1024.0 * 1024.0;
    log(config::metrics::kDistOptimizerStateMib, *std::max_element(slots.begin(), slots.begin() + ranks) / mib);
    log(config::metrics::kDistGradientMib, *std::max_element(slots.begin() + ranks, slots.end()) / mib);
  }

  std::string describeWeights() const {
    const std::string bad = firstNonFinite(*m_setup.model, true);
    return bad.empty() ? std::string() : "; first non-finite tensor " + bad;
  }

  // How well the epoch's order mixes the classes (data/shuffle_order.h), logged with the epoch's
  // metrics; a shard-by-shard order that stays clustered is worth a warning, once.
  void watchOrder(const BatchOrder &order) {
    const Dataset &d = m_setup.data;
    m_orderAutocorrelation.reset();
    if (d.task != Task::Classification || d.train.size() < 2) return;
    const torch::Tensor targets = d.train.targets.contiguous();
    const std::vector<int64_t> labels(targets.data_ptr<int64_t>(), targets.data_ptr<int64_t>() + targets.numel());
    m_orderAutocorrelation = data::orderLabelAutocorrelation(order.positions(), labels);
    if (*m_orderAutocorrelation > 0.1 && !m_warnedOrder) {
      m_warnedOrder = true;
      engineLog()->warn("data: the epoch's order is clustered by class (label autocorrelation {:.2f}): raise "
                        "data.shuffle_buffer above the examples of a shard, or use data.shuffle_mode: global",
                        *m_orderAutocorrelation);
    }
  }

  // A streamed source's input pipeline over the epoch just trained: cache hits, bytes read from
  // disk, and the bad examples skipped (each named once in the log).
  void logPipeline(double trainSeconds) {
    const Dataset &d = m_setup.data;
    if (!d.pipeline || !d.exampleCache) return;
    const int64_t hits = d.exampleCache->hits(), misses = d.exampleCache->misses();
    const int64_t reads = hits + misses - m_pipelineReadsBefore, hitsNow = hits - m_pipelineHitsBefore;
    const uint64_t bytes = d.exampleCache->store().bytesRead();
    if (reads > 0) log(config::metrics::kTrainCacheHitRate, static_cast<double>(hitsNow) / static_cast<double>(reads));
    if (trainSeconds > 0)
      log(config::metrics::kTrainReadMbPerSec, static_cast<double>(bytes - m_pipelineBytesBefore) / (1 << 20) / trainSeconds);
    m_pipelineReadsBefore = hits + misses;
    m_pipelineHitsBefore = hits;
    m_pipelineBytesBefore = bytes;
    const int64_t skipped = d.pipeline->skipped.load();
    log(config::metrics::kTrainSkipped, static_cast<double>(skipped));
    if (d.exampleCache->medium() == data::CacheMedium::Disk) {
      const int64_t failures = d.exampleCache->writeFailures();
      log(config::metrics::kTrainCacheWriteFailures, static_cast<double>(failures));
      if (failures > 0 && !m_warnedCacheWrites) {
        m_warnedCacheWrites = true;
        engineLog()->warn("data: the disk cache could not write {} examples (is data.cache_dir full?); they are read "
                          "from the source every epoch",
                          failures);
      }
    }
    std::lock_guard<std::mutex> lock(d.pipeline->mutex);
    for (size_t i = m_skippedLogged; i < d.pipeline->skippedNames.size(); ++i)
      engineLog()->warn("data: skipped (data.on_bad: skip): {}", d.pipeline->skippedNames[i]);
    m_skippedLogged = d.pipeline->skippedNames.size();
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
    report.valLoss = val.metrics.count(config::metrics::kLoss) ? val.metrics.at(config::metrics::kLoss) : 0.0;
    report.valAccuracy = val.metrics.count(config::metrics::kAccuracy) ? val.metrics.at(config::metrics::kAccuracy) : 0.0;
    log(config::metrics::kTrainEpochLoss, report.trainLoss);
    log(config::metrics::kTrainSamplesPerSec, report.samplesPerSec);
    log(config::metrics::kTrainDataWait, report.dataWait);
    logPipeline(trainSeconds);
    if (m_orderAutocorrelation) log(config::metrics::kTrainOrderAutocorrelation, *m_orderAutocorrelation);
    log(config::metrics::kEpoch, static_cast<double>(epoch));
    for (const auto &[key, value] : val.metrics) log(config::metrics::kValPrefix + key, value);
    std::map<const void *, double> shardGradNorms;  // sharding gradients: no rank holds them whole
    if (m_sharded && m_sharded->shardsGradients()) {
      const std::vector<double> norms = m_sharded->parameterGradientNorms();
      for (size_t k = 0; k < norms.size(); ++k) shardGradNorms[m_sync->params()[k].unsafeGetTensorImpl()] = norms[k];
    }
    for (const auto &[key, value] : layerNorms(*m_setup.model, shardGradNorms)) log(key, value);
    if (val.report && val.examples > 0) writeValidationConfusion(*val.report, epoch);

    if (val.examples > 0) watchMonitor(val);
    m_summary.trainLoss = report.trainLoss;
    m_summary.valLoss = report.valLoss;
    m_summary.valAccuracy = report.valAccuracy;

    m_progress.epoch += 1;
    m_progress.batch = 0;
    m_progress.epochLossSum = 0.0;
    m_progress.epochSeen = 0;
    checkpoint();
    keepEpoch(epoch);
    report.seconds = secondsSince(epochStart);
    engineLog()->info("epoch {}/{}: train loss {:.4f}, {}, {:.0f} samples/s, data wait {:.1f}%", epoch, m_t.epochs,
                      report.trainLoss, val.examples > 0 ? fmt::format("val loss {:.4f}", report.valLoss)
                                                         : std::string("no validation set"),
                      report.samplesPerSec, 100.0 * report.dataWait);
    if (m_callbacks.onEpoch) m_callbacks.onEpoch(report);
  }

  // One small CSV per evaluation, so that Studio can show how the errors move between classes
  // while the run trains. A resumed run re-evaluates the epoch and replaces the file and its row.
  void writeValidationConfusion(const ClassificationReport &report, int64_t epoch) {
    if (!writesFiles()) return;
    const std::string name = fmt::format("evaluations/val_epoch_{:03d}.csv", epoch);
    const fs::path path = fs::path(m_env.runDir) / "artifacts" / name;
    writeFileAtomically(path.string(), confusionCsv(report, m_setup.data.classNames));
    if (m_callbacks.onArtifact) m_callbacks.onArtifact("artifacts/" + name, "confusion");
  }

  void watchMonitor(const EvalResult &val) {
    const std::string name = m_setup.monitorMetric;  // without "val/"
    const double value = val.metrics.at(name);
    const bool lower = config::metrics::lowerIsBetter(name);
    m_schedule.endOfEpoch(value, lower);
    const bool improved = !m_progress.haveBest || config::metrics::improves(value, m_progress.best, lower, m_t.minDelta);
    if (improved) {
      m_progress.best = value;
      m_progress.haveBest = true;
      m_progress.bestEpoch = m_progress.epoch;
      m_progress.badEpochs = 0;
      const WholeOptimizerState whole(checkpointsWritten() ? m_sharded.get() : nullptr, 0);
      if (writesFiles()) {
        // best.pt is a complete checkpoint too: it can be resumed from.
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
    m_summary.testLoss = test.metrics.count(config::metrics::kLoss) ? test.metrics.at(config::metrics::kLoss) : 0.0;
    m_summary.testAccuracy = test.metrics.count(config::metrics::kAccuracy) ? test.metrics.at(config::metrics::kAccuracy) : 0.0;
    for (const auto &[key, value] : test.metrics) log(config::metrics::kTestPrefix + key, value);
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
  data::AugmentOptions m_augment;
  bool m_warnedCacheWrites = false;
  std::vector<torch::Tensor> m_params;
  std::vector<torch::Tensor> m_buffers;  // batch-norm statistics: rank 0's are broadcast
  std::unique_ptr<Communicator> m_comm;  // distributed runs only
  std::unique_ptr<GradientSync> m_sync;
  std::unique_ptr<ShardedOptimizer> m_sharded;  // distributed.shard; refers to m_sync, so goes first
  std::unique_ptr<RemoteSystemMetrics> m_remoteSystem;  // ranks on other machines than rank 0's
  bool m_stopAgreed = false;
  double m_syncSecondsBefore = 0.0;
  TrainProgress m_progress;
  TrainSummary m_summary;
  double m_lr = 0.0;
  std::vector<config::UnfreezeStep> m_unfreeze;  // train.unfreeze, in epoch order
  size_t m_unfrozenSteps = 0;                    // of m_unfreeze, those taken
  std::vector<int64_t> m_groupStart;             // per optimiser group: the step it was unfrozen at, -1 from the start
  double m_trackingSeconds = 0.0;  // of this process's training, not kept across resumes
  int64_t m_pipelineReadsBefore = 0, m_pipelineHitsBefore = 0;
  uint64_t m_pipelineBytesBefore = 0;
  size_t m_skippedLogged = 0;
  std::optional<double> m_orderAutocorrelation;
  bool m_warnedOrder = false;
  double m_countedSeconds = 0.0;  // of this epoch, already added to m_progress by a checkpoint
  int64_t m_countedSamples = 0;
  bool m_reportedLast = false, m_reportedBest = false;
};

}  // namespace

TrainSummary train(const config::RunConfig &config, tracking::MetricWriter *writer, const TrainCallbacks &callbacks,
                   const TrainEnvironment &environment) {
  config::RunConfig local = config;
  // One process per GPU: a distributed run's "cuda" is the device of the rank's local index.
  if (environment.dist.distributed() && local.train.device == "cuda")
    local.train.device = "cuda:" + std::to_string(environment.dist.localRank);
  TrainRun run(local, writer, callbacks, environment);
  return stage("training", [&] { return run.run(); });
}

}  // namespace tw::engine
