#include "core/data/class_filter.h"

#include <cstdlib>
#include <stdexcept>

namespace tw::data {

ClassFilter classFilter(const std::vector<std::string> &keep, int64_t classes, const std::vector<std::string> &classNames,
                        const std::string &source) {
  ClassFilter f;
  f.newIndex.assign(static_cast<size_t>(classes), -1);
  for (const std::string &entry : keep) {
    int64_t found = -1;
    for (size_t c = 0; c < classNames.size(); ++c)
      if (classNames[c] == entry) found = static_cast<int64_t>(c);
    char *end = nullptr;
    const long long index = std::strtoll(entry.c_str(), &end, 10);
    if (found < 0 && !entry.empty() && *end == '\0' && index >= 0 && index < classes) found = index;
    if (found < 0) {
      std::string names;
      for (size_t c = 0; c < classNames.size() && c < 12; ++c) names += (c ? ", " : "") + classNames[c];
      throw std::runtime_error(source + ": data.keep_classes: '" + entry + "' is neither a class index (0 to " +
                               std::to_string(classes - 1) + ") nor a class name" +
                               (names.empty() ? std::string() : " (" + names + (classNames.size() > 12 ? ", ..." : "") + ")"));
    }
    if (f.newIndex[static_cast<size_t>(found)] >= 0)
      throw std::runtime_error(source + ": data.keep_classes lists class '" + entry + "' twice");
    f.newIndex[static_cast<size_t>(found)] = static_cast<int64_t>(f.names.size());
    f.names.push_back(static_cast<size_t>(found) < classNames.size() ? classNames[static_cast<size_t>(found)]
                                                                      : std::to_string(found));
  }
  return f;
}

std::vector<int64_t> keepClasses(Examples &examples, const ClassFilter &filter) {
  std::vector<int64_t> rows;
  for (int64_t k = 0; k < examples.count; ++k) {
    const int64_t label = examples.labels[static_cast<size_t>(k)];
    if (label >= 0 && label < static_cast<int64_t>(filter.newIndex.size()) && filter.newIndex[static_cast<size_t>(label)] >= 0)
      rows.push_back(k);
  }
  Examples kept = select(examples, rows);
  for (int64_t &label : kept.labels) label = filter.newIndex[static_cast<size_t>(label)];
  kept.classes = static_cast<int64_t>(filter.names.size());
  kept.classNames = filter.names;
  examples = std::move(kept);
  return rows;
}

}  // namespace tw::data
