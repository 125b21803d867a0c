#include "app/cli/sweep_driver.h"

#include "app/cli/core_plan.h"
#include "app/cli/rank_supervisor.h"
#include "app/cli/cluster_trial.h"
#include "app/cli/study_ref.h"
#include "app/cli/study_trials.h"
#include "app/cli/sweep_progress.h"
#include "app/cli/system_sampling.h"
#include "app/cli/table_printer.h"
#include "app/cli/trial_config.h"
#include "app/cli/trial_files.h"
#include "app/cli/trial_outcome.h"
#include "app/cli/trial_process.h"
#include "app/common/run_recording.h"

#include "core/config/run_config.h"
#include "core/search/catalog.h"
#include "core/validate/machine.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <thread>

namespace fs = std::filesystem;

namespace tw::cli {

namespace {

using Clock = std::chrono::steady_clock;

volatile sig_atomic_t g_interrupts = 0;  // Ctrl-C presses
volatile sig_atomic_t g_terminate = 0;   // SIGTERM
void onInterrupt(int) { g_interrupts = g_interrupts + 1; }
void onTerminate(int) { g_terminate = 1; }

// A sampled space where this many configurations in a row do not validate is not being searched.
constexpr int kMaxInvalidInARow = 20;
// Trials whose process dies before its run starts, this many in a row: the next will too (a
// missing or broken executable), and a sweep would otherwise burn its whole budget on them.
constexpr int kMaxStartFailuresInARow = 3;

std::string firstLine(const std::string &text) { return text.substr(0, text.find('\n')); }

struct RunningTrial {
  int number = 0;
  size_t slot = 0;
  std::unique_ptr<TrialJob> own;      // a multi-rank trial's `torchwright launch`, or its cluster job
  TrialJob *process = nullptr;        // `own`, or the slot's serving worker
  TrialProcess *worker = nullptr;     // served: the slot's serving worker
  bool served = false;                // trained by the slot's `torchwright-worker --serve`
  bool done = false;                  // served: the worker said its run has ended
  std::unique_ptr<sysmon::ProcessSampler> sampler;  // served: the worker, for the run's system metrics
  int gpu = -1;                       // served: the physical GPU it trains on; -1: none
  bool sampled = false;               // served: its system figures were recorded at least once
  std::string logFile;
  int64_t runId = 0;
  int64_t lastStep = INT64_MIN;  // the objective's last step reported to the database
  bool pruned = false;
  int64_t prunedEpoch = 0;
  bool stopped = false;          // stopped with the sweep
  int64_t epochs = 0;            // served: the run's epochs, from its "epoch N/M" lines; 0 unknown
};

class Driver {
 public:
  Driver(tracking::Store &store, const tracking::StudyRecord &study, const sweep::SweepFile &sweep,
         const DriverOptions &options)
      : m_store(store), m_study(study), m_sweep(sweep), m_options(options),
        m_folder(studyFolder(options.workspace, study)),
        m_directions(studyDirections(study)), m_metrics(studyMetrics(study)),
        m_progress(::isatty(STDOUT_FILENO) != 0) {
    if (const auto *entry = search::findPruner(sweep.pruner); entry && sweep.pruner != "none")
      m_pruner = entry->make(sweep.prunerOptions);
  }

