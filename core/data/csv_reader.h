#pragma once
// CSV tables for classification and regression: a header row, then one example per row.
//
//   tw::data::CsvOptions options;
//   options.target = "species";                        // required
//   options.features = {"sepal_length", "colour"};     // empty = every column but the target
//   options.missing = tw::data::MissingPolicy::Mean;
//   tw::data::CsvTable table = tw::data::readCsv("iris.csv", options);
//   // table.examples.featureNames: {"sepal_length", "colour=blue", "colour=red"}
//   // table.numericColumns:        {true, false, false}   (standardise only the first)
//
// Columns are numeric unless listed in `categorical`; a non-numeric value in a numeric column is
// an error naming the line and the column (never a silent one-hot encoding). Categorical columns
// are one-hot encoded, one column per distinct value, values sorted (numbers numerically, before
// text). Classification maps the distinct target values, sorted the same way, to 0..k-1
// (classNames); regression needs a numeric target (targetDim 1).
//
// Missing values are empty fields and "NA", "NaN", "?". A missing target is never filled: it is an
// error unless the policy is drop. Blank lines are skipped. Every error is a std::runtime_error
// naming the file, the 1-based physical line and the column: "data.csv:17: 4 fields, the header
// has 5", "data.csv:9: column 'age': missing value (data.missing: error; use drop, mean or zero)".
// Values and names from the file appear in messages escaped and shortened (shown_text.h).
// The file is read in two passes (csv_layout.h's scan, then the values), never held in memory
// whole; a table whose values would not fit data.memory_mb is read per batch instead (csv_rows.h).

#include "core/data/examples.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

enum class MissingPolicy {
  Error,    // stop at the first missing value
  DropRow,  // drop every row with a missing value in a used column
  Mean,     // numeric: the column's mean; categorical: its most frequent value. Over the whole
            // file (the reader runs before the split), not the training rows only; the engine
            // fits standardisation on the training split, which is what matters most.
  Zero,     // numeric: 0; categorical: no category (all one-hot columns 0)
};

// "error" | "drop" | "mean" | "zero"; throws std::runtime_error listing them otherwise.
MissingPolicy parseMissingPolicy(const std::string &name);
const char *missingPolicyName(MissingPolicy policy);

struct CsvOptions {
  std::string target;                      // target column name (required)
  std::vector<std::string> features;       // columns to use, in this order; empty = all but the target
  std::vector<std::string> categorical;    // columns one-hot encoded even when numeric
  Task task = Task::Classification;
  MissingPolicy missing = MissingPolicy::Error;
  char delimiter = ',';
  int64_t limit = 0;                       // first N data rows only (0 = all)
};

// How one used column became features: what a deployed model must do to a raw row (together with
// the standardisation the engine fits afterwards).
struct CsvColumn {
  std::string name;
  bool categorical = false;
  int64_t offset = 0;                   // its first feature
  std::vector<std::string> categories;  // categorical: one-hot position k is categories[k]
  double fill = 0.0;                    // numeric: what a missing value became
};

struct CsvTable {
  Examples examples;                // featureShape {d}; featureNames one per column after one-hot
  std::vector<CsvColumn> columns;   // the used columns, in feature order
  std::vector<bool> numericColumns; // per feature: true when it should be standardised
  std::vector<std::string> notes;   // what the reader decided for the user, e.g.
                                    // "filled 3 missing values of 'age' with the mean 37.2"
};

CsvTable readCsv(const std::string &path, const CsvOptions &options);

}  // namespace tw::data
