#include "tracking/run_export.h"

#include "tracking/tensorboard_events.h"
#include "tracking/tensorboard_hparams.h"

#include "core/config/metric_keys.h"  // the keys only: constants, nothing to link
#include "core/config/number_text.h"  // shortestText: inline, nothing to link

#include <yaml-cpp/yaml.h>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>

namespace fs = std::filesystem;

namespace tw::tracking {

namespace {

void writeText(const fs::path &path, const std::string &text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write '" + path.string() + "'");
}

// A folder the export may take: refused when it holds something, unless the user said --force.
void claim(const fs::path &folder, bool force) {
  std::error_code ec;
  if (fs::exists(folder, ec)) {
    if (!force) throw std::runtime_error("'" + folder.string() + "' exists (export it again with --force to replace it)");
    fs::remove_all(folder, ec);
    if (ec) throw std::runtime_error("cannot replace '" + folder.string() + "': " + ec.message());
  }
  fs::create_directories(folder);
}

// tensorboard.hparams.Status of a run: none while it may still change (the plugin keeps the first
// end it reads).
std::optional<HParamsStatus> hparamsStatus(RunStatus status) {
  switch (status) {
    case RunStatus::Finished: return HParamsStatus::Success;
    case RunStatus::Failed:
    case RunStatus::Killed: return HParamsStatus::Failure;
    case RunStatus::Created:
    case RunStatus::Running: return std::nullopt;
  }
  return std::nullopt;
}

std::string exportTensorBoard(const Store &store, const RunRecord &run, const fs::path &root, bool force,
                              const std::vector<GraphNode> &graph) {
  const fs::path folder = root / tensorBoardRunFolder(run);
  claim(folder, force);
  const double startSecs = static_cast<double>(run.startMs > 0 ? run.startMs : run.createdMs) / 1000.0;
  TensorBoardWriter events(folder.string(), startSecs);
  if (!graph.empty()) events.graph(graphDef(graph), startSecs);
  const std::map<std::string, std::string> params = store.params(run.id);
  std::vector<std::string> metricTags;  // what the HParams table shows beside the params: not the per-layer norms
  // Per step, the layers' norms together: how the weight (and gradient) norms spread over the
  // layers, for TensorBoard's Histograms tab ("weight_norm", "grad_norm").
  std::map<std::string, std::map<int64_t, std::pair<std::vector<double>, int64_t>>> spreads;  // family -> step -> (values, time)
  for (const std::string &key : store.metricKeys(run.id)) {
    const bool norm = key.rfind(config::metrics::kWeightNormPrefix, 0) == 0 || key.rfind(config::metrics::kGradNormPrefix, 0) == 0;
    const std::string family = key.substr(0, key.find('/'));
    if (!norm) metricTags.push_back(key);
    for (const MetricPoint &p : store.metricPoints(run.id, key)) {
      events.scalar(key, p.step, p.value, static_cast<double>(p.timeMs) / 1000.0);
      if (!norm) continue;
      auto &slot = spreads[family][p.step];
      slot.first.push_back(p.value);
      slot.second = std::max(slot.second, p.timeMs);
    }
  }
  for (const auto &[family, steps] : spreads)
    for (const auto &[step, values] : steps) events.histogram(family, step, values.first, static_cast<double>(values.second) / 1000.0);
  if (!params.empty()) {
    events.summary(hparamsExperiment(params, metricTags, startSecs), 0, startSecs);
    events.summary(hparamsSessionStart(params, startSecs), 0, startSecs);
    const double endSecs = static_cast<double>(run.endMs) / 1000.0;
    if (const auto status = hparamsStatus(run.status)) events.summary(hparamsSessionEnd(*status, endSecs), 0, endSecs);
  }
  events.flush();
  return folder.string();
}

// mlflow.entities.RunStatus
int mlflowStatus(RunStatus status) {
  switch (status) {
    case RunStatus::Created: return 2;   // SCHEDULED
    case RunStatus::Running: return 1;   // RUNNING
    case RunStatus::Finished: return 3;  // FINISHED
    case RunStatus::Failed: return 4;    // FAILED
    case RunStatus::Killed: return 5;    // KILLED
  }
  return 4;
}

std::string emit(const YAML::Emitter &out) { return std::string(out.c_str()) + "\n"; }

// The experiment's id in the store: the one whose meta.yaml names it, else the next number.
std::string mlflowExperiment(const fs::path &root, const std::string &name, int64_t createdMs) {
  int64_t next = 1;
  std::error_code ec;
  if (fs::is_directory(root, ec)) {
    for (const auto &entry : fs::directory_iterator(root)) {
      const fs::path meta = entry.path() / "meta.yaml";
      if (!fs::is_regular_file(meta, ec)) continue;
      YAML::Node node;
      try {
        node = YAML::LoadFile(meta.string());
      } catch (const YAML::Exception &e) {
        throw std::runtime_error("'" + meta.string() + "' is not an MLflow experiment's meta.yaml: " + e.what());
      }
      const std::string id = entry.path().filename().string();
      if (node["name"] && node["name"].as<std::string>() == name) return id;
      if (!id.empty() && id.find_first_not_of("0123456789") == std::string::npos && id.size() < 18)
        next = std::max<int64_t>(next, std::stoll(id) + 1);
    }
  }
  auto writeExperiment = [&](const std::string &id, const std::string &experimentName) {
    YAML::Emitter out;
    out << YAML::BeginMap << YAML::Key << "artifact_location" << YAML::Value
        << "file://" + fs::absolute(root / id).lexically_normal().string() << YAML::Key << "creation_time"
        << YAML::Value << createdMs << YAML::Key << "experiment_id" << YAML::Value << YAML::SingleQuoted << id
        << YAML::Key << "last_update_time" << YAML::Value << createdMs << YAML::Key << "lifecycle_stage"
        << YAML::Value << "active" << YAML::Key << "name" << YAML::Value << experimentName << YAML::EndMap;
    writeText(root / id / "meta.yaml", emit(out));
  };
  // A new store gets MLflow's Default experiment, as mlflow's FileStore makes one.
  if (!fs::exists(root / "0" / "meta.yaml", ec)) writeExperiment("0", "Default");
  if (name == "Default") return "0";
  const std::string id = std::to_string(next);
  writeExperiment(id, name);
  return id;
}

std::string exportMlflow(const Store &store, const RunRecord &run, const fs::path &root, bool force) {
  const std::string experiment = mlflowExperiment(root, run.experiment, run.createdMs);
  const fs::path folder = root / experiment / run.uuid;
  claim(folder, force);
  const passwd *user = ::getpwuid(::getuid());
  YAML::Emitter meta;
  meta << YAML::BeginMap;
  meta << YAML::Key << "artifact_uri" << YAML::Value << "file://" + fs::absolute(folder / "artifacts").lexically_normal().string();
  meta << YAML::Key << "end_time" << YAML::Value;
  if (run.endMs > 0) meta << run.endMs;
  else meta << YAML::Null;
  meta << YAML::Key << "entry_point_name" << YAML::Value << YAML::SingleQuoted << "";
  meta << YAML::Key << "experiment_id" << YAML::Value << YAML::SingleQuoted << experiment;
  meta << YAML::Key << "lifecycle_stage" << YAML::Value << "active";
  meta << YAML::Key << "run_id" << YAML::Value << run.uuid;
  meta << YAML::Key << "run_name" << YAML::Value << run.name;
  meta << YAML::Key << "run_uuid" << YAML::Value << run.uuid;
  meta << YAML::Key << "source_name" << YAML::Value << YAML::SingleQuoted << "";
  meta << YAML::Key << "source_type" << YAML::Value << 4;  // LOCAL
  meta << YAML::Key << "source_version" << YAML::Value << YAML::SingleQuoted << "";
  meta << YAML::Key << "start_time" << YAML::Value << (run.startMs > 0 ? run.startMs : run.createdMs);
  meta << YAML::Key << "status" << YAML::Value << mlflowStatus(run.status);
  meta << YAML::Key << "tags" << YAML::Value << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
  meta << YAML::Key << "user_id" << YAML::Value << (user ? user->pw_name : "unknown");
  meta << YAML::EndMap;
  writeText(folder / "meta.yaml", emit(meta));
  fs::create_directories(folder / "artifacts");
  if (!run.configYaml.empty()) writeText(folder / "artifacts" / "config.yaml", run.configYaml);
  fs::create_directories(folder / "metrics");
  fs::create_directories(folder / "params");
  fs::create_directories(folder / "tags");
  for (const std::string &key : store.metricKeys(run.id)) {
    std::string lines;
    for (const MetricPoint &p : store.metricPoints(run.id, key))
      lines += std::to_string(p.timeMs) + " " + config::shortestText(p.value) + " " + std::to_string(p.step) + "\n";
    writeText(folder / "metrics" / safeKeyPath(key), lines);
  }
  for (const auto &[key, value] : store.params(run.id)) writeText(folder / "params" / safeKeyPath(key), value);
  for (const auto &[key, value] : store.tags(run.id)) writeText(folder / "tags" / safeKeyPath(key), value);
  writeText(folder / "tags" / "mlflow.runName", run.name);
  return folder.string();
}

}  // namespace

std::string tensorBoardRunFolder(const RunRecord &run) { return safeFileName(run.name) + "_" + run.uuid.substr(0, 8); }

std::string safeFileName(const std::string &name) {
  std::string out;
  for (char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '-' || c == '_';
    out.push_back(keep ? c : '_');
  }
  if (out.empty() || out == "." || out == "..") out = "_" + out;
  return out;
}

std::string safeKeyPath(const std::string &key) {
  std::string out;
  size_t start = 0;
  while (start <= key.size()) {
    const size_t slash = std::min(key.find('/', start), key.size());
    out += (out.empty() ? "" : "/") + safeFileName(key.substr(start, slash - start));
    start = slash + 1;
  }
  return out;
}

std::string exportRun(const Store &store, const RunRecord &run, ExportFormat format, const std::string &folder,
                      bool force, const std::vector<GraphNode> &graph) {
  return format == ExportFormat::TensorBoard ? exportTensorBoard(store, run, folder, force, graph)
                                             : exportMlflow(store, run, folder, force);
}

}  // namespace tw::tracking
