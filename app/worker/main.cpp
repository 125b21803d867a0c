// torchwright-worker: one rank of a run. Started by `torchwright train|launch` with the workspace
// and the run's id, or straight from a run file (`--config RUN.yaml`) under srun, torchrun or a
// Kubernetes PyTorchJob, whose environment says which rank it is (see core/dist/dist_env.h);
// or, with --serve, as one slot of a sweep that trains its trials' runs one after another.
// Rank 0 records the run (creating it in --config mode), writes metrics through the batching
// writer and always records how the run ended; the other ranks only train.
//
// Exit codes: 0 done (or stopped on request), 1 the run failed (recorded), 2 bad arguments or
// environment, 75 a peer rank was lost (the launcher restarts every rank from the checkpoint).

#include "app/common/init_source.h"
#include "app/common/model_graph.h"
#include "app/common/progress_line.h"
#include "app/common/run_recording.h"
#include "app/common/value_text.h"
#include "app/worker/export_run.h"
#include "app/worker/export_model.h"
#include "app/worker/plan_weights.h"
#include "app/worker/import_run.h"
#include "app/worker/predict_run.h"
#include "app/worker/worker_args.h"
#include "core/config/config_fields.h"
#include "core/config/number_text.h"
#include "core/config/sha256.h"
#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "core/dist/dist_env.h"
#include "core/engine/train_setup.h"
#include "core/engine/atomic_file.h"
#include "core/engine/trainer.h"
#include "core/engine/weight_transfer.h"
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "core/sysmon/process_sampler.h"
#include "tracking/workspace_store.h"
#include "tracking/metric_writer.h"
#include "tracking/run_export.h"
#include "tracking/store.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

using tw::worker::flag;
using tw::worker::option;
using tw::worker::options;

namespace {

constexpr int kExitPeerLost = 75;  // EX_TEMPFAIL: worth a restart from the checkpoint

std::atomic<bool> g_stopSignal{false};
std::atomic<bool> g_launcherGone{false};
bool g_serving = false;  // --serve: the sweep driver records this process's system metrics

void onSignal(int) { g_stopSignal = true; }
// The launcher asks the kernel for SIGHUP when it dies (PR_SET_PDEATHSIG): stop after a
// checkpoint, and record the run as failed rather than stopped on request.
void onHangup(int) {
  g_launcherGone = true;
  g_stopSignal = true;
}

// A collective that failed because another rank died or hung: not this run's fault, and a restart
// from the checkpoint can succeed.
bool lostPeer(const std::string &message) {
  for (const char *sign : {"Connection closed by peer", "Connection reset", "Broken pipe", "Timed out",
                           "timed out", "Socket Timeout", "ProcessGroupGloo", "gloo", "NCCL"})
    if (message.find(sign) != std::string::npos) return true;
  return false;
}

// Signs of life while the run trains: a byte per second to the launcher's pipe (a rank that stops
// answering is restarted) and, on rank 0, a heartbeat in the tracking database (Studio tells a
// live run from a dead one) plus the process's system metrics when no launcher samples them.
class Heartbeat {
 public:
  Heartbeat(std::string dbPath, int64_t runId, int rank) : m_dbPath(std::move(dbPath)), m_runId(runId), m_rank(rank) {
    if (const char *fd = std::getenv("TORCHWRIGHT_HEARTBEAT_FD")) m_pipe = std::atoi(fd);
    m_thread = std::thread([this] { loop(); });
  }
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

 private:
  void loop() {
    std::unique_ptr<tw::tracking::Store> store;
    tw::sysmon::ProcessSampler sampler;
    int tick = 0;
    std::unique_lock<std::mutex> lock(m_mutex);
    beatPipe();  // at once: the launcher allows a rank that has not answered yet time to start
    while (!m_wake.wait_for(lock, std::chrono::seconds(1), [&] { return m_stop; })) {
      beatPipe();
      if (m_rank != 0 || m_runId <= 0 || ++tick % 2 != 0) continue;
      try {
        if (!store) store = tw::tracking::Store::open(m_dbPath);
        store->heartbeat(m_runId);
        if (m_pipe < 0 && !g_serving && tick % 6 == 0) {  // no launcher: nobody else records this process
          const auto s = sampler.sample();
          const int64_t now = static_cast<int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
              std::chrono::system_clock::now().time_since_epoch()).count());
          if (s.ok) store->writeSystemMetrics(m_runId, {{"cpu_percent", 0, now, s.cpuPercent}, {"rss_mb", 0, now, s.rssMb}});
        }
      } catch (const std::exception &e) {
        spdlog::warn("heartbeat: {}", e.what());
      }
    }
  }

  void beatPipe() {
    if (m_pipe <= 0) return;
    const char beat = 1;
    if (::write(m_pipe, &beat, 1) < 0) m_pipe = -1;
  }

  std::string m_dbPath;
  int64_t m_runId;
  int m_rank;
  int m_pipe = -1;
  bool m_stop = false;
  std::mutex m_mutex;
  std::condition_variable m_wake;
  std::thread m_thread;
};

