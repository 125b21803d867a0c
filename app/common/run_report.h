#pragma once
// One self-contained HTML page about one or more runs, to send to someone who does not run
// Torchwright: no network, no script, nothing outside the file (a Content-Security-Policy says so
// to the browser). `torchwright report` writes it, and Studio's Export Report (ui/runs/report_writer.h).
//
//   std::string html = runReport(store, {runA, runB});
//
// What it holds: each run's record (status, times, test metrics); every metric the runs share as
// an inline SVG line chart, one line per run; the configuration, the keys whose values differ
// marked; the lineage (configuration hash, data fingerprint, weights, where the starting weights
// or an imported run came from); each run's test confusion matrix; the system readings per rank;
// and when the runs are trials of one study, its history (each trial's value and the best so far)
// and the parameters' importance (fANOVA, as `study show`).

#include "tracking/store.h"

#include <functional>
#include <string>
#include <vector>

namespace tw::app {

// The page's sections in order (runs, curves, configuration, lineage, confusion, system, study),
// for a progress line: `onSection(done, kReportSections)` after each, present or not.
inline constexpr int kReportSections = 7;

// Throws std::runtime_error when a run's recorded files cannot be read where they are required.
std::string runReport(const tracking::Store &store, const std::vector<tracking::RunRecord> &runs,
                      const std::function<void(int done, int total)> &onSection = {});

}  // namespace tw::app