  int run() {
    fs::create_directories(m_folder);
    installSignals();
    m_store.setStudyStatus(m_study.id, "RUNNING");
    m_started = Clock::now();
    if (auto current = m_store.study(m_study.id)) m_spentBeforeMs = current->driverMs;
    try {
      planSlots();
      if (m_options.resume) {
        // A cluster trial's job outlives its driver: the jobs of RUNNING trials are taken over.
        const int64_t adoptedFrom = tracking::nowMs();
        if (m_sweep.executor.cluster()) adoptJobs();
        // The caller holds the study's lock, so any other RUNNING trial has no driver: fail it now
        // (those taken over had their heartbeat beaten since `adoptedFrom`).
        for (const auto &t : m_store.failSilentTrials(m_study.id, std::max<int64_t>(0, tracking::nowMs() - adoptedFrom)))
          m_progress.event("trial " + std::to_string(t.number) + " was left RUNNING by a driver that is gone: FAILED");
      }
      const int code = loop();
      m_store.studyHeartbeat(m_study.id, spentMs());
      m_store.setStudyStatus(m_study.id, "IDLE");
      return code;
    } catch (...) {
      // The database failed under us: stop the trials (their runs keep their checkpoints) and
      // release the study if the database still answers.
      for (auto &t : m_running) t.process->terminate();
      for (auto &w : m_workers)
        if (w) w->closeInput();
      const auto deadline = Clock::now() + std::chrono::seconds(10);
      while (Clock::now() < deadline && std::any_of(m_running.begin(), m_running.end(),
                                                     [](RunningTrial &t) { return !t.done && !t.process->poll(); }))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      try {
        m_store.setStudyStatus(m_study.id, "IDLE");
      } catch (const std::exception &) {
      }
      throw;
    }
  }

 private:
  void installSignals() {
    struct sigaction interrupt {};
    interrupt.sa_handler = onInterrupt;
    sigemptyset(&interrupt.sa_mask);
    sigaction(SIGINT, &interrupt, nullptr);
    struct sigaction terminate {};
    terminate.sa_handler = onTerminate;
    sigemptyset(&terminate.sa_mask);
    sigaction(SIGTERM, &terminate, nullptr);
    // A serving worker that died is seen by its exit, not by a signal on the next write to it.
    ::signal(SIGPIPE, SIG_IGN);
  }

  void planSlots() {
    if (m_sweep.executor.cluster()) {
      // The scheduler places the jobs; the driver keeps `parallel` of them queued or running.
      m_plan.slots.assign(static_cast<size_t>(m_sweep.parallel), TrialSlot{});
      m_slotBusy.assign(m_plan.slots.size(), false);
      m_workers.resize(m_plan.slots.size());
      m_progress.event("study " + m_study.name + " (" + m_study.uuid.substr(0, 8) + "): " +
                       std::to_string(m_sweep.parallel) + " trial(s) at a time as " + clusterRequestText(m_sweep.executor));
      return;
    }
    // The base as the first trial would run it decides the plan: ranks, convolutions, memory.
    const config::RunConfig base = config::parseRunConfig(m_sweep.baseYaml, m_sweep.baseFile);
    search::Params none;
    const PreparedTrial probe = prepareTrial(m_sweep, none);
    const validate::Machine machine = validate::detectMachine();
    const bool cuda = base.train.device.rfind("cuda", 0) == 0;
    CoreRequest request;
    request.cpus = allowedCpus();
    request.gpuCount = cuda ? machine.gpuCount : 0;
    request.parallel = m_sweep.parallelAuto ? 0 : m_sweep.parallel;
    // A space that searches the rank count plans for its largest value, so no trial's ranks
    // outnumber the cores its slot has.
    request.ranksPerTrial = static_cast<int>(base.distributed.nprocPerNode);
    if (const search::ParamSpec *ranks = m_sweep.space.find("distributed.nproc_per_node")) {
      double most = ranks->high;
      for (const auto &choice : ranks->choices) most = std::max(most, std::strtod(choice.c_str(), nullptr));
      request.ranksPerTrial = std::max(request.ranksPerTrial, static_cast<int>(most));
    }
    request.convolutional = probe.convolutional;
    if (m_sweep.budget.trials > 0)  // what is left of it, on a resume
      request.budgetTrials = std::max(1, m_sweep.budget.trials - budgetTrialsUsed(m_store.trials(m_study.id)));
    request.trialMemoryBytes = probe.memoryBytes * request.ranksPerTrial;
    request.hostMemoryBytes = machine.hostMemoryBytes;
    m_plan = planCores(request);
    m_slotBusy.assign(m_plan.slots.size(), false);
    m_workers.resize(m_plan.slots.size());
    m_progress.event("study " + m_study.name + " (" + m_study.uuid.substr(0, 8) + "): " + m_plan.reason);
  }

