#include "core/spec/analysis.h"

#include <algorithm>
#include <cstdio>

namespace tw::spec {

namespace {

std::string thousands(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string padRight(const std::string &s, size_t width) { return s + std::string(width > s.size() ? width - s.size() : 0, ' '); }
std::string padLeft(const std::string &s, size_t width) { return std::string(width > s.size() ? width - s.size() : 0, ' ') + s; }

}  // namespace

std::string formatSummary(const ModelSpec &spec, const Analysis &analysis) {
  struct Row {
    std::string node, op, shape, params, share;
  };
  std::vector<Row> rows;
  rows.push_back({"Node", "Op", "Output shape", "Params", "Share"});
  for (const NodeInfo &info : analysis.nodes) {
    const bool known = !info.outputShape.empty();
    const double share = analysis.totalParams ? 100.0 * static_cast<double>(info.paramCount) /
                                                    static_cast<double>(analysis.totalParams)
                                              : 0.0;
    // The fine-tuning keys beside the op, so a frozen backbone shows at a glance.
    std::string op = info.op;
    if (!info.trainable) op += " [frozen]";
    else if (info.lrFactor != 1.0) op += " [lr x" + shortNumber(info.lrFactor) + "]";
    rows.push_back({info.id, op, known ? formatShape(info.outputShape, true) : "?", thousands(info.paramCount),
                    fixed(share, 1) + "%"});
  }
  size_t w[5] = {0, 0, 0, 0, 0};
  for (const Row &r : rows) {
    w[0] = std::max(w[0], r.node.size());
    w[1] = std::max(w[1], r.op.size());
    w[2] = std::max(w[2], r.shape.size());
    w[3] = std::max(w[3], r.params.size());
    w[4] = std::max(w[4], r.share.size());
  }
  const size_t width = w[0] + w[1] + w[2] + w[3] + w[4] + 8;
  const std::string heavy(width, '='), light(width, '-');

  std::string out = "Model: " + spec.name + (spec.file.empty() ? "" : " (" + spec.file + ")") + "\n" + heavy + "\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    out += padRight(r.node, w[0]) + "  " + padRight(r.op, w[1]) + "  " + padRight(r.shape, w[2]) + "  " +
           padLeft(r.params, w[3]) + "  " + padLeft(r.share, w[4]) + "\n";
    if (i == 0) out += light + "\n";
  }
  out += heavy + "\n";
  // Running statistics are buffers, never counted; frozen nodes' parameters are (trainable: false).
  out += "Total params: " + thousands(analysis.totalParams) + "\n";
  out += "Trainable params: " + thousands(analysis.trainableParams) + "\n";
  out += "Non-trainable params: " + thousands(analysis.totalParams - analysis.trainableParams) + "\n";
  out += "Params size (MB): " + fixed(static_cast<double>(analysis.totalParams) * 4.0 / 1e6, 2) + " (float32)\n";
  out += "Output: " + analysis.output + "\n";
  if (!analysis.ok()) {
    out += light + "\n" + std::to_string(analysis.diagnostics.size()) + " problem(s):\n" +
           formatDiagnostics(analysis.diagnostics) + "\n";
  }
  return out;
}

}  // namespace tw::spec
