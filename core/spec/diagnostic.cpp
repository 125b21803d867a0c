#include "core/spec/diagnostic.h"

namespace tw::spec {

namespace {

std::string joinMessages(const std::vector<Diagnostic> &diagnostics) {
  return diagnostics.empty() ? std::string("invalid model specification") : formatDiagnostics(diagnostics);
}

}  // namespace

std::string Diagnostic::format() const {
  std::string out;
  if (!where.file.empty() || where.line > 0) {
    out += where.file.empty() ? std::string("<model>") : where.file;
    if (where.line > 0) {
      out += ":" + std::to_string(where.line);
      if (where.column > 0) out += ":" + std::to_string(where.column);
    }
    out += ": ";
  }
  if (!node.empty()) out += "node '" + node + "'";
  if (!field.empty()) out += (node.empty() ? "field '" : ", field '") + field + "'";
  if (!node.empty() || !field.empty()) out += ": ";
  return out + message;
}

SpecError::SpecError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(joinMessages(diagnostics)), m_diagnostics(std::move(diagnostics)) {}

std::string formatDiagnostics(const std::vector<Diagnostic> &diagnostics) {
  std::string out;
  for (const Diagnostic &d : diagnostics) {
    if (!out.empty()) out += "\n";
    out += d.format();
  }
  return out;
}

}  // namespace tw::spec
