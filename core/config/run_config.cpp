#include "core/config/run_config.h"

#include "core/config/config_fields.h"
#include "core/config/init_from.h"
#include "core/config/sha256.h"
#include "core/yaml/yaml_problem.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace tw::config {

namespace {

const char *const kSections[] = {"data", "train", "distributed", "tracking"};

std::string where(const std::string &file, const YAML::Mark &mark) {
  std::string out = file.empty() ? "<run config>" : file;
  if (mark.line >= 0) out += ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
  return out;
}

std::string at(const std::string &file, const yaml::Problem &p) {
  std::string out = file.empty() ? "<run config>" : file;
  if (p.line > 0) out += ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
  return out;
}

std::string knownKeys(const std::string &section) {
  std::string out;
  for (const auto &field : configFields()) {
    if (field.key.rfind(section + ".", 0) != 0) continue;
    if (!out.empty()) out += ", ";
    out += field.key.substr(section.size() + 1);
  }
  return out;
}

std::string readFile(const std::string &path, const std::string &what) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw ConfigError("cannot read " + what + " '" + path + "': it is a folder");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError("cannot read " + what + " '" + path + "': " + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A list field takes a YAML sequence, or a scalar with comma-separated items ("30,60" from an
// override); an empty scalar is the empty list.
template <typename Fail>
void assignList(RunConfig &config, const ConfigField &field, const YAML::Node &value, const Fail &fail) {
  std::vector<std::string> items;
  if (value.IsSequence()) {
    for (const auto &item : value) {
      if (item.IsMap() && field.mapItem) {
        std::vector<std::pair<std::string, std::vector<std::string>>> entries;
        for (const auto &entry : item) {
          std::vector<std::string> values;
          if (entry.second.IsScalar()) values.push_back(entry.second.Scalar());
          else if (entry.second.IsSequence())
            for (const auto &v : entry.second) values.push_back(v.IsScalar() ? v.Scalar() : std::string());
          entries.emplace_back(entry.first.Scalar(), values);
        }
        try {
          items.push_back(field.mapItem(entries));
        } catch (const std::invalid_argument &e) {
          fail(std::string("items written as ") + e.what());
        }
        continue;
      }
      if (!item.IsScalar()) fail("a list of single values");
      items.push_back(item.Scalar());
    }
  } else if (value.IsScalar()) {
    std::string text = value.Scalar(), item;
    std::istringstream in(text);
    while (std::getline(in, item, ',')) {
      item.erase(0, item.find_first_not_of(" \t"));
      item.erase(item.find_last_not_of(" \t") + 1);
      if (!item.empty()) items.push_back(item);
    }
  } else if (!value.IsNull()) {
    fail("a list");
  }
  if (field.kind == FieldKind::StringList) {
    field.stringListRef(config) = items;
    return;
  }
  std::vector<int64_t> numbers;
  for (const auto &item : items) {
    char *end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0') fail("a list of integers ('" + item + "' is not one)");
    if (field.min && v < *field.min) fail("integers of at least " + std::to_string(int64_t(*field.min)));
    numbers.push_back(v);
  }
  field.intListRef(config) = numbers;
}

// Converts one YAML scalar into the field; `context` prefixes every message ("run.yaml:7:3").
void assign(RunConfig &config, const ConfigField &field, const YAML::Node &value, const std::string &context) {
  auto fail = [&](const std::string &expected) {
    std::string got = value.IsScalar() ? "'" + value.Scalar() + "'" : "a " + std::string(value.IsMap() ? "map" : "list");
    throw ConfigError(context + ": key '" + field.key + "': expected " + expected + ", got " + got);
  };
  if (field.kind == FieldKind::IntList || field.kind == FieldKind::StringList) {
    assignList(config, field, value, fail);
    return;
  }
  if (!value.IsScalar()) fail("a single value");
  auto checkRange = [&](double v) {
    if ((field.min && v < *field.min) || (field.max && v > *field.max)) {
      const std::string range = rangeText(field);
      fail(range[0] == '[' ? "a value in " + range : "a value " + range);
    }
  };
  try {
    switch (field.kind) {
      case FieldKind::IntList:
      case FieldKind::StringList: return;  // assigned above
      case FieldKind::Threads:
        if (value.Scalar() == "auto") {
          field.intRef(config) = 0;
          return;
        }
        [[fallthrough]];
      case FieldKind::Int: {
        int64_t v = value.as<int64_t>();
        checkRange(double(v));
        field.intRef(config) = v;
        return;
      }
      case FieldKind::Float: {
        double v = value.as<double>();
        checkRange(v);
        field.floatRef(config) = v;
        return;
      }
      case FieldKind::Bool:
        field.boolRef(config) = value.as<bool>();
        return;
      case FieldKind::String: {
        std::string v = value.Scalar();
        if (!field.choices.empty()) {
          bool known = false;
          std::string list;
          for (const auto &choice : field.choices) {
            known = known || choice == v;
            list += (list.empty() ? "" : ", ") + choice;
          }
          if (!known) fail("one of " + list);
        }
        field.stringRef(config) = v;
        return;
      }
    }
  } catch (const YAML::BadConversion &) {
    switch (field.kind) {
      case FieldKind::IntList:
      case FieldKind::StringList: break;  // handled by assignList
      case FieldKind::Threads: fail("an integer or 'auto'"); break;
      case FieldKind::Int: fail("an integer"); break;
      case FieldKind::Float: fail("a number"); break;
      case FieldKind::Bool: fail("true or false"); break;
      case FieldKind::String: fail("a string"); break;
    }
  }
}

void loadModel(RunConfig &config, const YAML::Node &model, const std::string &baseDir, const std::string &context) {
  if (model.IsScalar()) {
    // An empty path would name the run file's own folder (tests/fuzz/run_yaml: `model: !tag`).
    if (model.Scalar().empty()) throw ConfigError(context + ": key 'model': the model file path is empty");
    fs::path path = model.Scalar();
    if (path.is_relative()) path = fs::path(baseDir) / path;
    std::error_code ec;
    fs::path absolute = fs::weakly_canonical(path, ec);
    config.modelFile = (ec ? path : absolute).string();
    // The run file's line is named too: the model file's path is only what it said.
    try {
      config.modelYaml = readFile(config.modelFile, "model file");
    } catch (const ConfigError &e) {
      throw ConfigError(context + ": key 'model': " + e.what());
    }
  } else if (model.IsMap()) {
    config.modelFile.clear();
    YAML::Emitter out;
    out << model;
    config.modelYaml = out.c_str();
    // yaml-cpp writes some maps it reads as YAML it cannot read back (a key over 1,024
    // characters; found by tests/fuzz/run_yaml), and the text is what the run records.
    try {
      YAML::Load(config.modelYaml);
    } catch (const YAML::Exception &e) {
      throw ConfigError(context + ": key 'model': the inline model cannot be recorded as YAML (" + e.msg +
                        "); keep keys under 1,024 characters or put the model in a file of its own");
    }
  } else {
    throw ConfigError(context + ": key 'model': expected a model file path or an inline model map");
  }
}

}  // namespace

RunConfig parseRunConfig(const std::string &yamlText, const std::string &fileName,
                         const std::vector<std::string> &overrides, bool requireModel) {
  if (const yaml::Problem p = yaml::notUtf8(yamlText); !p.message.empty())
    throw ConfigError(at(fileName, p) + ": " + p.message);
  YAML::Node root;
  try {
    root = YAML::Load(yamlText);
  } catch (const YAML::ParserException &e) {
    const yaml::Problem p = yaml::describe(e, yamlText);
    throw ConfigError(at(fileName, p) + ": invalid YAML: " + p.message);
  }
  if (const yaml::Problem p = yaml::duplicateKey(root); !p.message.empty())
    throw ConfigError(at(fileName, p) + ": " + p.message);
  if (const yaml::Problem p = yaml::scalarNotUtf8(root); !p.message.empty())
    throw ConfigError(at(fileName, p) + ": " + p.message);
  if (!root.IsMap()) throw ConfigError(where(fileName, root.Mark()) + ": a run file is a map with model, data, train, distributed, tracking");

  RunConfig config;
  config.sourceFile = fileName;
  std::string baseDir = fileName.empty() ? "." : fs::path(fileName).parent_path().string();
  if (baseDir.empty()) baseDir = ".";
  bool haveModel = false;
  for (const auto &entry : root) {
    const std::string key = entry.first.Scalar();
    const std::string at = where(fileName, entry.first.Mark());
    if (key == "model") {
      loadModel(config, entry.second, baseDir, at);
      haveModel = true;
      continue;
    }
    bool isSection = false;
    for (const char *section : kSections) isSection = isSection || key == section;
    if (!isSection)
      throw ConfigError(at + ": unknown key '" + key + "' (expected model, data, train, distributed, tracking)");
    if (entry.second.IsNull()) continue;
    if (!entry.second.IsMap()) throw ConfigError(at + ": key '" + key + "': expected a map");
    for (const auto &item : entry.second) {
      const std::string dotted = key + "." + item.first.Scalar();
      const ConfigField *field = findConfigField(dotted);
      if (!field)
        throw ConfigError(where(fileName, item.first.Mark()) + ": unknown key '" + dotted + "' (known in " +
                          key + ": " + knownKeys(key) + ")");
      assign(config, *field, item.second, where(fileName, item.second.Mark()));
    }
  }

  // Data paths (and tracking.tensorboard) in a run file are relative to it, like the model path; on the command line they
  // are relative to the current folder. Either way the recorded configuration holds an absolute
  // path, so a run can be reproduced from anywhere.
  auto absolutePath = [](const std::string &path, const std::string &base) {
    if (path.empty() || fs::path(path).is_absolute()) return path;
    std::error_code ec;
    const fs::path joined = base.empty() ? fs::absolute(path, ec) : fs::path(base) / path;
    const fs::path normal = fs::weakly_canonical(joined, ec);
    return (ec ? joined : normal).string();
  };
  config.data.path = absolutePath(config.data.path, fileName.empty() ? std::string() : baseDir);
  config.tracking.tensorboard = absolutePath(config.tracking.tensorboard, fileName.empty() ? std::string() : baseDir);
  // A weights file likewise; a run reference is the tracking store's to resolve.
  const auto weightsPath = [&](const std::string &base) {
    if (!isRunReference(config.train.initFrom)) config.train.initFrom = absolutePath(config.train.initFrom, base);
  };
  weightsPath(fileName.empty() ? std::string() : baseDir);

  for (const auto &override_ : overrides) {
    const auto eq = override_.find('=');
    const std::string context = "override '" + override_ + "'";
    if (eq == std::string::npos || eq == 0) throw ConfigError(context + ": expected key=value");
    const std::string key = override_.substr(0, eq);
    const std::string text = override_.substr(eq + 1);
    if (key == "model") {
      loadModel(config, YAML::Node(text), ".", context);
      haveModel = true;
      continue;
    }
    const ConfigField *field = findConfigField(key);
    if (!field) {
      const std::string section = key.substr(0, key.find('.'));
      std::string known = knownKeys(section);
      throw ConfigError(context + ": unknown key '" + key + "'" +
                        (known.empty() ? " (sections: model, data, train, distributed, tracking)" : " (known in " + section + ": " + known + ")"));
    }
    YAML::Node value;
    try {
      value = YAML::Load(text);
    } catch (const YAML::ParserException &e) {
      throw ConfigError(context + ": invalid value: " + yaml::describe(e, text).message);
    }
    if (value.IsNull()) value = YAML::Node(std::string());
    assign(config, *field, value, context);
    if (key == "data.path") config.data.path = absolutePath(config.data.path, {});
    if (key == "tracking.tensorboard") config.tracking.tensorboard = absolutePath(config.tracking.tensorboard, {});
    if (key == "train.init_from") weightsPath({});
  }
  if (!haveModel && requireModel) throw ConfigError((fileName.empty() ? "<run config>" : fileName) + ": no 'model' given (a model file path or an inline model)");
  return config;
}

RunConfig loadRunConfig(const std::string &path, const std::vector<std::string> &overrides, bool requireModel) {
  return parseRunConfig(readFile(path, "run file"), path, overrides, requireModel);
}

namespace {

// The shortest text that reads back as the same double: 0.1 stays "0.1", not
// "0.10000000000000001", in the resolved YAML, the hash and the params a person compares.
std::string shortestNumber(double value) {
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

YAML::Node sectionsNode(const RunConfig &source, bool withTracking) {
  RunConfig config = source;  // the accessors hand out references into a mutable config
  YAML::Node root;
  for (const auto &field : configFields()) {
    const auto dot = field.key.find('.');
    const std::string section = field.key.substr(0, dot), name = field.key.substr(dot + 1);
    if (section == "tracking" && !withTracking) continue;
    YAML::Node node = root[section][name];
    switch (field.kind) {
      case FieldKind::Threads:
        if (field.intRef(config) == 0) {
          node = "auto";
          break;
        }
        [[fallthrough]];
      case FieldKind::Int: node = field.intRef(config); break;
      case FieldKind::Float: node = shortestNumber(field.floatRef(config)); break;
      case FieldKind::Bool: node = field.boolRef(config); break;
      case FieldKind::String: node = field.stringRef(config); break;
      case FieldKind::IntList:
        node = YAML::Node(YAML::NodeType::Sequence);
        for (int64_t v : field.intListRef(config)) node.push_back(v);
        node.SetStyle(YAML::EmitterStyle::Flow);
        break;
      case FieldKind::StringList:
        node = YAML::Node(YAML::NodeType::Sequence);
        for (const auto &v : field.stringListRef(config)) node.push_back(v);
        node.SetStyle(YAML::EmitterStyle::Flow);
        break;
    }
  }
  return root;
}

std::string emit(const RunConfig &config, bool withTracking) {
  YAML::Node root;
  root["model"] = YAML::Load(config.modelYaml);
  YAML::Node sections = sectionsNode(config, withTracking);
  for (const char *section : kSections)
    if (sections[section]) root[section] = sections[section];
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

}  // namespace

std::string toYaml(const RunConfig &config) { return emit(config, true); }

// The hash identifies what was trained, so the run's label and experiment stay out of it.
std::string configHash(const RunConfig &config) { return sha256Hex(emit(config, false)); }

std::map<std::string, std::string> flattenConfig(const RunConfig &config) {
  std::map<std::string, std::string> flat;
  YAML::Node sections = sectionsNode(config, true);
  for (const char *section : kSections)
    for (const auto &item : sections[section]) {
      std::string text;
      if (item.second.IsSequence()) {
        for (const auto &element : item.second) text += (text.empty() ? "" : ",") + element.Scalar();
      } else {
        text = item.second.Scalar();
      }
      flat[std::string(section) + "." + item.first.Scalar()] = text;
    }
  flat["model.file"] = config.modelFile.empty() ? "(inline)" : config.modelFile;
  return flat;
}

}  // namespace tw::config