// The run's artifacts/worker.log alone: the full text of a failure (LibTorch's backtrace
// included) goes there, while the terminal gets the one-line reason once.
std::shared_ptr<spdlog::logger> g_logFile;

void setUpLogging(const std::string &runDir) {
  spdlog::drop_all();  // a serving worker's previous run logged to its own folder
  g_logFile.reset();
  std::vector<spdlog::sink_ptr> sinks;
  sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  sinks.back()->set_level(spdlog::level::warn);
  if (!runDir.empty()) {
    try {
      sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(
          (fs::path(runDir) / "artifacts" / "worker.log").string()));
      g_logFile = std::make_shared<spdlog::logger>("worker", sinks.back());
      g_logFile->flush_on(spdlog::level::info);
    } catch (const spdlog::spdlog_ex &) {
      // No log file is no reason not to train; stderr still has the warnings.
    }
  }
  for (const char *name : {"worker", "engine", "tracking"}) {
    auto logger = std::make_shared<spdlog::logger>(name, sinks.begin(), sinks.end());
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info);
    spdlog::register_logger(logger);
  }
  spdlog::set_default_logger(spdlog::get("worker"));
}

// The figures a person compares, in the one number format (core/config/number_text.h) the CLI's
// tables, the report and Studio use: the last epoch line, the summary and `runs list` agree digit
// for digit.
std::string figure(double value) { return tw::app::formatMetric(value); }
std::string percent(double share) { return tw::config::formatPercent(share); }
std::string count(double n) { return tw::config::formatNumber(n); }
std::string seconds(double s) { return tw::app::formatDuration(std::llround(s * 1000.0)); }

std::string epochLine(const tw::engine::EpochReport &r) {
  std::string quality;
  if (r.val.empty()) quality = "no validation set";
  else if (r.val.count("perplexity"))
    quality = "val loss " + figure(r.valLoss) + "  val acc " + percent(r.valAccuracy) + "  val perplexity " +
              figure(r.val.at("perplexity"));
  else if (r.val.count("accuracy")) quality = "val loss " + figure(r.valLoss) + "  val acc " + percent(r.valAccuracy);
  else if (r.val.count("r2")) quality = "val loss " + figure(r.valLoss) + "  val R2 " + figure(r.val.at("r2"));
  else quality = "val loss " + figure(r.valLoss);
  return fmt::format("epoch {}/{}  train loss {}  {}  {} samples/s  {}", r.epoch, r.epochs, figure(r.trainLoss),
                     quality, count(r.samplesPerSec), seconds(r.seconds));
}