  int loop() {
    auto lastBeat = Clock::time_point();
    auto lastPoll = Clock::time_point();
    auto lastStatus = Clock::time_point();
    auto lastSample = Clock::now();
    int interruptsSeen = 0;
    while (true) {
      const auto now = Clock::now();
      if (g_interrupts > interruptsSeen) {
        interruptsSeen = g_interrupts;
        if (interruptsSeen == 1 && !m_running.empty()) {
          m_draining = true;
          m_progress.event("stopping: no new trials; waiting for " + std::to_string(m_running.size()) +
                           " running (Ctrl-C again stops them now)");
        } else {
          stopNow("stopped by Ctrl-C");
        }
      }
      if (g_terminate && m_sweep.executor.cluster()) {
        // The scheduler requeuing or ending the driver's own job: its trials' jobs go on, and the
        // driver that resumes the study takes them over.
        m_progress.event("stopped by SIGTERM: " + std::to_string(m_running.size()) + " trial job(s) go on under " +
                         (m_sweep.executor.slurm() ? "SLURM" : "Kubernetes") + "; `torchwright sweep --resume " +
                         m_study.name + "` takes them over");
        m_running.clear();
        m_progress.finish();
        return 0;
      }
      if (g_terminate) stopNow("stopped by SIGTERM");
      if (now - lastBeat >= std::chrono::seconds(1)) {
        beat();
        if (!m_stopping && m_store.studyStopRequested(m_study.id)) stopNow("stopped on request (Studio's Stop)");
        lastBeat = now;
      }
      reap();
      // The worker's metric writer commits every 250 ms: polling as often prunes within ~0.5 s.
      if (now - lastSample >= std::chrono::seconds(2)) {
        for (auto &t : m_running) sampleSystemOf(t);
        lastSample = now;
      }
      if (now - lastPoll >= std::chrono::milliseconds(250)) {
        for (auto &t : m_running) pollReports(t);
        lastPoll = now;
      }
      while (!m_stopping && !m_draining && freeSlot() >= 0 && budgetLeft()) {
        if (!startTrial(static_cast<size_t>(freeSlot()))) break;
      }
      if (m_running.empty() && (m_stopping || m_draining || !budgetLeft())) break;
      if (now - lastStatus >= std::chrono::seconds(1)) {
        m_progress.status(counts());
        lastStatus = now;
      }
      waitForEvents(std::chrono::milliseconds(100));
    }
    closeWorkers();
    m_progress.finish();
    return finish();
  }

  // The time drivers have spent on the study, this session and every earlier one (a resume
  // continues the study's time budget; it does not start a new one).
  int64_t spentMs() const {
    return m_spentBeforeMs + std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_started).count();
  }

  bool budgetLeft() {
    if (m_giveUp) return false;
    if (app::timeBudgetSpent(m_sweep.budget.minutes, spentMs())) {
      if (!m_timeUp) m_progress.event("time budget reached: no new trials");
      m_timeUp = true;
      return false;
    }
    const int trialBudget = m_sweep.budget.trials;
    const auto trials = m_store.trials(m_study.id);
    // Retries do not count against the trial budget: a used-up budget still retries a failure.
    if (trialBudget > 0 && budgetTrialsUsed(trials) >= trialBudget)
      return retryCandidate(trials, m_sweep.retries, m_notRetried) >= 0;
    return true;
  }

  int freeSlot() const {
    for (size_t i = 0; i < m_slotBusy.size(); ++i)
      if (!m_slotBusy[i]) return static_cast<int>(i);
    return -1;
  }

