#include "core/data/csv_layout.h"

#include "core/data/csv_parser.h"
#include "core/data/shown_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
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

// What the pass counts per used column, beside the layout's Column.
struct ColumnCount {
  int64_t missing = 0;  // in the rows kept
  double sum = 0;       // numeric: over the rows that have a value
  int64_t present = 0;
  double min = 0, max = 0;
  std::string firstFraction;
  int64_t firstFractionLine = 0;
  std::unordered_map<std::string, int64_t> counts;  // categorical: value -> rows
};

}  // namespace

bool CsvLayout::drops(const std::vector<std::string> &f) const {
  if (m_policy != MissingPolicy::DropRow) return false;
  if (isMissing(f[m_target])) return true;
  return std::any_of(m_columns.begin(), m_columns.end(), [&](const Column &c) { return isMissing(f[c.index]); });
}

bool CsvLayout::encode(const std::vector<std::string> &f, float *out, int64_t *label, float *target) const {
  if (f.size() != m_fieldCount) return false;
  std::fill(out, out + m_width, 0.0f);
  double value = 0;
  if (m_classification) {
    const auto it = m_classOf.find(f[m_target]);
    if (it == m_classOf.end()) return false;
    if (label) *label = it->second;
  } else {
    if (!parseNumber(f[m_target], value)) return false;
    if (target) *target = static_cast<float>(value);
  }
  for (const Column &c : m_columns) {
    const std::string &v = f[c.index];
    if (!c.categorical) {
      if (isMissing(v)) value = c.fill;
      else if (!parseNumber(v, value)) return false;
      out[c.offset] = static_cast<float>(value);
    } else if (isMissing(v)) {
      if (c.fillSlot >= 0) out[c.offset + c.fillSlot] = 1.0f;
    } else {
      const auto it = c.slot.find(v);
      if (it == c.slot.end()) return false;
      out[c.offset + it->second] = 1.0f;
    }
  }
  return true;
}

// The pass itself, a friend of the layout it fills.
struct CsvScanner {
  static CsvScan scan(const std::string &path, const CsvOptions &options, bool index);
};

