#include "core/engine/import/import_report.h"

#include "core/data/json_text.h"
#include "core/spec/analysis.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tw::engine {

namespace {

using data::jsonString;

std::string pad(const std::string &text, size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string grouped(int64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string became(const ImportedRow &row) {
  std::string text;
  if (row.fate == "mapped") text = row.node + " (" + row.op + ")";
  else if (row.fate == "folded") text = "folded into " + row.node + " (" + row.op + ")";
  else if (row.fate == "constant") text = "constant";
  else text = "dropped";
  return row.note.empty() ? text : text + ": " + row.note;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", s);
  return text;
}

}  // namespace

std::string importReportText(const ImportedModel &model, const ImportOutcome &outcome) {
  const spec::Analysis analysis = spec::analyze(model.spec);
  std::map<std::string, int> fates;
  int nodes = 0;
  size_t nameWidth = 0, opWidth = 0;
  for (const ImportedRow &row : model.rows) {
    if (row.opType != "input") {  // graph inputs are listed, but are not nodes
      ++nodes;
      ++fates[row.fate];
    }
    nameWidth = std::max(nameWidth, std::min<size_t>(row.name.size(), 56));
    opWidth = std::max(opWidth, row.opType.size());
  }
  std::string text = "imported " + model.file + " (ONNX opset " + std::to_string(model.opset) + ", IR " +
                     std::to_string(model.irVersion) + (model.producer.empty() ? "" : ", " + model.producer) + ") in " +
                     seconds(outcome.seconds) + " s\n";
  text += "  model    " + outcome.modelFile + ": " + std::to_string(model.spec.nodes.size()) + " nodes, " +
          grouped(analysis.totalParams) + " parameters\n";
  text += "  weights  " + outcome.weightsFile + ": " + std::to_string(outcome.weightTensors) + " tensors\n";
  text += "what each of the " + std::to_string(nodes) + " ONNX nodes became (" + std::to_string(fates["mapped"]) +
          " mapped, " + std::to_string(fates["folded"]) + " folded, " + std::to_string(fates["constant"]) +
          " constants, " + std::to_string(fates["dropped"]) + " dropped):\n";
  for (const ImportedRow &row : model.rows)
    text += "  " + pad(row.name, nameWidth) + "  " + pad(row.opType, opWidth) + "  -> " + became(row) + "\n";
  return text;
}

std::string importReportJson(const ImportedModel &model, const ImportOutcome &outcome) {
  const spec::Analysis analysis = spec::analyze(model.spec);
  std::string json = "{\"file\": " + jsonString(model.file) + ", \"opset\": " + std::to_string(model.opset) +
                     ", \"ir_version\": " + std::to_string(model.irVersion) + ", \"producer\": " + jsonString(model.producer) +
                     ", \"model_file\": " + jsonString(outcome.modelFile) + ", \"weights_file\": " +
                     jsonString(outcome.weightsFile) + ", \"model_nodes\": " + std::to_string(model.spec.nodes.size()) +
                     ", \"parameters\": " + std::to_string(analysis.totalParams) + ", \"weight_tensors\": " +
                     std::to_string(outcome.weightTensors) + ", \"seconds\": " + seconds(outcome.seconds) +
                     ", \"nodes\": [";
  for (size_t i = 0; i < model.rows.size(); ++i) {
    const ImportedRow &row = model.rows[i];
    json += std::string(i ? ",\n  " : "\n  ") + "{\"name\": " + jsonString(row.name) + ", \"op_type\": " +
            jsonString(row.opType) + ", \"fate\": " + jsonString(row.fate);
    if (!row.node.empty()) json += ", \"node\": " + jsonString(row.node) + ", \"op\": " + jsonString(row.op);
    if (!row.note.empty()) json += ", \"note\": " + jsonString(row.note);
    json += "}";
  }
  return json + "\n]}\n";
}

}  // namespace tw::engine
