#include "tracking/run_import.h"

#include "tracking/run_export.h"
#include "tracking/tensorboard_events.h"

#include <yaml-cpp/yaml.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tw::tracking {

namespace {

// What one source run brings, before anything is written.
struct SourceRun {
  std::string uuid;
  std::string experiment;
  std::string name;
  RunStatus status = RunStatus::Finished;
  int64_t startMs = 0, endMs = 0;
  std::map<std::string, std::string> params, tags;
  std::vector<MetricRow> metrics;
};

// An id for a source that has none of its own: the same path gives the same id.
std::string derivedUuid(const std::string &kind, const fs::path &source) {
  const std::string text = kind + ":" + fs::weakly_canonical(source).string();
  // FNV-1a over two seeds: 32 hex digits, stable across versions (std::hash is not).
  auto fnv = [&](uint64_t h) {
    for (unsigned char c : text) h = (h ^ c) * 0x100000001B3ull;
    return h;
  };
  char out[33];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(fnv(0xCBF29CE484222325ull)),
                static_cast<unsigned long long>(fnv(0x84222325CBF29CE4ull)));
  return out;
}

bool isHexId(const std::string &s) {
  return s.size() == 32 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

int64_t modifiedMs(const fs::path &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

// --- TensorBoard ---

std::vector<SourceRun> readTensorBoard(const fs::path &root, const std::string &experiment,
                                       std::vector<std::string> &problems) {
  std::map<fs::path, std::vector<fs::path>> folders;  // run folder -> its event files
  if (fs::is_regular_file(root)) {
    folders[root.parent_path()].push_back(root);
  } else {
    for (const auto &entry : fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied))
      if (entry.is_regular_file() && entry.path().filename().string().rfind("events.out.tfevents.", 0) == 0)
        folders[entry.path().parent_path()].push_back(entry.path());
  }
  if (folders.empty()) throw std::runtime_error("'" + root.string() + "' holds no TensorBoard event file (events.out.tfevents.*)");
  std::vector<SourceRun> runs;
  for (auto &[folder, files] : folders) {
    std::sort(files.begin(), files.end());
    SourceRun run;
    run.experiment = experiment;
    const fs::path relative = fs::is_directory(root) ? folder.lexically_relative(root) : fs::path();
    run.name = relative.empty() || relative == "." ? folder.filename().string() : relative.string();
    run.uuid = derivedUuid("tensorboard", folder);
    for (const fs::path &file : files) {
      const EventFileContents contents = readEventFile(file.string());
      for (const std::string &problem : contents.problems) problems.push_back(file.string() + ": " + problem);
      run.params.insert(contents.hparams.begin(), contents.hparams.end());
      for (const EventScalar &s : contents.scalars) {
        const int64_t ms = static_cast<int64_t>(std::llround(s.wallTime * 1000.0));
        run.metrics.push_back({s.tag, s.step, s.value, ms});
        run.startMs = run.startMs == 0 ? ms : std::min(run.startMs, ms);
        run.endMs = std::max(run.endMs, ms);
      }
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

// --- MLflow ---

YAML::Node loadMeta(const fs::path &meta) {
  try {
    return YAML::LoadFile(meta.string());
  } catch (const YAML::Exception &e) {
    throw std::runtime_error("'" + meta.string() + "': " + e.what());
  }
}

std::string field(const YAML::Node &node, const char *key) {
  return node[key] && !node[key].IsNull() ? node[key].as<std::string>() : std::string();
}

RunStatus fromMlflowStatus(const std::string &status) {
  // mlflow.entities.RunStatus: RUNNING 1, SCHEDULED 2, FINISHED 3, FAILED 4, KILLED 5.
  // A run still running there is over as far as this store knows: nothing here follows it, and a
  // RUNNING run without a heartbeat would soon read as failed.
  if (status == "1" || status == "RUNNING") return RunStatus::Killed;
  if (status == "2" || status == "SCHEDULED") return RunStatus::Created;
  if (status == "4" || status == "FAILED") return RunStatus::Failed;
  if (status == "5" || status == "KILLED") return RunStatus::Killed;
  return RunStatus::Finished;
}

// Every file under `folder`, by its path relative to it: a key that holds '/' is nested.
std::map<std::string, fs::path> keyedFiles(const fs::path &folder) {
  std::map<std::string, fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return out;
  for (const auto &entry : fs::recursive_directory_iterator(folder))
    if (entry.is_regular_file()) out[entry.path().lexically_relative(folder).string()] = entry.path();
  return out;
}

std::string wholeFile(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

SourceRun readMlflowRun(const fs::path &folder, const std::string &experiment) {
  const fs::path metaPath = folder / "meta.yaml";
  const YAML::Node meta = loadMeta(metaPath);
  SourceRun run;
  run.experiment = experiment;
  const std::string id = !field(meta, "run_id").empty() ? field(meta, "run_id") : field(meta, "run_uuid");
  if (id.empty() || !meta["status"] || !meta["start_time"])
    throw std::runtime_error("'" + metaPath.string() + "' is not the run meta.yaml of MLflow's file store layout "
                             "(it needs run_id or run_uuid, status and start_time); nothing was imported");
  run.uuid = isHexId(id) ? id : derivedUuid("mlflow", folder);
  run.status = fromMlflowStatus(field(meta, "status"));
  run.startMs = std::atoll(field(meta, "start_time").c_str());
  run.endMs = std::atoll(field(meta, "end_time").c_str());
  for (const auto &[key, path] : keyedFiles(folder / "params")) run.params[key] = wholeFile(path);
  for (const auto &[key, path] : keyedFiles(folder / "tags")) {
    if (key == "mlflow.runName") run.name = wholeFile(path);
    else if (key.rfind("mlflow.", 0) != 0) run.tags[key] = wholeFile(path);
  }
  if (run.name.empty()) run.name = !field(meta, "run_name").empty() ? field(meta, "run_name") : id;
  for (const auto &[key, path] : keyedFiles(folder / "metrics")) {
    std::ifstream in(path);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty()) continue;
      std::istringstream words(line);
      std::string time, value, step, extra;
      words >> time >> value >> step >> extra;
      if (step.empty() || !extra.empty())
        throw std::runtime_error("'" + path.string() + "' line " + std::to_string(number) +
                                 ": expected '<timestamp> <value> <step>' (MLflow's layout since 1.0; older stores "
                                 "wrote no step); nothing was imported");
      char *end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      if (*end != '\0')
        throw std::runtime_error("'" + path.string() + "' line " + std::to_string(number) + ": '" + value +
                                 "' is not a number; nothing was imported");
      run.metrics.push_back({key, std::atoll(step.c_str()), v, std::atoll(time.c_str())});
    }
  }
  return run;
}

std::vector<SourceRun> readMlflow(const fs::path &root) {
  std::vector<SourceRun> runs;
  bool anyExperiment = false;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) throw std::runtime_error("'" + root.string() + "' is not a folder (an MLflow file store is mlruns/)");
  for (const auto &experimentDir : fs::directory_iterator(root)) {
    const fs::path metaPath = experimentDir.path() / "meta.yaml";
    if (experimentDir.path().filename() == ".trash" || !fs::is_regular_file(metaPath, ec)) continue;
    const YAML::Node meta = loadMeta(metaPath);
    if (field(meta, "experiment_id").empty() || field(meta, "name").empty())
      throw std::runtime_error("'" + metaPath.string() + "' is not the experiment meta.yaml of MLflow's file store "
                               "layout (it needs experiment_id and name); nothing was imported");
    anyExperiment = true;
    if (field(meta, "lifecycle_stage") == "deleted") continue;
    for (const auto &runDir : fs::directory_iterator(experimentDir.path())) {
      if (!fs::is_regular_file(runDir.path() / "meta.yaml", ec)) continue;
      SourceRun run = readMlflowRun(runDir.path(), field(meta, "name"));
      if (field(loadMeta(runDir.path() / "meta.yaml"), "lifecycle_stage") != "deleted") runs.push_back(std::move(run));
    }
  }
  if (!anyExperiment)
    throw std::runtime_error("'" + root.string() + "' is not an MLflow file store: no experiment folder with a meta.yaml");
  return runs;
}

// --- CSV ---

std::vector<std::string> csvCells(const std::string &line) {
  std::vector<std::string> cells;
  std::string cell;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') cell += '"', ++i;
      else if (c == '"') quoted = false;
      else cell += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.push_back(cell);
      cell.clear();
    } else if (c != '\r') {
      cell += c;
    }
  }
  cells.push_back(cell);
  return cells;
}

