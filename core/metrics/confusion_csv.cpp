#include "core/metrics/confusion_csv.h"

namespace tw::metrics {

std::string csvClassName(const std::vector<std::string> &names, int64_t c) {
  std::string name = c < static_cast<int64_t>(names.size()) ? names[static_cast<size_t>(c)] : std::to_string(c);
  if (name.find_first_of(",\"\r\n") == std::string::npos) return name;
  std::string quoted = "\"";
  for (char ch : name) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string confusionCsv(const std::vector<int64_t> &confusion, int64_t classes,
                         const std::vector<std::string> &classNames) {
  std::string out = "truth\\predicted";
  for (int64_t c = 0; c < classes; ++c) out += "," + csvClassName(classNames, c);
  out += "\n";
  for (int64_t t = 0; t < classes; ++t) {
    out += csvClassName(classNames, t);
    for (int64_t p = 0; p < classes; ++p) out += "," + std::to_string(confusion[static_cast<size_t>(t * classes + p)]);
    out += "\n";
  }
  return out;
}

}  // namespace tw::metrics
