#pragma once
// Whether a run's data source is there and readable, and does not lie about itself, without
// reading all of it: the IDX folder's four files checked from their headers and sizes (idx.h's
// checkIdxSet), the CSV file's header and rows (whole up to 1 MiB; past it the first 1,000 rows
// and the last 64 KiB), the image folder and its class folders. Internal to core/validate.

#include "core/config/run_config.h"

#include <string>

namespace tw::validate::detail {

// The problem with data.path (naming the file), or "" when the source looks readable.
std::string checkDataSource(const config::DataOptions &data);

// The examples the training split will hold (core/data/splits.h's sizes after data.train_limit),
// as cheaply as the source allows: generated sets from data.samples, IDX sets from the training
// labels file's size, shard sets from their manifest. -1 when unknown: CSV tables and image
// folders are not read before training
// (the loader counts them), and an unreadable or unsplittable source is reported elsewhere.
int64_t trainingExamples(const config::DataOptions &data);

}  // namespace tw::validate::detail
