#pragma once
// Evaluates a model on a split: the loss plus the task's metrics (classification: accuracy,
// top-k, precision/recall/F1 macro and weighted, per class and the confusion matrix; regression:
// MSE, MAE, R²; next-token prediction: the share of tokens predicted right and the perplexity).
// Engine-internal.

#include "core/engine/dataset.h"
#include "core/engine/eval_metrics.h"
#include "core/engine/graph_module.h"
#include "core/engine/losses.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tw::engine {

struct EvalOptions {
  int64_t topK = 5;
  torch::Device device = torch::kCPU;
  bool bf16 = false;  // autocast the forward pass as in training
};

struct EvalResult {
  int64_t examples = 0;
  // "loss" and the task's metrics: "accuracy", "top5_accuracy", "f1_macro", "f1_weighted",
  // "precision_macro", "recall_macro", "precision_weighted", "recall_weighted"; or "mse", "mae", "r2".
  std::map<std::string, double> metrics;
  std::optional<ClassificationReport> report;  // classification only
};

EvalResult evaluate(GraphModule &model, const Split &split, const Dataset &data, const Loss &loss,
                    const EvalOptions &options);

// The keys evaluate() fills for a task, in its metrics map: what train.monitor may name.
std::vector<std::string> evaluationMetricNames(Task task, int64_t topK);

}  // namespace tw::engine
