#pragma once
// A recorded run written out for the tools its users already have: TensorBoard event files
// (tensorboard_events.h) and an MLflow file store. No Qt, no LibTorch.
//
// TensorBoard: FOLDER/<name>_<id8>/events.out.tfevents.*, every metric as a scalar at its step
// and time, the layers' norms per step as histograms, the params in the HParams plugin's layout
// (tensorboard_hparams.h) and the model for the Graphs tab when the caller has it (the tracking
// library reads no model files: tensorboard_graph.h). MLflow: ROOT/<experiment id>/<run id>/{meta.yaml, metrics/, params/, tags/,
// artifacts/}, as mlflow's FileStore lays it out (the experiment found by name, or created, and
// the Default experiment 0 when the store is new): metrics as "<time ms> <value> <step>" lines,
// params and tags as files, the run's name as the mlflow.runName tag, its resolved configuration as
// the artifact config.yaml.
//
//   std::string where = exportRun(store, run, ExportFormat::MLflow, "mlruns", /*force=*/false);

#include "tracking/store.h"
#include "tracking/tensorboard_graph.h"

#include <string>

namespace tw::tracking {

enum class ExportFormat { TensorBoard, MLflow };

// Writes the run; returns the folder written. A run already exported there is refused (a
// std::runtime_error naming the folder) unless `force`, which replaces it. `graph`: the run's
// model for TensorBoard (MLflow has no place for one beyond the configuration); empty: none.
std::string exportRun(const Store &store, const RunRecord &run, ExportFormat format, const std::string &folder,
                      bool force, const std::vector<GraphNode> &graph = {});

// The folder a run's TensorBoard events go in, under the folder the user named: "<name>_<id8>".
std::string tensorBoardRunFolder(const RunRecord &run);

// A name as one path component: letters, digits, '.', '-', '_' kept, anything else '_', never
// "", "." or "..". Keys that hold '/' keep it between components made safe alike.
std::string safeFileName(const std::string &name);
std::string safeKeyPath(const std::string &key);

}  // namespace tw::tracking
