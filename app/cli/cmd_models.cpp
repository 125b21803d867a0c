// `torchwright models list|show|register|promote|archive`: the model registry in the tracking
// database. A version is an exported file recorded by `export` (found by its SHA-256, so a moved
// file still registers) with the lineage of its run copied at registration.

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/cli/table_printer.h"
#include "app/cli/usage.h"
#include "app/common/model_file_state.h"

#include "core/config/sha256.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <cstdio>
#include <filesystem>
#include <map>

namespace tw::cli {

namespace fs = std::filesystem;

namespace {

std::string metricsJson(const tracking::Store &store, int64_t runId) {
  std::vector<std::pair<std::string, std::string>> members;
  for (const auto &m : store.latestMetrics(runId)) {
    if (m.key.rfind("test/", 0) == 0 || m.key.rfind("val/", 0) == 0) members.push_back({m.key, json::number(m.value)});
  }
  return json::object(members);
}


std::string versionJson(const tracking::ModelVersionRecord &v) {
  return json::object({{"model", json::string(v.model)},
                       {"version", json::number(static_cast<long long>(v.version))},
                       {"stage", json::string(v.stage)},
                       {"format", json::string(v.format)},
                       {"path", json::string(v.path)},
                       {"sha256", json::string(v.sha256)},
                       {"file", json::string(app::modelFileState(v))},
                       {"run", json::object({{"id", json::string(v.runUuid)},
                                             {"name", json::string(v.runName)},
                                             {"experiment", json::string(v.experiment)}})},
                       {"config_hash", json::string(v.configHash)},
                       {"data_fingerprint", json::string(v.dataFingerprint)},
                       {"metrics", v.metrics.empty() ? "{}" : v.metrics},
                       {"export", v.exportDetails.empty() ? "{}" : v.exportDetails},
                       {"created_ms", json::number(static_cast<long long>(v.createdMs))}});
}

int parseVersion(const std::string &text) {
  char *end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1) throw UsageError("VERSION must be a version number (1, 2, ...), got '" + text + "'");
  return static_cast<int>(v);
}

int list(tracking::Store &store, bool asJson) {
  const auto models = store.listModels();
  if (asJson) {
    std::vector<std::string> items;
    for (const auto &m : models) {
      items.push_back(json::object({{"name", json::string(m.name)},
                                    {"description", json::string(m.description)},
                                    {"versions", json::number(static_cast<long long>(m.versions))},
                                    {"latest", json::number(static_cast<long long>(m.latestVersion))},
                                    {"production", m.productionVersion ? json::number(static_cast<long long>(m.productionVersion)) : "null"},
                                    {"updated_ms", json::number(static_cast<long long>(m.updatedMs))}}));
    }
    std::printf("%s\n", json::array(items).c_str());
    return 0;
  }
  if (models.empty()) {
    std::printf("no registered models (torchwright models register NAME FILE registers an exported file)\n");
    return 0;
  }
  TablePrinter table({"NAME", "VERSIONS", "LATEST", "PRODUCTION", "UPDATED", "DESCRIPTION"}, {false, true, true, true});
  for (const auto &m : models)
    table.addRow({m.name, std::to_string(m.versions), std::to_string(m.latestVersion),
                  m.productionVersion ? std::to_string(m.productionVersion) : "-", formatTimestamp(m.updatedMs),
                  m.description});
  std::printf("%s", table.str().c_str());
  return 0;
}

int show(tracking::Store &store, const std::string &name, const std::string &versionText, bool asJson) {
  const auto versions = store.modelVersions(name);
  if (versions.empty()) {
    std::fprintf(stderr, "torchwright: no registered model '%s' (`torchwright models list` shows them)\n", name.c_str());
    return 1;
  }
  if (versionText.empty()) {
    if (asJson) {
      std::vector<std::string> items;
      for (const auto &v : versions) items.push_back(versionJson(v));
      std::printf("%s\n", json::object({{"name", json::string(name)}, {"versions", json::array(items)}}).c_str());
      return 0;
    }
    TablePrinter table({"VERSION", "STAGE", "FORMAT", "RUN", "SHA-256", "REGISTERED", "FILE"}, {true});
    for (const auto &v : versions)
      table.addRow({std::to_string(v.version), v.stage, v.format, v.runName, v.sha256.substr(0, 12),
                    formatTimestamp(v.createdMs), v.path});
    std::printf("%s", table.str().c_str());
    return 0;
  }
  const auto v = store.modelVersion(name, parseVersion(versionText));
  if (!v) {
    std::fprintf(stderr, "torchwright: model '%s' has no version %s (it has 1 to %d)\n", name.c_str(),
                 versionText.c_str(), versions.back().version);
    return 1;
  }
  if (asJson) {
    std::printf("%s\n", versionJson(*v).c_str());
    return 0;
  }
  std::printf("model       %s, version %d (%s)\n", v->model.c_str(), v->version, v->stage.c_str());
  std::printf("file        %s (%s, %s)\n", v->path.c_str(), v->format.c_str(), app::modelFileState(*v).c_str());
  std::printf("sha256      %s\n", v->sha256.c_str());
  std::printf("registered  %s\n", formatTimestamp(v->createdMs).c_str());
  std::printf("export      %s\n", v->exportDetails.empty() ? "-" : v->exportDetails.c_str());
  std::printf("metrics     %s\n", v->metrics.empty() ? "-" : v->metrics.c_str());
  std::printf("run         %s (%s) in experiment '%s'\n", v->runUuid.c_str(), v->runName.c_str(), v->experiment.c_str());
  std::printf("config hash %s\n", v->configHash.c_str());
  std::printf("data        %s\n", v->dataFingerprint.c_str());
  const auto run = store.findRun(v->runUuid);
  if (!run) {
    std::printf("\nthe run has been deleted since; the lineage above is what was registered\n");
    return 0;
  }
  std::printf("\nthe run's configuration (%s):\n%s", run->configHash == v->configHash ? "as registered" : "CHANGED",
              run->configYaml.c_str());
  return 0;
}

int registerVersion(tracking::Store &store, const std::string &name, const std::string &file,
                    const std::string &description) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    std::fprintf(stderr, "torchwright: %s: no such file\n", file.c_str());
    return 1;
  }
  const std::string digest = config::fileSha256Hex(file);
  std::optional<std::pair<int64_t, tracking::Artifact>> exported;
  for (const auto &entry : store.artifactsWithDigest(digest))
    if (entry.second.kind.rfind("export:", 0) == 0) {
      exported = entry;
      break;
    }
  if (!exported) {
    std::fprintf(stderr,
                 "torchwright: %s is not an export recorded in this workspace (SHA-256 %s); write it with "
                 "`torchwright export RUN --out FILE`, which records it with its run\n",
                 file.c_str(), digest.substr(0, 12).c_str());
    return 1;
  }
  const auto run = store.run(exported->first);
  tracking::NewModelVersion v;
  v.path = fs::absolute(file).lexically_normal().string();
  v.sha256 = digest;
  v.format = exported->second.kind.substr(std::string("export:").size());
  v.exportDetails = exported->second.details;
  if (run) {
    v.runUuid = run->uuid;
    v.runName = run->name;
    v.experiment = run->experiment;
    v.configHash = run->configHash;
    v.dataFingerprint = run->dataFingerprint;
    v.metrics = metricsJson(store, run->id);
  }
  const auto added = store.registerModelVersion(name, v, description);
  std::printf("registered %s version %d: %s (%s) from run %s (%s)\n", name.c_str(), added.version, v.path.c_str(),
              v.format.c_str(), v.runUuid.substr(0, 8).c_str(), v.runName.c_str());
  return 0;
}

