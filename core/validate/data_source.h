#pragma once
// Whether a run's data source is there and readable, without reading an example: the IDX
// folder's four files, the CSV file, the image folder and its class folders. Internal to
// core/validate.

#include "core/config/run_config.h"

#include <string>

namespace tw::validate::detail {

// The problem with data.path (naming the file), or "" when the source looks readable.
std::string checkDataSource(const config::DataOptions &data);

}  // namespace tw::validate::detail