  // Starts the next trial in `slot`; false when the driver should not try again this round.
  bool startTrial(size_t slot) {
    const int retry = retryCandidate(m_store.trials(m_study.id), m_sweep.retries, m_notRetried);
    const tracking::TrialRecord record = askTrial(m_store, m_study, m_sweep, retry);
    const std::string name = "trial " + std::to_string(record.number);
    const auto trials = searchTrials(m_sweep.space, {record});
    PreparedTrial prepared = prepareTrial(m_sweep, trials.front().params);
    if (!prepared.ok) {
      m_store.setTrialState(m_study.id, record.number, "FAILED", {}, prepared.message);
      m_progress.event(name + " FAILED before it started (" + paramsLine(record.params) + "): " +
                       firstLine(prepared.message));
      if (++m_invalidInARow >= kMaxInvalidInARow) {
        m_progress.event("the last " + std::to_string(kMaxInvalidInARow) +
                         " sampled configurations did not validate; stopping (narrow the space)");
        m_giveUp = true;
        return false;
      }
      return true;
    }
    m_invalidInARow = 0;
    config::RunConfig &config = prepared.config;
    config.tracking.runName = m_study.name + "-trial-" + std::to_string(record.number);
    const TrialSlot &assigned = m_plan.slots[slot];
    if (!assigned.gpus.empty()) config.train.device = "cuda";  // cuda:LOCAL_RANK of the GPUs it was given
    RunningTrial running;
    running.number = record.number;
    running.slot = slot;
    try {
      if (m_sweep.executor.cluster()) submitTrial(running, config, prepared.parameters);
      else if (config.distributed.nprocPerNode > 1) launchTrial(running, config, assigned);
      else serveTrial(running, config, prepared.parameters, assigned);
    } catch (const std::exception &e) {
      m_store.setTrialState(m_study.id, record.number, "FAILED", {}, e.what());
      m_progress.event(name + " FAILED: " + e.what());
      startFailed();
      return false;
    }
    m_store.trialHeartbeat(m_study.id, record.number);
    m_slotBusy[slot] = true;
    std::string where = "cores " + cpuListText(assigned.cpus);
    if (!assigned.gpus.empty()) where += ", GPU " + cudaVisibleDevices(assigned.gpus);
    if (running.own && !running.own->where().empty()) where = running.own->where();
    m_progress.event(name + " started" + (retry >= 0 ? " (retrying trial " + std::to_string(retry) + ")" : "") + ": " +
                     paramsLine(record.params) + " [" + where + "]");
    m_running.push_back(std::move(running));
    return true;
  }

  // A multi-rank trial: `torchwright launch` of its run file, which records the run, supervises
  // the ranks and restarts them from a checkpoint as the run says.
  void launchTrial(RunningTrial &t, const config::RunConfig &config, const TrialSlot &assigned) {
    const std::string runFile = trialFile(m_folder, t.number, ".yaml");
    writeTrialFile(runFile, config::toYaml(config));
    TrialLaunch launch = onSlot(assigned, trialFile(m_folder, t.number, ".log"));
    launch.executable = selfExecutable(m_options.selfPath);
    launch.arguments = {"launch", runFile, "--workspace", m_options.workspace,
                        "--trial", m_study.uuid + ":" + std::to_string(t.number)};
    t.logFile = launch.logFile;
    t.own = std::make_unique<TrialProcess>(launch);
    t.process = t.own.get();
  }

  // A trial as a cluster's job: its run recorded here, its job resuming that run, so that a
  // requeued job or a replaced pod continues from the run's last checkpoint.
  void submitTrial(RunningTrial &t, const config::RunConfig &config, int64_t parameters) {
    const tracking::RunRecord run = app::recordRun(m_store, config, m_options.workspace, parameters);
    linkRunToTrial(m_store, run, m_study.uuid + ":" + std::to_string(t.number));
    t.runId = run.id;
    ClusterTrialSpec spec;
    spec.studyFolder = m_folder;
    spec.studyName = m_study.name;
    spec.studyUuid = m_study.uuid;
    spec.number = t.number;
    // In a container the image's own torchwright runs; on SLURM this one, from the shared disk.
    spec.executable = m_sweep.executor.kubernetes() ? std::string("torchwright") : selfExecutable(m_options.selfPath);
    spec.workspace = m_options.workspace;
    spec.runUuid = run.uuid;
    spec.executor = m_sweep.executor;
    t.logFile = trialFile(m_folder, t.number, ".log");
    try {
      t.own = submitClusterTrial(spec);
    } catch (const std::exception &e) {
      m_store.setStatus(run.id, tracking::RunStatus::Failed, e.what());
      throw;
    }
    t.process = t.own.get();
  }