int moveStage(tracking::Store &store, const std::string &name, const std::string &versionText, const std::string &stage,
              bool archiveOthers) {
  const int version = parseVersion(versionText);
  if (!store.modelVersion(name, version)) {
    std::fprintf(stderr, "torchwright: model '%s' has no version %d\n", name.c_str(), version);
    return 1;
  }
  std::map<int, std::string> before;
  for (const auto &v : store.modelVersions(name)) before[v.version] = v.stage;
  for (const auto &v : store.setModelStage(name, version, stage, archiveOthers))
    if (v.version == version || before[v.version] != v.stage)
      std::printf("%s version %d: %s\n", name.c_str(), v.version, v.stage.c_str());
  return 0;
}

}  // namespace

int runModels(const CliArgs &args) {
  const std::string sub = args.positionals.empty() ? "list" : args.positionals.front();
  const std::vector<std::string> p(args.positionals.begin() + (args.positionals.empty() ? 0 : 1), args.positionals.end());
  auto store = tracking::Store::open(tracking::workspaceStore(args.workspace()));
  if (sub == "list") {
    if (!p.empty()) return usageError("models list");
    return list(*store, args.hasFlag("--json"));
  }
  if (sub == "show") {
    if (p.empty() || p.size() > 2) return usageError("models show", "give NAME and optionally VERSION");
    return show(*store, p[0], p.size() == 2 ? p[1] : std::string(), args.hasFlag("--json"));
  }
  if (sub == "register") {
    if (p.size() != 2) return usageError("models register", "give NAME and FILE");
    return registerVersion(*store, p[0], p[1], args.option("--description"));
  }
  if (sub == "promote") {
    if (p.size() != 2) return usageError("models promote", "give NAME and VERSION");
    const std::string stage = args.option("--stage", "production");
    if (stage != "staging" && stage != "production")
      throw UsageError("--stage must be staging or production, got '" + stage + "'");
    return moveStage(*store, p[0], p[1], stage, args.hasFlag("--archive-existing"));
  }
  if (sub == "archive") {
    if (p.size() != 2) return usageError("models archive", "give NAME and VERSION");
    return moveStage(*store, p[0], p[1], "archived", false);
  }
  return usageError("models list");
}

}  // namespace tw::cli