SourceRun readCsv(const fs::path &file, const std::string &experiment) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read '" + file.string() + "'");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("'" + file.string() + "' is empty: it needs a header row");
  const std::vector<std::string> header = csvCells(line);
  int stepColumn = -1;
  for (const char *name : {"step", "epoch"}) {
    auto it = std::find(header.begin(), header.end(), name);
    if (it != header.end()) {
      stepColumn = static_cast<int>(it - header.begin());
      break;
    }
  }
  SourceRun run;
  run.experiment = experiment;
  run.name = file.stem().string();
  run.uuid = derivedUuid("csv", file);
  run.startMs = run.endMs = modifiedMs(file);
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> cells = csvCells(line);
    auto number_ = [&](size_t column, double *value) {
      const std::string &cell = cells[column];
      char *end = nullptr;
      *value = std::strtod(cell.c_str(), &end);
      if (end == cell.c_str() || *end != '\0')
        throw std::runtime_error("'" + file.string() + "' line " + std::to_string(number) + ", column '" +
                                 header[column] + "': '" + cell + "' is not a number; nothing was imported");
    };
    double stepValue = number - 1;
    if (stepColumn >= 0 && static_cast<size_t>(stepColumn) < cells.size() && !cells[stepColumn].empty())
      number_(stepColumn, &stepValue);
    for (size_t column = 0; column < header.size() && column < cells.size(); ++column) {
      if (static_cast<int>(column) == stepColumn || cells[column].empty()) continue;
      double value = 0.0;
      number_(column, &value);
      run.metrics.push_back({header[column], static_cast<int64_t>(stepValue), value, run.startMs});
    }
  }
  return run;
}

}  // namespace