void printSummary(const tw::tracking::RunRecord &run, const tw::engine::TrainSummary &s) {
  std::printf("\nSummary of run %s (%s)\n", run.uuid.substr(0, 8).c_str(), run.name.c_str());
  std::printf("  %-16s %s\n", "parameters", count(double(s.parameters)).c_str());
  std::printf("  %-16s %lld (%s steps)%s\n", "epochs", (long long)s.epochs, count(double(s.steps)).c_str(),
              s.stopped ? ", stopped early" : "");
  std::printf("  %-16s %s / %s / %s\n", "train/val/test", count(double(s.trainSamples)).c_str(),
              count(double(s.valSamples)).c_str(), count(double(s.testSamples)).c_str());
  auto row = [](const char *label, const std::string &text) { std::printf("  %-16s %s\n", label, text.c_str()); };
  row("train loss", figure(s.trainLoss));
  if (s.valSamples == 0) row("validation", "no validation set");
  else if (s.classification) row("validation loss", figure(s.valLoss) + "  accuracy " + percent(s.valAccuracy));
  else row("validation loss", figure(s.valLoss));
  if (s.testSamples == 0) {
    row("test", "no test set");
  } else if (s.classification) {
    row("test loss", figure(s.testLoss) + "  accuracy " + percent(s.testAccuracy));
    if (s.test.count("f1_macro"))
      row("test F1", figure(s.test.at("f1_macro")) + " (macro), " + figure(s.test.at("f1_weighted")) + " (weighted)");
  } else if (s.test.count("perplexity")) {
    row("test loss", figure(s.testLoss) + "  token accuracy " + percent(s.test.at("accuracy")) + "  perplexity " +
                         figure(s.test.at("perplexity")));
  } else if (s.test.count("r2")) {
    row("test loss", figure(s.testLoss) + "  MSE " + figure(s.test.at("mse")) + "  MAE " + figure(s.test.at("mae")) +
                         "  R2 " + figure(s.test.at("r2")));
  }
  if (s.bestEpoch > 0)
    row("best", "epoch " + std::to_string(s.bestEpoch) + " (" + s.monitor + " " + figure(s.bestValue) + ")" +
                    (s.earlyStopped ? ", stopped early: no further improvement" : ""));
  if (s.resumedFromStep >= 0) std::printf("  %-16s step %lld\n", "resumed from", (long long)s.resumedFromStep);
  std::printf("  %-16s %s samples/s\n", "throughput", count(s.samplesPerSec).c_str());
  std::printf("  %-16s %s\n", "time", seconds(s.seconds).c_str());
  std::fflush(stdout);
}

// The configuration a recorded run resolved, read back; errors name its config.yaml.
tw::config::RunConfig configOf(const tw::tracking::RunRecord &run, const std::string &runDir) {
  return tw::config::parseRunConfig(run.configYaml, (fs::path(runDir) / "config.yaml").string());
}