  // On a resume: every RUNNING trial with a recorded job is followed again, in a slot of its
  // own (more slots than `parallel` while a lowered `parallel` drains).
  void adoptJobs() {
    for (const auto &record : m_store.trials(m_study.id)) {
      if (record.state != "RUNNING") continue;
      std::unique_ptr<TrialJob> job = adoptClusterTrial(m_sweep.executor, m_folder, record.number);
      if (!job) continue;
      RunningTrial t;
      t.number = record.number;
      t.runId = record.runId;
      t.logFile = trialFile(m_folder, record.number, ".log");
      t.own = std::move(job);
      t.process = t.own.get();
      if (freeSlot() < 0) {
        m_plan.slots.push_back(TrialSlot{});
        m_slotBusy.push_back(false);
        m_workers.emplace_back();
      }
      t.slot = static_cast<size_t>(freeSlot());
      m_slotBusy[t.slot] = true;
      m_store.trialHeartbeat(m_study.id, t.number);
      m_progress.event("trial " + std::to_string(t.number) + ": following " + t.own->where() + " again");
      m_running.push_back(std::move(t));
    }
  }

  // A one-rank trial: its run recorded here and handed to the slot's serving worker, which
  // keeps its process and the data between trials (torchwright-worker --serve).
  void serveTrial(RunningTrial &t, const config::RunConfig &config, int64_t parameters, const TrialSlot &assigned) {
    const tracking::RunRecord run = app::recordRun(m_store, config, m_options.workspace, parameters);
    linkRunToTrial(m_store, run, m_study.uuid + ":" + std::to_string(t.number));
    t.runId = run.id;
    t.served = true;
    t.logFile = (fs::path(m_folder) / ("slot-" + std::to_string(t.slot) + ".log")).string();
    auto &worker = m_workers[t.slot];
    if (worker && worker->poll()) worker.reset();  // it died after its last trial
    try {
      if (!worker) {
        TrialLaunch launch = onSlot(assigned, t.logFile);
        launch.executable = workerPathBeside(m_options.selfPath);
        launch.arguments = {"--workspace", m_options.workspace, "--serve"};
        launch.serve = true;
        worker = std::make_unique<TrialProcess>(launch);
      }
      if (!worker->send(run.uuid)) throw std::runtime_error("its slot's worker " + (worker->poll() ? worker->describeExit() : "does not read"));
    } catch (const std::exception &e) {
      m_store.setStatus(run.id, tracking::RunStatus::Failed, e.what());
      worker.reset();
      throw;
    }
    t.process = worker.get();
    t.worker = worker.get();
    t.sampler = std::make_unique<sysmon::ProcessSampler>(static_cast<int>(worker->pid()));
    if (!assigned.gpus.empty()) t.gpu = assigned.gpus.front();
  }

  // What a launcher records for its run's processes (system_sampling.h); a served trial's run
  // has no launcher, so the driver records its worker and GPU. A launched trial's supervisor
  // records its own.
  void sampleSystemOf(RunningTrial &t) {
    if (!t.served || t.done || t.runId == 0) return;
    t.sampled = true;
    if (!m_nvml) m_nvml = std::make_unique<sysmon::Nvml>();
    auto rows = sampleSystem({{0, t.sampler.get(), true, t.gpu}}, *m_nvml);
    try {
      if (!rows.empty()) m_store.writeSystemMetrics(t.runId, std::move(rows));
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: system metrics: %s\n", e.what());
    }
  }

  // A process on the slot's cores and GPUs, its output appended to `logFile`.
  static TrialLaunch onSlot(const TrialSlot &assigned, const std::string &logFile) {
    TrialLaunch launch;
    launch.cpus = assigned.cpus;
    if (!assigned.gpus.empty())
      launch.environment.push_back({"CUDA_VISIBLE_DEVICES", cudaVisibleDevices(assigned.gpus)});
    launch.logFile = logFile;
    return launch;
  }

