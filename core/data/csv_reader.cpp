#include "core/data/csv_reader.h"

#include "core/data/csv_parser.h"
#include "core/data/shown_text.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace tw::data {

namespace {

bool isMissing(const std::string &value) {
  return value.empty() || value == "NA" || value == "NaN" || value == "?";
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string joined(const std::vector<std::string> &names) {
  std::string text;
  const size_t shownNames = std::min<size_t>(names.size(), 40);
  for (size_t i = 0; i < shownNames; ++i) text += (i ? ", " : "") + shownText(names[i]);
  if (names.size() > shownNames)
    text += ", ... (" + std::to_string(names.size() - shownNames) + " more)";
  return text;
}

// Numbers before text, numbers by value, text by bytes: "2" < "10" < "blue".
bool valueLess(const std::string &a, const std::string &b) {
  double x = 0, y = 0;
  const bool na = parseNumber(a, x), nb = parseNumber(b, y);
  if (na != nb) return na;
  if (na && x != y) return x < y;
  return a < b;
}

std::vector<std::string> sortedValues(const std::unordered_map<std::string, int64_t> &counts) {
  std::vector<std::string> values;
  values.reserve(counts.size());
  for (const auto &entry : counts) values.push_back(entry.first);
  std::sort(values.begin(), values.end(), valueLess);
  return values;
}

struct Column {
  std::string name;
  size_t index = 0;            // field position in the file
  bool categorical = false;
  int64_t missing = 0;         // in the rows kept
  double sum = 0;              // numeric: over the rows that have a value
  int64_t present = 0;
  std::unordered_map<std::string, int64_t> counts;  // categorical: value -> rows
  // The layout, once every value is known.
  int64_t offset = 0;          // first feature column
  std::unordered_map<std::string, int64_t> slot;  // categorical: value -> one-hot position
  double fill = 0;             // numeric: what a missing value becomes
  int64_t fillSlot = -1;       // categorical: the one-hot position a missing value gets (-1: none)
};

// The data rows after the header, up to the limit, each checked to have the header's width.
// Every pass makes its own, so the passes see the same rows with the same line numbers.
class Rows {
 public:
  Rows(const std::string &path, const CsvOptions &options)
      : m_reader(path, options.delimiter), m_limit(options.limit) {
    if (!m_reader.next(m_header))
      throw std::runtime_error(path + ": the file is empty (a header row is required)");
    m_headerLine = m_reader.recordLine();
  }
  bool next() {
    if (m_limit > 0 && m_count >= m_limit) return false;
    if (!m_reader.next(m_fields)) return false;
    ++m_count;
    if (m_fields.size() != m_header.size())
      throw std::runtime_error(where(line()) + std::to_string(m_fields.size()) +
                               " fields, the header has " + std::to_string(m_header.size()));
    return true;
  }
  std::string where(int64_t line) const {
    return m_reader.path() + ":" + std::to_string(line) + ": ";
  }
  const std::vector<std::string> &header() const { return m_header; }
  const std::vector<std::string> &fields() const { return m_fields; }
  int64_t line() const { return m_reader.recordLine(); }
  int64_t headerLine() const { return m_headerLine; }
  int64_t count() const { return m_count; }

 private:
  CsvRecordReader m_reader;
  int64_t m_limit;
  std::vector<std::string> m_header, m_fields;
  int64_t m_headerLine = 0;
  int64_t m_count = 0;
};

}  // namespace

MissingPolicy parseMissingPolicy(const std::string &name) {
  if (name == "error") return MissingPolicy::Error;
  if (name == "drop") return MissingPolicy::DropRow;
  if (name == "mean") return MissingPolicy::Mean;
  if (name == "zero") return MissingPolicy::Zero;
  throw std::runtime_error("unknown missing-value policy " + quoted(name) +
                           " (use error, drop, mean or zero)");
}

const char *missingPolicyName(MissingPolicy policy) {
  switch (policy) {
    case MissingPolicy::DropRow: return "drop";
    case MissingPolicy::Mean: return "mean";
    case MissingPolicy::Zero: return "zero";
    case MissingPolicy::Error: break;
  }
  return "error";
}

CsvTable readCsv(const std::string &path, const CsvOptions &options) {
  Rows rows(path, options);
  const std::vector<std::string> header = rows.header();
  const bool classification = options.task == Task::Classification;
  const MissingPolicy policy = options.missing;

  std::unordered_map<std::string, size_t> position;
  for (size_t i = 0; i < header.size(); ++i)
    if (!position.emplace(header[i], i).second)
      throw std::runtime_error(rows.where(rows.headerLine()) + "column " + quoted(header[i]) +
                               " appears twice in the header (fields " +
                               std::to_string(position[header[i]] + 1) + " and " +
                               std::to_string(i + 1) + ")");
  const auto find = [&](const std::string &name, const char *key) {
    const auto it = position.find(name);
    if (it == position.end())
      throw std::runtime_error(path + ": unknown column " + quoted(name) + " in " + key +
                               " (the header has: " + joined(header) + ")");
    return it->second;
  };

  if (options.target.empty())
    throw std::runtime_error(path + ": no target column given (set data.target to one of: " +
                             joined(header) + ")");
  if (!position.count(options.target))
    throw std::runtime_error(path + ": the target column " + quoted(options.target) +
                             " (data.target) is not in the header (the header has: " +
                             joined(header) + ")");
  Column target;
  target.name = options.target;
  target.index = position[options.target];

  std::unordered_set<size_t> forced;
  for (const std::string &name : options.categorical) forced.insert(find(name, "data.categorical"));
  std::vector<Column> columns;
  std::unordered_set<size_t> used;
  const auto addColumn = [&](size_t index) {
    if (index == target.index)
      throw std::runtime_error(path + ": column " + quoted(header[index]) +
                               " is the target (data.target) and cannot also be a feature");
    if (!used.insert(index).second)
      throw std::runtime_error(path + ": column " + quoted(header[index]) +
                               " is listed twice in data.features");
    Column c;
    c.name = header[index];
    c.index = index;
    c.categorical = forced.count(index) > 0;
    columns.push_back(std::move(c));
  };
  if (options.features.empty()) {
    for (size_t i = 0; i < header.size(); ++i)
      if (i != target.index) addColumn(i);
  } else {
    for (const std::string &name : options.features) addColumn(find(name, "data.features"));
  }
  if (columns.empty())
    throw std::runtime_error(path + ": no feature columns (the header has only the target " +
                             quoted(target.name) + ")");

  // Under every policy but drop a kept row is every row: a missing target throws, features fill.
  const auto dropsRow = [&](const std::vector<std::string> &f) {
    if (policy != MissingPolicy::DropRow) return false;
    if (isMissing(f[target.index])) return true;
    return std::any_of(columns.begin(), columns.end(),
                       [&](const Column &c) { return isMissing(f[c.index]); });
  };

  // Pass 1: errors, the statistics that fill missing values, the distinct values.
  int64_t kept = 0, dropped = 0;
  std::vector<int64_t> droppedLines;
  while (rows.next()) {
    const std::vector<std::string> &f = rows.fields();
    const std::string &t = f[target.index];
    if (isMissing(t) && policy != MissingPolicy::DropRow)
      throw std::runtime_error(rows.where(rows.line()) + "column " + quoted(target.name) +
                               " (the target): missing value (a target is never filled; " +
                               "data.missing: drop skips such rows)");
    if (policy == MissingPolicy::Error)
      for (const Column &c : columns)
        if (isMissing(f[c.index]))
          throw std::runtime_error(rows.where(rows.line()) + "column " + quoted(c.name) +
                                   ": missing value (data.missing: error; use drop, mean or zero)");
    if (dropsRow(f)) {
      if (++dropped <= 5) droppedLines.push_back(rows.line());
      continue;
    }
    ++kept;
    double value = 0;
    if (classification) {
      ++target.counts[t];
    } else if (!parseNumber(t, value)) {
      throw std::runtime_error(rows.where(rows.line()) + "column " + quoted(target.name) + " (the target): " +
                               quoted(t) + " is not a number (a regression target must be numeric)");
    }
    for (Column &c : columns) {
      const std::string &v = f[c.index];
      if (isMissing(v)) {
        ++c.missing;
        continue;
      }
      if (!c.categorical) {
        // A text value in a column not declared categorical is most often a typo or a unit in a
        // numeric column; one-hot encoding it silently would hide that and change the model's input.
        if (!parseNumber(v, value))
          throw std::runtime_error(rows.where(rows.line()) + "column " + quoted(c.name) + ": " + quoted(v) +
                                   " is not a number (list the column in data.categorical to one-hot encode it)");
        c.sum += value;
        ++c.present;
        continue;
      }
      ++c.counts[v];
    }
  }
  if (rows.count() == 0) throw std::runtime_error(path + ": no data rows after the header");
  if (kept == 0)
    throw std::runtime_error(path + ": every one of the " + std::to_string(rows.count()) +
                             " rows has a missing value (data.missing: drop)");

  CsvTable table;
  Examples &e = table.examples;
  e.task = options.task;
  int64_t width = 0;
  for (Column &c : columns) {
    c.offset = width;
    const std::string missingText =
        std::to_string(c.missing) + " missing value" + (c.missing == 1 ? "" : "s");
    if (!c.categorical) {
      e.featureNames.push_back(c.name);
      table.numericColumns.push_back(true);
      table.columns.push_back({c.name, false, c.offset, {}, 0.0});
      ++width;
      // The mean is over the whole file, not the training rows only: the reader runs before the
      // split. What leaks is one number per column into rows that had none; the standardisation
      // that follows, which matters more, the engine fits on the training split alone.
      if (c.missing > 0 && policy == MissingPolicy::Mean) {
        c.fill = c.present > 0 ? c.sum / static_cast<double>(c.present) : 0.0;
        table.columns.back().fill = c.fill;
        table.notes.push_back("filled " + missingText + " of " + quoted(c.name) + " with the mean " +
                              number(c.fill));
      } else if (c.missing > 0) {
        table.notes.push_back("filled " + missingText + " of " + quoted(c.name) + " with 0");
      }
      continue;
    }
    const std::vector<std::string> values = sortedValues(c.counts);
    table.columns.push_back({c.name, true, c.offset, values, 0.0});
    for (size_t k = 0; k < values.size(); ++k) {
      c.slot[values[k]] = static_cast<int64_t>(k);
      e.featureNames.push_back(c.name + "=" + values[k]);
      table.numericColumns.push_back(false);
    }
    width += static_cast<int64_t>(values.size());
    if (c.missing > 0 && policy == MissingPolicy::Mean && !values.empty()) {
      size_t mode = 0;  // the most frequent value; ties go to the first in sorted order
      for (size_t k = 1; k < values.size(); ++k)
        if (c.counts[values[k]] > c.counts[values[mode]]) mode = k;
      c.fillSlot = static_cast<int64_t>(mode);
      table.notes.push_back("filled " + missingText + " of " + quoted(c.name) +
                            " with its most frequent value " + quoted(values[mode]));
    } else if (c.missing > 0) {
      table.notes.push_back("left " + missingText + " of " + quoted(c.name) +
                            " without a category (all its one-hot columns 0)");
    }
  }
  if (dropped > 0) {
    std::string lines;
    for (int64_t line : droppedLines) lines += (lines.empty() ? "" : ", ") + std::to_string(line);
    table.notes.push_back("dropped " + std::to_string(dropped) + " row" + (dropped == 1 ? "" : "s") +
                          " with missing values (line" + (dropped == 1 ? " " : "s ") + lines +
                          (dropped > 5 ? ", ..." : "") + ")");
  }
  std::unordered_map<std::string, int64_t> classOf;
  if (classification) {
    e.classNames = sortedValues(target.counts);
    for (size_t k = 0; k < e.classNames.size(); ++k) classOf[e.classNames[k]] = static_cast<int64_t>(k);
    e.classes = static_cast<int64_t>(e.classNames.size());
    if (e.classes < 2)
      table.notes.push_back("the target " + quoted(target.name) + " has a single value " +
                            quoted(e.classNames.front()) + ": there is nothing to classify");
  } else {
    e.targetDim = 1;
  }

  // Pass 2: the values themselves. A mismatch with pass 1 means the file changed under us.
  const auto changed = [&]() {
    return std::runtime_error(path + ": the file changed while it was read");
  };
  e.features.assign(static_cast<size_t>(kept * width), 0.0f);
  if (classification) e.labels.reserve(static_cast<size_t>(kept));
  else e.targets.reserve(static_cast<size_t>(kept));
  Rows last(path, options);
  int64_t row = 0;
  while (last.next()) {
    const std::vector<std::string> &f = last.fields();
    if (dropsRow(f)) continue;
    if (row >= kept) throw changed();
    float *out = e.features.data() + row * width;
    double value = 0;
    if (classification) {
      const auto it = classOf.find(f[target.index]);
      if (it == classOf.end()) throw changed();
      e.labels.push_back(it->second);
    } else {
      if (!parseNumber(f[target.index], value)) throw changed();
      e.targets.push_back(static_cast<float>(value));
    }
    for (const Column &c : columns) {
      const std::string &v = f[c.index];
      if (!c.categorical) {
        if (isMissing(v)) value = c.fill;
        else if (!parseNumber(v, value)) throw changed();
        out[c.offset] = static_cast<float>(value);
      } else if (isMissing(v)) {
        if (c.fillSlot >= 0) out[c.offset + c.fillSlot] = 1.0f;
      } else {
        const auto it = c.slot.find(v);
        if (it == c.slot.end()) throw changed();
        out[c.offset + it->second] = 1.0f;
      }
    }
    ++row;
  }
  if (row != kept) throw changed();
  e.count = kept;
  e.featureShape = {width};
  return table;
}

}  // namespace tw::data
