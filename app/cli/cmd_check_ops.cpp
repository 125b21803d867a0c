// `torchwright check --ops`: the layer registry as a reference, one block per op with its
// parameters, read from the same table the parser, the analysis and the builders use.

#include "app/cli/commands.h"
#include "app/cli/table_printer.h"

#include "core/spec/registry.h"

#include <cmath>
#include <cstdio>

namespace tw::cli {

namespace {

std::string bound(double v) {
  if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return spec::formatParamValue(v);
}

std::string allowed(const spec::ParamDef &p) {
  if (!p.choices.empty()) {
    std::string out;
    for (const auto &c : p.choices) out += (out.empty() ? "" : ", ") + c;
    return out;
  }
  if (p.min && p.max) return "[" + bound(*p.min) + ", " + bound(*p.max) + "]";
  if (p.min) return ">= " + bound(*p.min);
  if (p.max) return "<= " + bound(*p.max);
  return "-";
}

std::string inputs(const spec::OpDef &op) {
  if (op.maxInputs < 0) return std::to_string(op.minInputs) + " or more inputs";
  if (op.minInputs == op.maxInputs) return std::to_string(op.minInputs) + (op.minInputs == 1 ? " input" : " inputs");
  return std::to_string(op.minInputs) + " to " + std::to_string(op.maxInputs) + " inputs";
}

}  // namespace

int runCheckOps(const CliArgs &) {
  const auto &ops = spec::Registry::instance().ops();
  for (size_t i = 0; i < ops.size(); ++i) {
    const spec::OpDef &op = ops[i];
    std::printf("%s%s (%s, %s): %s\n", i ? "\n" : "", op.name.c_str(), spec::opCategoryName(op.category).c_str(),
                inputs(op).c_str(), op.doc.c_str());
    if (op.params.empty()) continue;
    TablePrinter table({"  PARAM", "TYPE", "DEFAULT", "ALLOWED", "MEANING"});
    for (const auto &p : op.params) {
      const std::string fallback = p.defaultValue ? spec::formatParamValue(*p.defaultValue)
                                   : p.inferred   ? "(inferred)"
                                                  : "(required)";
      table.addRow({"  " + p.name, spec::paramTypeName(p.type), fallback, allowed(p), p.doc});
    }
    std::printf("%s", table.str().c_str());
  }
  std::printf("\n%zu ops\n", ops.size());
  return 0;
}

}  // namespace tw::cli