  void startFailed() {
    if (++m_startFailuresInARow < kMaxStartFailuresInARow) return;
    if (!m_giveUp)
      m_progress.event("the last " + std::to_string(kMaxStartFailuresInARow) +
                       " trials' processes ended before their runs started; stopping (see the study folder's logs)");
    m_giveUp = true;
  }

  // Sleeps up to `most`, waking as soon as a serving worker has something to say (an epoch's
  // objective for the pruner, a trial's end).
  void waitForEvents(std::chrono::milliseconds most) {
    std::vector<pollfd> fds;
    for (const auto &t : m_running)
      if (t.served && t.worker->eventFd() >= 0) fds.push_back({t.worker->eventFd(), POLLIN, 0});
    if (fds.empty()) {
      std::this_thread::sleep_for(most);
      return;
    }
    ::poll(fds.data(), fds.size(), static_cast<int>(most.count()));
  }

  // Idle workers exit at the end of their input; one still busy after a while is killed.
  void closeWorkers() {
    for (auto &w : m_workers)
      if (w) w->closeInput();
    const auto deadline = Clock::now() + std::chrono::seconds(10);
    while (Clock::now() < deadline &&
           std::any_of(m_workers.begin(), m_workers.end(), [](auto &w) { return w && !w->poll(); }))
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    m_workers.clear();
  }

  // New epochs of the objective: recorded on the trial, and put to the pruner.
  // `mayPrune` is false once the run has ended: a trial that finished is judged by its result.
  void pollReports(RunningTrial &t, bool mayPrune = true) {
    if (t.runId == 0) {
      if (auto record = m_store.trial(m_study.id, t.number)) t.runId = record->runId;
      if (t.runId == 0) return;
    }
    if (t.stopped || (t.pruned && mayPrune)) return;
    const auto reports = newEpochReports(m_store, t.runId, m_metrics.front(), t.lastStep);
    for (const auto &r : reports) {
      m_store.reportIntermediate(m_study.id, t.number, r.epoch, r.value);
      t.lastStep = r.step;
      if (!mayPrune || !m_pruner || m_directions.size() != 1) continue;
      // The last epoch's training is done: the trial is judged by its result, not pruned.
      if (t.epochs > 0 && r.epoch >= t.epochs) continue;
      const auto trials = searchTrials(m_sweep.space, m_store.trials(m_study.id));
      auto self = std::find_if(trials.begin(), trials.end(),
                               [&](const search::Trial &x) { return x.number == t.number; });
      if (self == trials.end() || !search::pruneNow(*m_pruner, trials, *self, r.epoch, m_directions.front())) continue;
      prune(t, r.epoch);
      return;
    }
  }

  // Stops the trial's run at once, keeping its checkpoint and metrics; settle() marks both ends
  // once the process has ended, by how the run ended (it may finish before the stop reaches it).
  void prune(RunningTrial &t, int64_t epoch) {
    t.pruned = true;
    t.prunedEpoch = epoch;
    m_store.setTag(t.runId, "pruned", std::to_string(epoch));
    t.process->terminate();
    m_progress.event("trial " + std::to_string(t.number) + " PRUNED at epoch " + std::to_string(epoch) + " (" +
                     m_metrics.front() + " " + formatMetric(lastReport(t.number, epoch)) + ")");
  }

  std::string prunedMessage(int64_t epoch) const {
    return "pruned at epoch " + std::to_string(epoch) + " by the " + m_sweep.pruner + " pruner";
  }

  double lastReport(int number, int64_t epoch) const {
    auto record = m_store.trial(m_study.id, number);
    if (!record) return NAN;
    auto found = record->intermediate.find(epoch);
    return found == record->intermediate.end() ? NAN : found->second;
  }

  void reap() {
    for (auto it = m_running.begin(); it != m_running.end();) {
      if (!ended(*it)) {
        ++it;
        continue;
      }
      settle(*it);
      m_slotBusy[it->slot] = false;
      if (it->served && it->process->exited()) m_workers[it->slot].reset();
      it = m_running.erase(it);
    }
  }

