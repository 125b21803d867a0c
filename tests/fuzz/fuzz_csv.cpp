// CSV tables: quoting, ragged rows, missing values under each policy, categorical columns and
// targets, read by the same two-pass reader training uses. The target is the header's first
// column when the file has one the reader accepts, so the fuzzer gets past the header.
#include "core/data/csv_reader.h"
#include "tests/fuzz/fuzz_target.h"

#include <string>

TW_FUZZ_TARGET(csv) {
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz.csv");
  const std::string text = tw::fuzz::bytes(data, size);
  const std::string firstLine = text.substr(0, text.find('\n'));
  tw::data::CsvOptions options;
  options.target = firstLine.substr(0, firstLine.find(','));
  if (!options.target.empty() && options.target.back() == '\r') options.target.pop_back();
  const uint8_t mode = size > 0 ? data[size - 1] : 0;
  options.task = (mode & 1) ? tw::data::Task::Regression : tw::data::Task::Classification;
  options.missing = static_cast<tw::data::MissingPolicy>((mode >> 1) % 4);
  if (mode & 8) options.categorical = {"c"};
  options.limit = (mode & 16) ? 3 : 0;
  tw::fuzz::expectRefusalOnly("fuzz.csv", [&] { tw::data::readCsv(path, options); });
  return 0;
}
