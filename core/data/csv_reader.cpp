#include "core/data/csv_reader.h"

#include "core/data/csv_layout.h"
#include "core/data/csv_parser.h"
#include "core/data/shown_text.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace tw::data {

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
  return readCsvValues(path, options, scanCsv(path, options));
}

CsvTable readCsvValues(const std::string &path, const CsvOptions &options, CsvScan &&scan) {
  CsvTable table = std::move(scan.table);
  Examples &e = table.examples;
  const CsvLayout &layout = scan.layout;
  const int64_t width = layout.width();

  // Pass 2: the values themselves. A row the scan did not see the same way means the file changed.
  const auto changed = [&]() { return std::runtime_error(path + ": the file changed while it was read"); };
  e.features.assign(static_cast<size_t>(e.count * width), 0.0f);
  CsvRecordReader reader(path, options.delimiter);
  std::vector<std::string> f;
  if (!reader.next(f)) throw changed();  // the header
  int64_t rows = 0, row = 0;
  while ((options.limit <= 0 || rows < options.limit) && reader.next(f)) {
    ++rows;
    if (f.size() != layout.fieldCount()) throw changed();
    if (layout.drops(f)) continue;
    if (row >= e.count) throw changed();
    int64_t label = 0;
    float target = 0;
    if (!layout.encode(f, e.features.data() + row * width, &label, &target)) throw changed();
    if (e.task == Task::Classification ? label != e.labels[static_cast<size_t>(row)]
                                       : target != e.targets[static_cast<size_t>(row)])
      throw changed();
    ++row;
  }
  if (row != e.count) throw changed();
  return table;
}

}  // namespace tw::data