  // Launched: its process exited. Served: the worker said the run ended, or the worker died.
  bool ended(RunningTrial &t) {
    if (!t.served) return t.process->poll();
    hear(t);
    if (!t.done && t.process->poll()) hear(t);  // what it said before it died
    return t.done || t.process->exited();
  }

  void hear(RunningTrial &t) {
    for (const std::string &line : t.worker->readLines()) {
      if (line.rfind("epoch ", 0) == 0) {
        long long epoch = 0, epochs = 0;
        if (std::sscanf(line.c_str(), "epoch %lld/%lld", &epoch, &epochs) == 2) t.epochs = epochs;
        pollReports(t);  // committed: the pruner judges it now
        // A trial shorter than the sampling interval still gets its figures, taken while it
        // trains (a worker sampled as it starts may be halfway through exec, with no memory yet).
        if (!t.sampled) sampleSystemOf(t);
      }
      else if (line.rfind("done ", 0) == 0) t.done = true;
    }
  }

  // The trial's process has exited: its run's end decides the trial's state.
  void settle(RunningTrial &t) {
    pollReports(t, /*mayPrune=*/false);
    const std::string name = "trial " + std::to_string(t.number);
    std::optional<tracking::RunRecord> run;
    if (t.runId != 0) run = m_store.run(t.runId);
    if (t.pruned && !(run && run->status == tracking::RunStatus::Finished)) {
      // The worker recorded KILLED "stopped on request"; say why the run was stopped.
      if (run && (run->status == tracking::RunStatus::Killed || run->status == tracking::RunStatus::Running))
        m_store.setStatus(t.runId, tracking::RunStatus::Killed, prunedMessage(t.prunedEpoch));
      m_store.setTrialState(m_study.id, t.number, "PRUNED", {}, prunedMessage(t.prunedEpoch));
      return;
    }
    if (t.pruned) {
      // It finished before the stop reached it: a whole run, so the trial is judged by its result
      // and does not read PRUNED beside a FINISHED run.
      m_store.removeTag(t.runId, "pruned");
      m_progress.event(name + " finished before its pruning took effect: judged by its result");
    }
    TrialOutcome outcome;
    if (run) outcome = outcomeOfRun(m_store, *run, m_metrics);
    const bool started = run && run->status != tracking::RunStatus::Created;
    if (started) m_startFailuresInARow = 0;
    else if (!t.stopped) startFailed();
    if (const std::string ending = t.process->schedulerEnding(); !ending.empty() && outcome.state != "COMPLETE" && !t.stopped) {
      // The scheduler ended the job (a time limit, a node failure, an administrator's scancel):
      // its reason is the trial's, whatever the run managed to record before.
      outcome.state = "FAILED";
      outcome.values.clear();
      outcome.message = ending;
      if (run && run->status != tracking::RunStatus::Finished) m_store.setStatus(t.runId, tracking::RunStatus::Failed, ending);
    }
    if (outcome.state.empty()) {
      // The process ended without its run ending (stopped before its worker started, or killed).
      const std::string tail = lastLines(t.logFile, 3);
      outcome.state = "FAILED";
      // A cluster's job describes itself ("SLURM job 12 ended FAILED"); a process does not.
      const std::string what = t.process->where().empty() ? "its process " : "";
      outcome.message = (t.process->exited() ? what + t.process->describeExit()
                                             : std::string("its worker did not record the run's end")) +
                        (tail.empty() ? "" : ": " + tail);
      if (run && t.stopped) m_store.setStatus(t.runId, tracking::RunStatus::Killed, "stopped with the sweep");
      else if (run) m_store.setStatus(t.runId, tracking::RunStatus::Failed, outcome.message);
    } else if (outcome.state == "FAILED" && !t.process->where().empty() && t.process->schedulerEnding().empty()) {
      // A cluster job's run that failed: what the job said last, which often says why.
      const std::string tail = lastLines(t.logFile, 3);
      outcome.message += "; " + t.process->describeExit() + (tail.empty() ? "" : ": " + tail);
    }
    if (t.stopped && outcome.state != "COMPLETE") {
      outcome.message = "stopped with the sweep before it finished";
      m_notRetried.insert(t.number);
    }
    m_store.setTrialState(m_study.id, t.number, outcome.state, outcome.values, outcome.message);
    if (outcome.state == "COMPLETE") {
      std::string values;
      for (size_t i = 0; i < outcome.values.size(); ++i)
        values += (i ? ", " : "") + m_metrics[i] + " " + formatMetric(outcome.values[i]);
      const auto best = m_directions.size() == 1 ? bestTrial(m_store.trials(m_study.id), m_directions.front())
                                                 : std::nullopt;
      const bool isBest = best && best->number == t.number;
      m_progress.event(name + " COMPLETE: " + values + (isBest ? " (best so far)" : ""));
    } else {
      m_progress.event(name + " FAILED: " + firstLine(outcome.message));
    }
  }

