#include "core/sweep/sweep_sections.h"

#include "core/spec/model_spec.h"
#include "core/sweep/yaml_text.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace tw::sweep::detail {

namespace {

std::string folderOf(const std::string &file) {
  const std::string folder = file.empty() ? std::string() : fs::path(file).parent_path().string();
  return folder.empty() ? "." : folder;
}

std::string absolute(const std::string &path, const std::string &folder) {
  fs::path p = path;
  if (p.is_relative()) p = fs::path(folder) / p;
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(p, ec);
  return (ec ? p : canonical).string();
}

// An inline base names its model file and data folder relative to the sweep file; written out
// as absolute paths its text stands alone, so every trial and baseHash() read it the same way.
std::string inlineBaseText(const YAML::Node &node, const std::string &folder) {
  YAML::Node copy = YAML::Clone(node);
  if (copy["model"] && copy["model"].IsScalar()) copy["model"] = absolute(copy["model"].Scalar(), folder);
  YAML::Node data = copy["data"];
  if (data.IsMap() && data["path"] && data["path"].IsScalar() && !data["path"].Scalar().empty())
    data["path"] = absolute(data["path"].Scalar(), folder);
  return yamlText(copy);
}

// "<run config>:3:5: message" from an inline base points into text the person never wrote.
std::string withoutInlineLocation(const std::string &message) {
  const std::string prefix = "<run config>";
  if (message.rfind(prefix, 0) != 0) return message;
  const size_t colon = message.find(": ");
  return colon == std::string::npos ? message : message.substr(colon + 2);
}

}  // namespace

std::optional<config::RunConfig> readBase(const YAML::Node &node, SweepFile &sweep, Problems &problems) {
  const std::string folder = folderOf(sweep.sourceFile);
  if (node.IsScalar() && !node.Scalar().empty()) {
    sweep.baseFile = absolute(node.Scalar(), folder);
    std::ifstream in(sweep.baseFile, std::ios::binary);
    if (!in) {
      problems.add(node, "key 'base': cannot read the run file '" + sweep.baseFile + "': " + std::strerror(errno));
      return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    sweep.baseYaml = text.str();
  } else if (node.IsMap()) {
    sweep.baseFile.clear();
    sweep.baseYaml = inlineBaseText(node, folder);
  } else {
    problems.add(node, "key 'base': expected a run file path or an inline run map");
    return std::nullopt;
  }

  config::RunConfig base;
  try {
    base = config::parseRunConfig(sweep.baseYaml, sweep.baseFile);
  } catch (const config::ConfigError &e) {
    problems.add(node, "key 'base': the base run does not load: " + withoutInlineLocation(e.what()));
    return std::nullopt;
  }
  try {
    spec::parseModelYaml(base.modelYaml, base.modelFile);
  } catch (const spec::SpecError &e) {
    problems.add(node, "key 'base': the base run's model does not parse:\n  " + spec::formatDiagnostics(e.diagnostics()));
    return std::nullopt;
  }
  return base;
}

}  // namespace tw::sweep::detail
