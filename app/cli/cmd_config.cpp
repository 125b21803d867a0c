// `torchwright config --keys [--json]`: every run-file key, straight from the config table that
// parses run files and --set overrides (core/config/config_fields.h), so the list is what they accept.

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/cli/table_printer.h"
#include "app/cli/usage.h"

#include "core/config/config_fields.h"

#include <cstdio>

namespace tw::cli {

namespace {

std::string choicesText(const config::ConfigField &field) {
  std::string out;
  for (const auto &c : field.choices) out += (out.empty() ? "" : ", ") + c;
  return out;
}

// The default as a typed JSON value, read from a default-constructed RunConfig.
std::string jsonDefault(const config::ConfigField &field, config::RunConfig &defaults) {
  switch (field.kind) {
    case config::FieldKind::Threads:
      if (field.intRef(defaults) == 0) return json::string("auto");
      [[fallthrough]];
    case config::FieldKind::Int: return json::number(static_cast<long long>(field.intRef(defaults)));
    case config::FieldKind::Float: return json::number(field.floatRef(defaults));
    case config::FieldKind::Bool: return json::boolean(field.boolRef(defaults));
    case config::FieldKind::String: return json::string(field.stringRef(defaults));
    case config::FieldKind::IntList: {
      std::vector<std::string> items;
      for (int64_t v : field.intListRef(defaults)) items.push_back(json::number(static_cast<long long>(v)));
      return json::array(items);
    }
    case config::FieldKind::StringList: return json::strings(field.stringListRef(defaults));
  }
  return "null";
}

}  // namespace

int runConfig(const CliArgs &args) {
  if (!args.hasFlag("--keys") || !args.positionals.empty()) return usageError("config");
  config::RunConfig defaults;
  const auto flat = config::flattenConfig(defaults);  // default values as the params table shows them
  if (args.hasFlag("--json")) {
    std::vector<std::string> rows;
    for (const auto &f : config::configFields()) {
      rows.push_back(json::object({{"key", json::string(f.key)},
                                   {"type", json::string(config::fieldKindName(f.kind))},
                                   {"min", f.min ? json::number(*f.min) : "null"},
                                   {"max", f.max ? json::number(*f.max) : "null"},
                                   {"choices", json::strings(f.choices)},
                                   {"default", jsonDefault(f, defaults)},
                                   {"doc", json::string(f.doc)}}));
    }
    std::printf("%s\n", json::array(rows).c_str());
    return 0;
  }
  TablePrinter table({"KEY", "TYPE", "RANGE / CHOICES", "DEFAULT", "MEANING"});
  for (const auto &f : config::configFields()) {
    const std::string allowed = f.choices.empty() ? config::rangeText(f) : choicesText(f);
    const auto value = flat.find(f.key);
    const std::string fallback = value == flat.end() || value->second.empty() ? "-" : value->second;
    table.addRow({f.key, config::fieldKindName(f.kind), allowed.empty() ? "-" : allowed, fallback, f.doc});
  }
  std::printf("%s", table.str().c_str());
  return 0;
}

}  // namespace tw::cli
