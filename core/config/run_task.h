#pragma once
// What a run learns, as far as its options say: whether its targets are numbers (regression) or
// classes, and so which metrics it records for train.monitor to name. The validator refuses any
// other monitor; Studio's Launch form offers exactly these.
//
//   tw::config::runTask(config.data);                    // Regression: csv with data.task: regression
//   tw::config::monitorKeys(config.data, config.train.topK);
//   // {"val/loss", "val/accuracy", "val/top5_accuracy", "val/precision_macro", ...}

#include "core/config/metric_keys.h"
#include "core/config/run_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::config {

// A CSV table with data.task regression is regression, a token file next-token prediction, every
// other source classification.
metrics::RunTask runTask(const DataOptions &data);
bool isRegression(const DataOptions &data);

// The validation split's metrics the run records (metric_keys.h's evaluationNames with "val/"),
// in that order.
std::vector<std::string> monitorKeys(const DataOptions &data, int64_t topK);

}  // namespace tw::config