// Trains a recorded run as rank `dist.rank` (rank 0 records its progress and its end) and
// returns the exit code. `onEpoch`, when set, hears each epoch after its metrics are committed.
int trainRun(tw::tracking::Store *store, const tw::tracking::RunRecord &run, const tw::config::RunConfig &config,
             const std::string &workspace, const std::string &runDir, const tw::dist::DistEnv &dist, bool resume,
             std::shared_ptr<tw::engine::DatasetCache> dataCache,
             const std::function<void(const tw::engine::EpochReport &)> &onEpoch = {}) {
  const bool rank0 = dist.rank == 0;
  // Outside the try: a failure is recorded and reported first, and only then does the writer
  // spend its last tries on what it still holds (up to 30 s for a database server that is away).
  std::unique_ptr<tw::tracking::MetricWriter> writer;
  std::unique_ptr<tw::app::ProgressLine> progress;
  try {
    if (rank0) {
      store->setStatus(run.id, tw::tracking::RunStatus::Running);
      tw::tracking::MetricWriterOptions options;
      if (!config.tracking.tensorboard.empty()) {
        options.tensorboardDir = config.tracking.tensorboard + "/" + tw::tracking::tensorBoardRunFolder(run);
        options.tensorboardHParams = store->params(run.id);
        try {
          options.tensorboardGraph = tw::app::modelGraph(run.configYaml);
        } catch (const std::exception &e) {  // the metrics still go out
          spdlog::warn("no model graph for TensorBoard: {}", e.what());
        }
      }
      writer = std::make_unique<tw::tracking::MetricWriter>(store->path(), run.id, options);
    }
    Heartbeat heartbeat(rank0 ? store->path() : std::string(), rank0 ? run.id : 0, dist.rank);

    auto lastStopCheck = std::chrono::steady_clock::now();
    bool stopRequested = false;
    tw::engine::TrainCallbacks callbacks;
    callbacks.shouldStop = [&] {
      if (g_stopSignal) return true;
      if (!rank0) return false;
      // The Stop button sets a flag in the database; a cheap read, but not every step.
      auto now = std::chrono::steady_clock::now();
      if (now - lastStopCheck > std::chrono::seconds(1)) {
        lastStopCheck = now;
        stopRequested = stopRequested || store->stopRequested(run.id);
      }
      return stopRequested;
    };
    auto lastCheckpointCheck = std::chrono::steady_clock::now();
    callbacks.shouldCheckpoint = [&] {
      if (!rank0) return false;  // rank 0's vote reaches every rank with the gradients
      auto now = std::chrono::steady_clock::now();
      if (now - lastCheckpointCheck < std::chrono::seconds(1)) return false;
      lastCheckpointCheck = now;
      try {
        return store->takeCheckpointRequest(run.id);
      } catch (const std::exception &e) {
        spdlog::warn("reading the checkpoint request: {}", e.what());
        return false;
      }
    };
    if (rank0) {
      callbacks.onDataLoaded = [&](const std::string &fingerprint, const std::vector<std::string> &reading) {
        store->setDataFingerprint(run.id, fingerprint);
        // Information, not a warning: on stdout with the run's other lines.
        for (const std::string &line : reading) std::printf("data: %s\n", line.c_str());
        std::fflush(stdout);
      };
      // What a deployed model must do to its inputs, beside the run's config (export reads it).
      callbacks.onPreprocessing = [&](const std::string &json) {
        tw::engine::writeFileAtomically((fs::path(runDir) / "preprocessing.json").string(), json);
        // The record itself goes into the database too, so that it outlives the run's folder.
        tw::config::Sha256 digest;
        digest.update(json);
        store->addArtifact(run.id, "preprocessing.json", "preprocessing", digest.hexDigest(), json);
      };
      // On the terminal `train` runs in (stdout: stderr is a pipe to the launcher), a progress
      // line of steps under the epoch lines; elsewhere (a log file, a sweep's trial) none.
      callbacks.onStep = [&](int64_t step, int64_t totalSteps) {
        if (!progress)
          progress = std::make_unique<tw::app::ProgressLine>(
              "training", "steps", totalSteps, tw::app::ProgressOptions{.first = step - 1, .onStdout = true});
        progress->update(step);
      };
      callbacks.onEpoch = [&](const tw::engine::EpochReport &r) {
        if (progress) progress->say(epochLine(r));
        else std::printf("%s\n", epochLine(r).c_str());
        std::fflush(stdout);
        if (onEpoch) onEpoch(r);
      };
      callbacks.onArtifact = [&](const std::string &path, const std::string &kind) {
        store->addArtifact(run.id, path, kind);
      };
      callbacks.onArtifactRemoved = [&](const std::string &path) { store->removeArtifact(run.id, path); };
      // What the starting weights were and which tensors took them: printed, and kept with the
      // run (init_from.json in its folder and the database) as the run's provenance.
      callbacks.onWeightsTaken = [&](const std::string &source, const std::string &file,
                                     const tw::engine::WeightTransfer &plan) {
        std::printf("%s", plan.table(source).c_str());
        std::fflush(stdout);
        const std::string json = plan.json(source, file);
        tw::engine::writeFileAtomically((fs::path(runDir) / "init_from.json").string(), json);
        tw::config::Sha256 digest;
        digest.update(json);
        store->addArtifact(run.id, "init_from.json", "provenance", digest.hexDigest(), json);
        using Kind = tw::engine::WeightMatch::Kind;
        store->setTag(run.id, "init_from.taken",
                      std::to_string(plan.count(Kind::Taken)) + " of " +
                          std::to_string(plan.rows.size() - plan.count(Kind::Unexpected)) + " tensors");
      };
    }
    tw::engine::TrainEnvironment environment;
    // A run resumed from its checkpoint takes no starting weights: the source is not looked for.
    if (rank0 && !config.train.initFrom.empty() && !(resume && fs::exists(fs::path(runDir) / "checkpoints" / "last.pt")))
      environment.initFile = tw::app::resolveInitSource(*store, workspace, config.train.initFrom).file;
    environment.runDir = runDir;
    environment.resume = resume;
    environment.dist = dist;
    environment.dataCache = std::move(dataCache);

    auto summary = tw::engine::train(config, writer.get(), callbacks, environment);
    if (progress) progress->finish();
    if (!rank0) return 0;
    store->setTag(run.id, "weights_sha256", summary.weightsDigest);
    writer->flush();
    if (!writer->lastError().empty())
      spdlog::warn("some metrics could not be written: {}", writer->lastError());
    if (summary.stopped && g_launcherGone)
      store->setStatus(run.id, tw::tracking::RunStatus::Failed,
                       "its launcher exited unexpectedly; stopped after a checkpoint (`torchwright train --resume " +
                           run.uuid.substr(0, 8) + "` continues it)");
    else if (summary.stopped)
      store->setStatus(run.id, tw::tracking::RunStatus::Killed, "stopped on request");
    else
      store->setStatus(run.id, tw::tracking::RunStatus::Finished);
    printSummary(run, summary);
    return 0;
  } catch (const std::exception &e) {
    if (progress) progress->finish();  // the failure's message on a line of its own
    const std::string what = tw::engine::messageOf(e);
    if (g_logFile) g_logFile->error("run {} failed: {}", run.uuid, e.what());
    if (dist.distributed() && lostPeer(what)) {
      // The launcher decides: restart every rank from the checkpoint, or record the failure.
      std::fprintf(stderr, "torchwright: rank %d lost contact with the other ranks: %s\n", dist.rank, what.c_str());
      return kExitPeerLost;
    }
    if (rank0) {
      try {
        store->setStatus(run.id, tw::tracking::RunStatus::Failed, what);
      } catch (const std::exception &inner) {
        std::fprintf(stderr, "torchwright-worker: could not record the failure: %s\n", inner.what());
      }
    }
    // The one place a failure reaches the terminal: the launcher passes this line on and does
    // not repeat it (see app/cli/rank_supervisor.cpp).
    std::string who = run.uuid.empty() ? std::string("the run") : "run " + run.uuid.substr(0, 8);
    if (dist.distributed()) who += " (rank " + std::to_string(dist.rank) + ")";
    std::fprintf(stderr, "torchwright: %s failed: %s\n", who.c_str(), what.c_str());
    return 1;
  }
}