CsvScan CsvScanner::scan(const std::string &path, const CsvOptions &options, bool index) {
  CsvRecordReader reader(path, options.delimiter);
  std::vector<std::string> header, f;
  if (!reader.next(header)) throw std::runtime_error(path + ": the file is empty (a header row is required)");
  CsvScan out;
  out.headerLine = reader.recordLine();
  const auto where = [&](int64_t line) { return path + ":" + std::to_string(line) + ": "; };
  // Binary bytes in the header (an image or an archive given as data.path) would otherwise read
  // as "the target is not in the header", naming columns made of garbage.
  for (size_t i = 0; i < header.size(); ++i)
    for (const char c : header[i]) {
      const auto byte = static_cast<unsigned char>(c);
      if ((byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7F) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", byte);
        throw std::runtime_error(where(out.headerLine) + "the header's field " + std::to_string(i + 1) +
                                 " holds the control byte " + hex + ": this is not a CSV text file");
      }
    }
  CsvLayout &layout = out.layout;
  layout.m_classification = options.task == Task::Classification;
  layout.m_policy = options.missing;
  layout.m_fieldCount = header.size();
  const MissingPolicy policy = options.missing;

  std::unordered_map<std::string, size_t> position;
  for (size_t i = 0; i < header.size(); ++i)
    if (!position.emplace(header[i], i).second)
      throw std::runtime_error(where(out.headerLine) + "column " + quoted(header[i]) +
                               " appears twice in the header (fields " + std::to_string(position[header[i]] + 1) +
                               " and " + std::to_string(i + 1) + ")");
  const auto find = [&](const std::string &name, const char *key) {
    const auto it = position.find(name);
    if (it == position.end())
      throw std::runtime_error(path + ": unknown column " + quoted(name) + " in " + key + " (the header has: " +
                               joined(header) + ")");
    return it->second;
  };
  if (options.target.empty())
    throw std::runtime_error(path + ": no target column given (set data.target to one of: " + joined(header) + ")");
  if (!position.count(options.target))
    throw std::runtime_error(path + ": the target column " + quoted(options.target) +
                             " (data.target) is not in the header (the header has: " + joined(header) + ")");
  const std::string targetName = options.target;
  layout.m_target = position[options.target];

  std::unordered_set<size_t> forced;
  for (const std::string &name : options.categorical) forced.insert(find(name, "data.categorical"));
  std::vector<CsvLayout::Column> &columns = layout.m_columns;
  std::unordered_set<size_t> used;
  const auto addColumn = [&](size_t i) {
    if (i == layout.m_target)
      throw std::runtime_error(path + ": column " + quoted(header[i]) +
                               " is the target (data.target) and cannot also be a feature");
    if (!used.insert(i).second)
      throw std::runtime_error(path + ": column " + quoted(header[i]) + " is listed twice in data.features");
    CsvLayout::Column c;
    c.name = header[i];
    c.index = i;
    c.categorical = forced.count(i) > 0;
    columns.push_back(std::move(c));
  };
  if (options.features.empty()) {
    for (size_t i = 0; i < header.size(); ++i)
      if (i != layout.m_target) addColumn(i);
  } else {
    for (const std::string &name : options.features) addColumn(find(name, "data.features"));
  }
  if (columns.empty())
    throw std::runtime_error(path + ": no feature columns (the header has only the target " + quoted(targetName) + ")");

  // Classes get a number in the order they first appear, renumbered in sorted order at the end,
  // so the labels are kept in one pass without keeping the values.
  std::vector<ColumnCount> counts(columns.size());
  std::unordered_map<std::string, int64_t> firstSeen;
  std::vector<std::string> seenOrder;
  Examples &e = out.table.examples;
  e.task = options.task;
  int64_t rows = 0, kept = 0, dropped = 0;
  std::vector<int64_t> droppedLines;
  while ((options.limit <= 0 || rows < options.limit) && reader.next(f)) {
    ++rows;
    if (f.size() != header.size())
      throw std::runtime_error(where(reader.recordLine()) + std::to_string(f.size()) + " fields, the header has " +
                               std::to_string(header.size()));
    const std::string &t = f[layout.m_target];
    if (isMissing(t) && policy != MissingPolicy::DropRow)
      throw std::runtime_error(where(reader.recordLine()) + "column " + quoted(targetName) +
                               " (the target): missing value (a target is never filled; " +
                               "data.missing: drop skips such rows)");
    if (policy == MissingPolicy::Error)
      for (const CsvLayout::Column &c : columns)
        if (isMissing(f[c.index]))
          throw std::runtime_error(where(reader.recordLine()) + "column " + quoted(c.name) +
                                   ": missing value (data.missing: error; use drop, mean or zero)");
    if (layout.drops(f)) {
      if (++dropped <= 5) droppedLines.push_back(reader.recordLine());
      out.endOffset = reader.offset();
      continue;
    }
    if (index && kept % kCsvBlockRows == 0) out.blockOffsets.push_back(reader.recordOffset());
    ++kept;
    out.endOffset = reader.offset();
    double value = 0;
    if (layout.m_classification) {
      auto [it, fresh] = firstSeen.emplace(t, static_cast<int64_t>(seenOrder.size()));
      if (fresh) seenOrder.push_back(t);
      e.labels.push_back(it->second);
    } else if (!parseNumber(t, value)) {
      throw std::runtime_error(where(reader.recordLine()) + "column " + quoted(targetName) + " (the target): " +
                               quoted(t) + " is not a number (a regression target must be numeric)");
    } else {
      e.targets.push_back(static_cast<float>(value));
    }
    for (size_t k = 0; k < columns.size(); ++k) {
      const CsvLayout::Column &c = columns[k];
      ColumnCount &n = counts[k];
      const std::string &v = f[c.index];
      if (isMissing(v)) {
        ++n.missing;
        continue;
      }
      if (c.categorical) {
        ++n.counts[v];
        continue;
      }
      // A text value in a column not declared categorical is most often a typo or a unit in a
      // numeric column; one-hot encoding it silently would hide that and change the model's input.
      if (!parseNumber(v, value))
        throw std::runtime_error(where(reader.recordLine()) + "column " + quoted(c.name) + ": " + quoted(v) +
                                 " is not a number (list the column in data.categorical to one-hot encode it)");
      n.min = n.present == 0 ? value : std::min(n.min, value);
      n.max = n.present == 0 ? value : std::max(n.max, value);
      if (n.firstFractionLine == 0 && value != std::floor(value)) {
        n.firstFraction = v;
        n.firstFractionLine = reader.recordLine();
      }
      n.sum += value;
      ++n.present;
    }
  }
  if (rows == 0) throw std::runtime_error(path + ": no data rows after the header");
  if (kept == 0)
    throw std::runtime_error(path + ": every one of the " + std::to_string(rows) +
                             " rows has a missing value (data.missing: drop)");

  CsvTable &table = out.table;
  int64_t width = 0;
  for (size_t k = 0; k < columns.size(); ++k) {
    CsvLayout::Column &c = columns[k];
    ColumnCount &n = counts[k];
    c.offset = width;
    const std::string missingText = std::to_string(n.missing) + " missing value" + (n.missing == 1 ? "" : "s");
    if (!c.categorical) {
      e.featureNames.push_back(c.name);
      table.numericColumns.push_back(true);
      table.columns.push_back({c.name, false, c.offset, {}, 0.0});
      ++width;
      // The mean is over the whole file, not the training rows only: the reader runs before the
      // split. What leaks is one number per column into rows that had none; the standardisation
      // that follows, which matters more, is fitted on the training split alone.
      if (n.missing > 0 && policy == MissingPolicy::Mean) {
        c.fill = n.present > 0 ? n.sum / static_cast<double>(n.present) : 0.0;
        table.columns.back().fill = c.fill;
        table.notes.push_back("filled " + missingText + " of " + quoted(c.name) + " with the mean " + number(c.fill));
      } else if (n.missing > 0) {
        table.notes.push_back("filled " + missingText + " of " + quoted(c.name) + " with 0");
      }
      CsvFeatureRange r;
      r.min = n.present > 0 ? n.min : c.fill;
      r.max = n.present > 0 ? n.max : c.fill;
      if (n.missing > 0) {
        r.min = std::min(r.min, c.fill);
        r.max = std::max(r.max, c.fill);
      }
      r.integral = n.firstFractionLine == 0 && !(n.missing > 0 && c.fill != std::floor(c.fill));
      r.firstFraction = n.firstFractionLine ? n.firstFraction : number(c.fill);
      r.firstFractionLine = n.firstFractionLine;
      out.ranges.push_back(r);
      continue;
    }
    const std::vector<std::string> values = sortedValues(n.counts);
    table.columns.push_back({c.name, true, c.offset, values, 0.0});
    for (size_t v = 0; v < values.size(); ++v) {
      c.slot[values[v]] = static_cast<int64_t>(v);
      e.featureNames.push_back(c.name + "=" + values[v]);
      table.numericColumns.push_back(false);
      out.ranges.push_back({0.0, 1.0, true, {}, 0});
    }
    width += static_cast<int64_t>(values.size());
    if (n.missing > 0 && policy == MissingPolicy::Mean && !values.empty()) {
      size_t mode = 0;  // the most frequent value; ties go to the first in sorted order
      for (size_t v = 1; v < values.size(); ++v)
        if (n.counts[values[v]] > n.counts[values[mode]]) mode = v;
      c.fillSlot = static_cast<int64_t>(mode);
      table.notes.push_back("filled " + missingText + " of " + quoted(c.name) + " with its most frequent value " +
                            quoted(values[mode]));
    } else if (n.missing > 0) {
      table.notes.push_back("left " + missingText + " of " + quoted(c.name) +
                            " without a category (all its one-hot columns 0)");
    }
  }
  layout.m_width = width;
  if (dropped > 0) {
    std::string lines;
    for (int64_t line : droppedLines) lines += (lines.empty() ? "" : ", ") + std::to_string(line);
    table.notes.push_back("dropped " + std::to_string(dropped) + " row" + (dropped == 1 ? "" : "s") +
                          " with missing values (line" + (dropped == 1 ? " " : "s ") + lines +
                          (dropped > 5 ? ", ..." : "") + ")");
  }
  if (layout.m_classification) {
    std::unordered_map<std::string, int64_t> valueCounts;
    for (const std::string &value : seenOrder) valueCounts[value] = 1;
    e.classNames = sortedValues(valueCounts);
    for (size_t k = 0; k < e.classNames.size(); ++k) layout.m_classOf[e.classNames[k]] = static_cast<int64_t>(k);
    std::vector<int64_t> renumber(seenOrder.size());
    for (size_t k = 0; k < seenOrder.size(); ++k) renumber[k] = layout.m_classOf[seenOrder[k]];
    for (int64_t &label : e.labels) label = renumber[static_cast<size_t>(label)];
    e.classes = static_cast<int64_t>(e.classNames.size());
    if (e.classes < 2)
      table.notes.push_back("the target " + quoted(targetName) + " has a single value " +
                            quoted(e.classNames.front()) + ": there is nothing to classify");
  } else {
    e.targetDim = 1;
  }
  e.count = kept;
  e.featureShape = {width};
  // Grown row by row, the vectors hold up to twice the rows: a table past memory has many.
  e.labels.shrink_to_fit();
  e.targets.shrink_to_fit();
  out.blockOffsets.shrink_to_fit();
  return out;
}

CsvScan scanCsv(const std::string &path, const CsvOptions &options, bool index) {
  return CsvScanner::scan(path, options, index);
}

}  // namespace tw::data
