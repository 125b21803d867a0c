#pragma once
// The metric keys a run records, in one place: the engine writes them, the validator checks
// `train.monitor` against them, and Studio and the CLI read them back. A key is "<split>/<name>";
// the splits are train, val and test. No LibTorch, no Qt.
//
//   log(tw::config::metrics::kTrainLoss, loss);                       // "train/loss"
//   tw::config::metrics::key("val", "accuracy");                      // "val/accuracy"
//   tw::config::metrics::evaluationNames(RunTask::Classification, 5); // loss, accuracy, top5_accuracy ...

#include <cstdint>
#include <string>
#include <vector>

namespace tw::config::metrics {

// Prefixes of the three splits.
inline constexpr const char *kTrainPrefix = "train/";
inline constexpr const char *kValPrefix = "val/";
inline constexpr const char *kTestPrefix = "test/";

// What the training loop logs as it goes.
inline constexpr const char *kTrainLoss = "train/loss";                 // every train.log_every steps
inline constexpr const char *kTrainLr = "train/lr";
inline constexpr const char *kTrainGradNorm = "train/grad_norm";
inline constexpr const char *kTrainEpochLoss = "train/epoch_loss";      // once per epoch
inline constexpr const char *kTrainSamplesPerSec = "train/samples_per_sec";
inline constexpr const char *kTrainDataWait = "train/data_wait";
// Streamed sources, once per epoch: the share of examples read from the decoded cache, the
// encoded megabytes read from disk per second of the epoch, and the bad examples skipped so far.
inline constexpr const char *kTrainCacheHitRate = "train/cache_hit_rate";
inline constexpr const char *kTrainReadMbPerSec = "train/read_mb_per_sec";
inline constexpr const char *kTrainSkipped = "train/skipped_examples";
// data.cache: disk, once per epoch: examples the cache could not write so far (the disk filled
// after it was sized); they are read from the source every time instead.
inline constexpr const char *kTrainCacheWriteFailures = "train/cache_write_failures";
// Classification, once per epoch: how much neighbours in the epoch's training order share their
// class beyond chance (data/shuffle_order.h): about 0 well mixed, 1 sorted by class.
inline constexpr const char *kTrainOrderAutocorrelation = "train/order_label_autocorr";
inline constexpr const char *kEpoch = "epoch";                          // the epoch just finished
// Distributed runs, once per epoch: the share of training time spent waiting for the gradient
// collectives, and the largest optimiser state and gradients any rank keeps between steps
// (distributed.shard divides both by the ranks).
inline constexpr const char *kDistAllreduceShare = "dist/allreduce_share";
inline constexpr const char *kDistOptimizerStateMib = "dist/optimizer_state_mib";
inline constexpr const char *kDistGradientMib = "dist/gradient_mib";
// Per parameter tensor, once per epoch: "weight_norm/fc1.weight", "grad_norm/fc1.weight".
inline constexpr const char *kWeightNormPrefix = "weight_norm/";
inline constexpr const char *kGradNormPrefix = "grad_norm/";

// Evaluation names (without a split), as evaluate() fills them.
inline constexpr const char *kLoss = "loss";
inline constexpr const char *kAccuracy = "accuracy";
inline constexpr const char *kPrecisionMacro = "precision_macro";
inline constexpr const char *kRecallMacro = "recall_macro";
inline constexpr const char *kF1Macro = "f1_macro";
inline constexpr const char *kPrecisionWeighted = "precision_weighted";
inline constexpr const char *kRecallWeighted = "recall_weighted";
inline constexpr const char *kF1Weighted = "f1_weighted";
inline constexpr const char *kMse = "mse";
inline constexpr const char *kMae = "mae";
inline constexpr const char *kR2 = "r2";

// The keys Studio shows most.
inline constexpr const char *kValLoss = "val/loss";
inline constexpr const char *kValAccuracy = "val/accuracy";
inline constexpr const char *kTestAccuracy = "test/accuracy";

// Next-token prediction (the token-file source): the exponential of the mean loss per token.
inline constexpr const char *kPerplexity = "perplexity";

// What a run learns, for the metrics it records (run_task.h says which a run's options make).
enum class RunTask { Classification, Regression, NextToken };

// "top5_accuracy" for k = 5.
std::string topKName(int64_t k);

// "<split>/<name>": key("val", "loss") is "val/loss".
std::string key(const std::string &split, const std::string &name);

// The names evaluate() records for a task, in its order: for classification loss, accuracy,
// top<k>_accuracy, precision/recall/F1 macro and weighted; for regression loss, mse, mae, r2; for
// next-token prediction loss, accuracy (of the tokens) and perplexity.
std::vector<std::string> evaluationNames(RunTask task, int64_t topK);

}  // namespace tw::config::metrics