// A line to the sweep driver; a driver that is gone is no reason to stop the run.
void tell(int fd, const std::string &line) {
  const std::string text = line + "\n";
  (void)!::write(fd, text.data(), text.size());
}

// --serve: one slot of a sweep. Trains the recorded runs whose ids arrive on stdin, one at a
// time, in this one process, so a short trial costs its training and not a process start and a
// read of the data (kept in a DatasetCache between runs with the same data). Tells the driver on
// the descriptor TORCHWRIGHT_SERVE_FD "epoch RUN N" once epoch N's metrics are committed (its
// pruner judges at once) and "done RUN CODE" when the run has ended and been recorded. SIGTERM
// stops the current run after a checkpoint (a pruned trial) and the worker takes the next; the
// end of stdin or the driver's death (SIGHUP) ends the worker.
int serve(const std::string &workspace) {
  const char *fdText = std::getenv("TORCHWRIGHT_SERVE_FD");
  if (workspace.empty() || !fdText) {
    std::fprintf(stderr, "torchwright-worker: --serve needs --workspace and TORCHWRIGHT_SERVE_FD\n");
    return 2;
  }
  const int fd = std::atoi(fdText);
  g_serving = true;
  std::unique_ptr<tw::tracking::Store> store;
  try {
    store = tw::tracking::Store::open(tw::tracking::workspaceStore(workspace));
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright-worker: %s\n", e.what());
    return 1;
  }
  std::printf("torchwright-worker %d serving %s\n", static_cast<int>(::getpid()), workspace.c_str());
  std::fflush(stdout);
  auto cache = tw::engine::newDatasetCache();
  std::string runId;
  while (!g_launcherGone && std::getline(std::cin, runId)) {
    if (runId.empty()) continue;
    g_stopSignal = false;  // a stop meant for the previous run, which had ended, is not for this one
    int code = 1;
    try {
      auto run = store->findRun(runId);
      if (!run) throw std::runtime_error("no run '" + runId + "' in " + store->shownLocation());
      const std::string runDir = tw::app::runFolder(workspace, *run);
      std::printf("run %s (%s)\n", run->uuid.c_str(), run->name.c_str());
      std::fflush(stdout);
      tw::config::RunConfig config;
      try {
        config = configOf(*run, runDir);
      } catch (const std::exception &e) {
        store->setStatus(run->id, tw::tracking::RunStatus::Failed, e.what());
        throw;
      }
      setUpLogging(runDir);
      code = trainRun(store.get(), *run, config, workspace, runDir, tw::dist::DistEnv{}, /*resume=*/false, cache,
                      [&](const tw::engine::EpochReport &r) { tell(fd, "epoch " + runId + " " + std::to_string(r.epoch)); });
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright-worker: %s\n", e.what());
    }
    tell(fd, "done " + runId + " " + std::to_string(code));
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (flag(argc, argv, "--export")) return tw::worker::exportRun(argc, argv);
  if (flag(argc, argv, "--export-model")) return tw::worker::exportModelFile(argc, argv);
  if (flag(argc, argv, "--plan-weights")) return tw::worker::planWeights(argc, argv);
  if (flag(argc, argv, "--predict")) return tw::worker::predictRun(argc, argv);
  if (flag(argc, argv, "--import")) return tw::worker::importModel(argc, argv);
  const std::string runId = option(argc, argv, "--run");
  const std::string configFile = option(argc, argv, "--config");
  std::string workspace = option(argc, argv, "--workspace");
  const bool serving = flag(argc, argv, "--serve");
  if (serving ? !(runId.empty() && configFile.empty()) : runId.empty() == configFile.empty()) {
    std::fprintf(stderr, "usage: torchwright-worker --workspace DIR --run RUN_ID [--resume] [--set KEY=VALUE ...]\n"
                         "       torchwright-worker --config RUN.yaml [--set key=value ...] [--workspace DIR]\n"
                         "                          (one rank under srun, torchrun or a PyTorchJob)\n"
                         "       torchwright-worker --workspace DIR --serve\n"
                         "                          (a sweep's slot: run ids on stdin, one after another)\n"
                         "       torchwright-worker --export RUN_ID --workspace DIR --format F --out FILE ...\n"
                         "       torchwright-worker --export-model MODEL.model.yaml --format F --out FILE [--weights FILE]\n"
                         "       torchwright-worker --import FILE.onnx --out MODEL.model.yaml [--input-shape C,H,W]\n");
    return 2;
  }
  std::signal(SIGTERM, onSignal);
  std::signal(SIGINT, onSignal);
  std::signal(SIGHUP, onHangup);
  // A launcher that died leaves the heartbeat pipe and stderr without a reader: a write must fail
  // with EPIPE (the heartbeat then stops), not kill the rank before it has stopped after a
  // checkpoint and recorded why. LibTorch happens to ignore SIGPIPE already; this does not
  // depend on it.
  std::signal(SIGPIPE, SIG_IGN);
  if (serving) return serve(workspace);
  tw::dist::DistEnv dist;
  try {
    dist = tw::dist::distEnvFromProcess();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright-worker: %s\n", e.what());
    return 2;
  }
  const bool rank0 = dist.rank == 0;
  // Which run: recorded already (--run), or, from a run file, recorded now by rank 0.
  std::unique_ptr<tw::tracking::Store> store;
  tw::tracking::RunRecord run;
  tw::config::RunConfig config;
  std::string runDir;
  try {
    if (!runId.empty()) {
      if (workspace.empty()) throw std::runtime_error("--run needs --workspace");
      store = tw::tracking::Store::open(tw::tracking::workspaceStore(workspace));
      auto found = store->findRun(runId);
      if (!found) {
        std::fprintf(stderr, "torchwright-worker: no run '%s' in %s\n", runId.c_str(), store->shownLocation().c_str());
        return 1;
      }
      run = *found;
      runDir = tw::app::runFolder(workspace, run);
      config = configOf(run, runDir);
      // A resume may change what only makes it faster (`train --resume RUN --set data.workers=4`).
      const std::vector<std::string> sets = options(argc, argv, "--set");
      if (!sets.empty()) {
        const std::vector<std::string> allowed = tw::config::speedOnlyKeys();
        for (const std::string &set : sets)
          if (std::find(allowed.begin(), allowed.end(), set.substr(0, set.find('='))) == allowed.end())
            throw std::runtime_error("--set " + set + ": a recorded run takes only settings that change its speed");
        config = tw::config::parseRunConfig(run.configYaml, (fs::path(runDir) / "config.yaml").string(), sets);
        for (const std::string &set : sets) std::printf("resumed with %s\n", set.c_str());
      }
    } else {
      config = tw::config::loadRunConfig(configFile, options(argc, argv, "--set"));
      if (rank0) {
        if (workspace.empty()) workspace = tw::config::defaultWorkspaceDir();
        tw::config::ensureWorkspace(workspace);
        store = tw::tracking::Store::open(tw::tracking::workspaceStore(workspace));
        const auto analysis = tw::spec::analyzeOrThrow(tw::spec::parseModelYaml(config.modelYaml, config.modelFile));
        run = tw::app::recordRun(*store, config, workspace, analysis.totalParams);
        runDir = run.runDir;
        std::printf("run %s (%s) in experiment '%s', %s\n", run.uuid.c_str(), run.name.c_str(),
                    run.experiment.c_str(), dist.describe().c_str());
        std::fflush(stdout);
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torchwright-worker: %s\n", e.what());
    return 1;
  }
  if (!rank0) store.reset();  // only rank 0 writes to the tracking database
  setUpLogging(rank0 ? runDir : std::string());

  return trainRun(store.get(), run, config, workspace, runDir, dist, flag(argc, argv, "--resume"), nullptr);
}
