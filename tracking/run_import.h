#pragma once
// Runs recorded by other tools brought into the store, so that a user's history sits in Compare
// beside new runs: TensorBoard event files, an MLflow file store, CSV metric logs. Importing again
// changes nothing: a run keeps the source's id (MLflow's run id, else one derived from the
// source's path), is found instead of added, and its metrics are written again under the same
// (run, key, step) keys. No Qt, no LibTorch.
//
//   ImportReport report = importRuns(store, ImportFormat::MLflow, "mlruns", "");
//   for (const auto &run : report.runs) ...   // name, id, whether it was new, points
//
// TensorBoard: every folder under PATH holding events.out.tfevents.* files is one run, named by
// its path under PATH: its scalars, and its params from the HParams plugin's session start
// (tensorboard_hparams.h: what PyTorch's add_hparams and `runs export` write). MLflow: PATH is the store's root (mlruns); every active run
// of every active experiment, with its params, tags, metrics, status and times (one still running
// there is recorded as KILLED: nothing here follows it). CSV: PATH is a
// file with a header row; its `step` column (else `epoch`, else the row number) is the step and
// every other column a metric, empty cells skipped. Every run gets an `imported_from` tag.

#include "tracking/store.h"

#include <functional>
#include <string>
#include <vector>

namespace tw::tracking {

enum class ImportFormat { TensorBoard, MLflow, Csv };

struct ImportedRun {
  std::string name;
  std::string uuid;
  bool created = false;   // false: it was imported before
  int64_t points = 0;     // metric points read
};

struct ImportReport {
  std::vector<ImportedRun> runs;
  std::vector<std::string> problems;  // what was skipped, each naming its file (and record)
};

// `experiment`: where TensorBoard and CSV runs go (MLflow runs keep their own experiment); empty:
// "imported". Throws std::runtime_error naming the file, line or field when PATH is not what the
// format says (an MLflow store of another layout, a CSV cell that is no number) before anything
// of it is recorded.
// `progress`, when set, hears each run recorded (done of total) once the source has been read.
ImportReport importRuns(Store &store, ImportFormat format, const std::string &path, const std::string &experiment,
                        const std::function<void(size_t done, size_t total)> &progress = {});

}  // namespace tw::tracking
