#include "core/config/loss_table.h"

namespace tw::config {

const std::vector<LossInfo> &losses() {
  static const std::vector<LossInfo> table = {
      {"cross_entropy", true, true, "softmax cross-entropy over the classes (next-token: over the vocabulary)"},
      {"bce_with_logits", true, false, "binary cross-entropy on logits (one output per class, or one for two)"},
      {"mse", false, false, "mean squared error"},
      {"l1", false, false, "mean absolute error"},
      {"huber", false, false, "squared below train.huber_delta, linear above"},
  };
  return table;
}

const LossInfo *findLoss(const std::string &name) {
  for (const LossInfo &loss : losses())
    if (loss.name == name) return &loss;
  return nullptr;
}

std::vector<std::string> lossNames() {
  std::vector<std::string> names;
  for (const LossInfo &loss : losses()) names.push_back(loss.name);
  return names;
}

namespace {

// "mse, l1 or huber"
std::string listOf(bool classification) {
  std::vector<std::string> names;
  for (const LossInfo &loss : losses())
    if (loss.classification == classification) names.push_back(loss.name);
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) text += (i ? (i + 1 == names.size() ? " or " : ", ") : "") + names[i];
  return text;
}

}  // namespace

LossProblem lossProblem(const std::string &name, metrics::RunTask task, double labelSmoothing) {
  const LossInfo *loss = findLoss(name);
  if (!loss) {
    std::string all;
    for (const std::string &n : lossNames()) all += (all.empty() ? "" : ", ") + n;
    return {"train.loss", "unknown loss '" + name + "' (expected one of " + all + ")"};
  }
  if (task == metrics::RunTask::NextToken && name != "cross_entropy")
    return {"train.loss", "next-token prediction (token-file) trains with cross_entropy over the vocabulary, not '" + name + "'"};
  if (task == metrics::RunTask::Regression && loss->classification)
    return {"train.loss", "'" + name + "' is a classification loss but data.task is regression; use " + listOf(false)};
  if (task != metrics::RunTask::Regression && !loss->classification)
    return {"train.loss", "'" + name + "' is a regression loss but the data is a classification task; use " + listOf(true)};
  if (labelSmoothing > 0.0 && !loss->labelSmoothing)
    return {"train.label_smoothing", "applies to cross_entropy only, not to '" + name + "'"};
  return {};
}

}  // namespace tw::config
