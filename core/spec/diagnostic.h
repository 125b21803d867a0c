#pragma once
// A precise complaint about a model file: where (file, line, node, field), what, and what was expected.

#include <stdexcept>
#include <string>
#include <vector>

namespace tw::spec {

struct SourceLocation {
  std::string file;  // empty for in-memory specs
  int line = 0;      // 1-based; 0 when unknown
  int column = 0;    // 1-based; 0 when unknown
};

struct Diagnostic {
  SourceLocation where;
  std::string node;   // node id, empty for file-level problems
  std::string field;  // parameter or key, empty when the node as a whole is wrong
  std::string message;

  // "model.yaml:12:5: node 'fc1', field 'in_features': expected 784 (from input [1, 28, 28]), got 100"
  std::string format() const;
};

// Thrown by the parser and by analyze() callers that want exceptions; carries every diagnostic found.
class SpecError : public std::runtime_error {
 public:
  explicit SpecError(std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic> &diagnostics() const { return m_diagnostics; }

 private:
  std::vector<Diagnostic> m_diagnostics;
};

std::string formatDiagnostics(const std::vector<Diagnostic> &diagnostics);

}  // namespace tw::spec
