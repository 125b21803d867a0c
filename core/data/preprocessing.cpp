#include "core/data/preprocessing.h"

#include "core/data/json_text.h"

#include <cstdio>

namespace tw::data {

namespace {

std::string jsonNumber(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string jsonFloat(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
  return text;
}

template <typename T, typename F>
std::string jsonArray(const std::vector<T> &values, F item) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + item(values[i]);
  return out + "]";
}

std::string strings(const std::vector<std::string> &values) { return jsonArray(values, jsonString); }

// Appends `"key": value` to an object being written, with the comma before all but the first.
class Object {
 public:
  Object(std::string &out, const std::string &indent) : m_out(out), m_indent(indent) { m_out += "{"; }
  void add(const std::string &key, const std::string &value) {
    m_out += (m_first ? "\n" : ",\n") + m_indent + "  " + jsonString(key) + ": " + value;
    m_first = false;
  }
  void close() { m_out += "\n" + m_indent + "}"; }

 private:
  std::string &m_out;
  std::string m_indent;
  bool m_first = true;
};

std::string csvColumn(const CsvColumn &c) {
  std::string out;
  Object o(out, "    ");
  o.add("name", jsonString(c.name));
  o.add("kind", jsonString(c.categorical ? "categorical" : "numeric"));
  o.add("offset", std::to_string(c.offset));
  if (c.categorical) o.add("categories", strings(c.categories));
  else o.add("fill", jsonNumber(c.fill));
  o.close();
  return out;
}

}  // namespace

std::string preprocessingJson(const Preprocessing &p) {
  std::string out;
  Object o(out, "");
  o.add("dataset", jsonString(p.dataset));
  o.add("task", jsonString(taskName(p.task)));
  o.add("input_shape", jsonArray(p.inputShape, [](int64_t v) { return std::to_string(v); }));
  o.add("index_inputs", p.indexInputs ? "true" : "false");
  o.add("standardization", jsonString(p.standardization));
  if (p.standardization == "image") {
    o.add("image_mean", jsonNumber(p.imageMean));
    o.add("image_std", jsonNumber(p.imageStd));
  } else if (p.standardization == "per-feature") {
    o.add("feature_mean", jsonArray(p.featureMean, jsonFloat));
    o.add("feature_std", jsonArray(p.featureStd, jsonFloat));
  }
  if (!p.featureNames.empty()) o.add("feature_names", strings(p.featureNames));
  if (!p.csvColumns.empty()) {
    o.add("csv_target", jsonString(p.csvTarget));
    std::string columns = "[";
    for (size_t i = 0; i < p.csvColumns.size(); ++i)
      columns += (i ? ",\n    " : "\n    ") + csvColumn(p.csvColumns[i]);
    o.add("csv_columns", columns + "\n  ]");
  }
  if (p.task == Task::Classification) {
    o.add("classes", std::to_string(p.classes));
    o.add("class_names", strings(p.classNames));
  } else {
    o.add("target_dim", std::to_string(p.targetDim));
  }
  o.close();
  return out + "\n";
}

}  // namespace tw::data
