#include "core/engine/evaluation.h"

#include "core/engine/precision.h"
#include "core/config/metric_keys.h"

#include <algorithm>
#include <cmath>

namespace tw::engine {

namespace keys = config::metrics;

std::vector<std::string> evaluationMetricNames(Task task, int64_t topK) {
  const keys::RunTask kind = task == Task::Regression  ? keys::RunTask::Regression
                            : task == Task::NextToken ? keys::RunTask::NextToken
                                                      : keys::RunTask::Classification;
  return keys::evaluationNames(kind, topK);
}

EvalResult evaluate(GraphModule &model, const Split &split, const Dataset &data, const Loss &loss,
                    const EvalOptions &options) {
  EvalResult result;
  result.examples = split.size();
  if (split.size() == 0) return result;
  const bool wasTraining = model.is_training();
  model.eval();
  torch::NoGradGuard noGrad;
  const bool classification = data.task == Task::Classification;
  const int64_t classes = std::max<int64_t>(1, data.classes);
  const int64_t k = std::min(options.topK, classes);
  ClassificationCounts counts(classes, k);
  RegressionSums sums;
  double lossSum = 0.0;
  int64_t examples = 0, tokensRight = 0, tokens = 0;  // next-token prediction
  // Large slices: no optimiser step to wait for, so fewer, bigger GEMMs win. A streamed split's
  // slices are decoded for the occasion: smaller ones keep its memory that of a few batches.
  // A language model's scores are windows x positions x vocabulary: its slices hold about 16 M
  // of them (64 MB), whatever the vocabulary.
  int64_t kSlice = split.streamed ? 256 : 1000;
  if (split.tokens) {
    const int64_t perWindow = split.tokens->windows.seqLen() * std::max<int64_t>(1, split.tokens->vocabulary);
    kSlice = std::clamp<int64_t>((int64_t(1) << 24) / perWindow, 1, 256);
  }
  for (int64_t start = 0; start < split.size(); start += kSlice) {
    const int64_t end = std::min(split.size(), start + kSlice);
    const Batch batch = split.range(start, end);
    const torch::Tensor x = batch.inputs.to(options.device);
    const torch::Tensor y = batch.targets.to(options.device);
    const int64_t seen = batch.targets.size(0);  // fewer than asked when bad images are skipped
    if (seen == 0) continue;
    examples += seen;
    torch::Tensor output;
    {
      AutocastGuard autocast(options.bf16 ? Precision::BF16 : Precision::FP32, options.device);
      output = model.forward(x);
    }
    output = output.to(torch::kFloat);
    lossSum += loss(output, y).item<double>() * static_cast<double>(seen);
    if (data.task == Task::NextToken) {
      tokensRight += output.argmax(-1).eq(y).sum().item<int64_t>();
      tokens += y.numel();
    } else if (classification) {
      torch::Tensor predicted, inTopK;
      if (output.dim() == 1 || output.size(-1) == 1) {  // one logit: the binary head
        predicted = (output.reshape({-1}) > 0).to(torch::kLong);
        inTopK = predicted.eq(y);
      } else {
        predicted = output.argmax(1);
        inTopK = std::get<1>(output.topk(k, 1)).eq(y.unsqueeze(1)).any(1);
      }
      const torch::Tensor cells = (y * classes + predicted).to(torch::kCPU);
      const torch::Tensor matrix = torch::bincount(cells, {}, classes * classes);
      std::vector<int64_t> confusion(matrix.data_ptr<int64_t>(), matrix.data_ptr<int64_t>() + matrix.numel());
      counts.addMatrix(confusion, inTopK.sum().item<int64_t>());
    } else {
      const torch::Tensor target = y.reshape(output.sizes()).to(torch::kDouble);
      const torch::Tensor error = output.to(torch::kDouble) - target;
      sums.addSums(target.numel(), error.pow(2).sum().item<double>(), error.abs().sum().item<double>(),
                   target.sum().item<double>(), target.pow(2).sum().item<double>());
    }
  }
  result.examples = examples;
  if (examples == 0) {  // every example skipped as bad
    if (wasTraining) model.train();
    return result;
  }
  result.metrics[keys::kLoss] = lossSum / static_cast<double>(examples);
  if (data.task == Task::NextToken) {
    result.metrics[keys::kAccuracy] = static_cast<double>(tokensRight) / static_cast<double>(tokens);
    result.metrics[keys::kPerplexity] = std::exp(result.metrics[keys::kLoss]);
  } else if (classification) {
    ClassificationReport r = counts.report();
    result.metrics[keys::kAccuracy] = r.accuracy;
    result.metrics[keys::topKName(options.topK)] = r.topK;
    result.metrics[keys::kPrecisionMacro] = r.macroPrecision;
    result.metrics[keys::kRecallMacro] = r.macroRecall;
    result.metrics[keys::kF1Macro] = r.macroF1;
    result.metrics[keys::kPrecisionWeighted] = r.weightedPrecision;
    result.metrics[keys::kRecallWeighted] = r.weightedRecall;
    result.metrics[keys::kF1Weighted] = r.weightedF1;
    result.report = std::move(r);
  } else {
    const RegressionReport r = sums.report(examples);
    result.metrics[keys::kMse] = r.mse;
    result.metrics[keys::kMae] = r.mae;
    result.metrics[keys::kR2] = r.r2;
  }
  if (wasTraining) model.train();
  return result;
}

}  // namespace tw::engine