ImportReport importRuns(Store &store, ImportFormat format, const std::string &path, const std::string &experiment,
                        const std::function<void(size_t done, size_t total)> &progress) {
  const std::string into = experiment.empty() ? std::string("imported") : experiment;
  ImportReport report;
  // Everything is read and checked first: a source that is not what it says records nothing.
  std::vector<SourceRun> runs;
  if (format == ImportFormat::TensorBoard) runs = readTensorBoard(path, into, report.problems);
  else if (format == ImportFormat::MLflow) runs = readMlflow(path);
  else runs.push_back(readCsv(path, into));
  const char *kind = format == ImportFormat::TensorBoard ? "tensorboard" : format == ImportFormat::MLflow ? "mlflow" : "csv";
  for (SourceRun &source : runs) {
    source.tags["imported_from"] = std::string(kind) + ":" + fs::weakly_canonical(path).string();
    ImportedRun imported;
    imported.uuid = source.uuid;
    imported.points = static_cast<int64_t>(source.metrics.size());
    std::optional<RunRecord> run = store.findRun(source.uuid);
    if (!run || run->uuid != source.uuid) {
      NewRun fresh;
      fresh.experiment = source.experiment;
      fresh.name = source.name;
      fresh.uuid = source.uuid;
      run = store.createRun(fresh);
      store.setImportedOutcome(run->id, source.status, source.startMs, source.endMs);
      imported.created = true;
    }
    imported.name = run->name;
    if (!source.params.empty()) store.setParams(run->id, source.params);
    for (const auto &[key, value] : source.tags) store.setTag(run->id, key, value);
    // Non-finite values are kept out: the store reads NaN back as a missing value.
    source.metrics.erase(std::remove_if(source.metrics.begin(), source.metrics.end(),
                                        [](const MetricRow &m) { return !std::isfinite(m.value); }),
                         source.metrics.end());
    store.writeMetrics(run->id, std::move(source.metrics));
    report.runs.push_back(imported);
    if (progress) progress(report.runs.size(), runs.size());
  }
  return report;
}

}  // namespace tw::tracking