  void stopNow(const std::string &why) {
    if (m_stopping) return;
    m_stopping = true;
    m_progress.event(why + ": stopping " + std::to_string(m_running.size()) + " running trial(s) after a checkpoint");
    for (auto &t : m_running) {
      if (t.pruned) continue;
      t.stopped = true;
      t.process->terminate();
    }
  }

  void beat() {
    try {
      m_store.studyHeartbeat(m_study.id, spentMs());
      for (const auto &t : m_running) m_store.trialHeartbeat(m_study.id, t.number);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "torchwright: heartbeat: %s\n", e.what());
    }
  }

  SweepCounts counts() const {
    SweepCounts c = countTrials(m_store.trials(m_study.id), m_directions);
    c.budgetTrials = m_sweep.budget.trials;
    c.budgetMinutes = m_sweep.budget.minutes;
    c.elapsedMs = spentMs();
    return c;
  }

  int finish() {
    const SweepCounts c = counts();
    std::printf("study %s: %s\n", m_study.name.c_str(), SweepProgress::summary(c).c_str());
    const auto trials = m_store.trials(m_study.id);
    if (m_directions.size() == 1) {
      if (const auto best = bestTrial(trials, m_directions.front()))
        std::printf("best: trial %d, %s %s (%s)\n", best->number, m_metrics.front().c_str(),
                    formatMetric(best->values.front()).c_str(), paramsLine(best->params).c_str());
    }
    if (c.complete == 0) std::printf("no trial completed\n");
    std::printf("`torchwright study show %s` lists every trial\n", m_study.name.c_str());
    std::fflush(stdout);
    return c.complete > 0 || m_stopping || m_draining ? 0 : 1;
  }

  tracking::Store &m_store;
  const tracking::StudyRecord m_study;
  const sweep::SweepFile &m_sweep;
  const DriverOptions m_options;
  const std::string m_folder;
  const std::vector<search::Direction> m_directions;
  const std::vector<std::string> m_metrics;
  std::unique_ptr<search::Pruner> m_pruner;
  SweepProgress m_progress;
  CorePlan m_plan;
  std::vector<bool> m_slotBusy;
  std::vector<std::unique_ptr<TrialProcess>> m_workers;  // a slot's serving worker, kept between trials
  std::unique_ptr<sysmon::Nvml> m_nvml;                  // loaded on the first sample
  std::vector<RunningTrial> m_running;
  std::set<int> m_notRetried;
  Clock::time_point m_started;
  int64_t m_spentBeforeMs = 0;  // the study's time from earlier driver sessions
  bool m_stopping = false, m_draining = false, m_timeUp = false, m_giveUp = false;
  int m_invalidInARow = 0;
  int m_startFailuresInARow = 0;
};

}  // namespace

std::string studyFolder(const std::string &workspace, const tracking::StudyRecord &study) {
  return (fs::path(workspace) / "studies" / study.uuid).string();
}

int driveStudy(tracking::Store &store, const tracking::StudyRecord &study, const sweep::SweepFile &sweep,
               const DriverOptions &options) {
  return Driver(store, study, sweep, options).run();
}

}  // namespace tw::cli
