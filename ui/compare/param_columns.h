#pragma once
// The compared runs' parameters as columns: for each key, every run's value, whether the runs
// disagree on it, and whether it is a number (a value axis) or a category (evenly spaced).
// Group by, the parallel coordinates, the scatter and the config table all read the same
// columns, so they agree on what differs and on the order of categories.
//
//   auto columns = paramColumns({&runA.params, &runB.params});
//   for (const ParamColumn &c : columns) if (c.differs && c.numeric) plot(c.numbers);

#include <map>
#include <string>
#include <vector>

namespace tw::ui {

// How a run without the parameter shows; a category of its own.
extern const char *const kMissingParam;

struct ParamColumn {
  std::string key;
  bool differs = false;  // the runs do not all have the same value (missing counts as a value)
  bool numeric = false;  // every value present parses as a finite number
  // The key means something for the data source of at least one run (the config table's
  // sources): a CSV column name is no parameter of an IDX run, whatever value it recorded.
  bool applies = true;
  std::vector<std::string> values;      // one per run; kMissingParam when the run lacks it
  std::vector<double> numbers;          // one per run; NaN when missing or not numeric
  std::vector<std::string> categories;  // distinct values: by number if numeric, else by text; missing last
  std::vector<int> categoryOf;          // one per run: index into categories
};

// One column per key any run has, sorted by key.
std::vector<ParamColumn> paramColumns(const std::vector<const std::map<std::string, std::string> *> &runs);

}  // namespace tw::ui
