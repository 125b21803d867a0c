#include "ui/launch/config_labels.h"

#include <QCoreApplication>
#include <QHash>

namespace tw::ui {

namespace {

// One label per key of the config table (core/config/config_fields.cpp); test_launch_form walks
// the table and fails on a key without one.
const QHash<QString, const char *> &labels() {
  static const QHash<QString, const char *> table = {
      {QStringLiteral("data.dataset"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Dataset")},
      {QStringLiteral("data.path"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Path")},
      {QStringLiteral("data.train_limit"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Training examples")},
      {QStringLiteral("data.test_limit"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Test examples")},
      {QStringLiteral("data.val_fraction"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Validation share")},
      {QStringLiteral("data.test_fraction"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Test share")},
      {QStringLiteral("data.stratify"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Keep class proportions")},
      {QStringLiteral("data.batch_size"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Batch size")},
      {QStringLiteral("data.shuffle"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Shuffle every epoch")},
      {QStringLiteral("data.shuffle_mode"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Shuffle shard sets")},
      {QStringLiteral("data.shuffle_buffer"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Shuffle buffer (examples)")},
      {QStringLiteral("data.normalize"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Standardise")},
      {QStringLiteral("data.task"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Task")},
      {QStringLiteral("data.target"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Target column")},
      {QStringLiteral("data.features"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Feature columns")},
      {QStringLiteral("data.categorical"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Categorical columns")},
      {QStringLiteral("data.missing"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Missing values")},
      {QStringLiteral("data.image_size"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Image size")},
      {QStringLiteral("data.channels"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Channels")},
      {QStringLiteral("data.samples"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Samples")},
      {QStringLiteral("data.classes"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Classes")},
      {QStringLiteral("data.noise"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Noise")},
      {QStringLiteral("data.seq_len"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Sequence length")},
      {QStringLiteral("data.vocab_size"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Vocabulary size")},
      {QStringLiteral("data.token_dtype"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Token width")},
      {QStringLiteral("data.windows_per_epoch"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Random windows per epoch")},
      {QStringLiteral("data.crop_padding"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Random crop padding")},
      {QStringLiteral("data.flip"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Horizontal flip probability")},
      {QStringLiteral("data.erase"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Random erasing probability")},
      {QStringLiteral("data.prefetch"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Batches prepared ahead")},
      {QStringLiteral("data.workers"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Read threads")},
      {QStringLiteral("data.cache"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Decoded-image cache")},
      {QStringLiteral("data.cache_dir"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Disk cache folder")},
      {QStringLiteral("data.memory_mb"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Data memory budget (MiB)")},
      {QStringLiteral("data.on_bad"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Damaged images")},
      {QStringLiteral("train.optimizer"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Optimizer")},
      {QStringLiteral("train.lr"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Learning rate")},
      {QStringLiteral("train.momentum"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Momentum")},
      {QStringLiteral("train.nesterov"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Nesterov momentum")},
      {QStringLiteral("train.weight_decay"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Weight decay")},
      {QStringLiteral("train.beta1"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Beta 1")},
      {QStringLiteral("train.beta2"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Beta 2")},
      {QStringLiteral("train.alpha"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Smoothing constant")},
      {QStringLiteral("train.eps"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Epsilon")},
      {QStringLiteral("train.schedule"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Schedule")},
      {QStringLiteral("train.warmup_steps"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Warm-up steps")},
      {QStringLiteral("train.step_size"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Step size")},
      {QStringLiteral("train.milestones"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Milestones")},
      {QStringLiteral("train.gamma"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Decay factor")},
      {QStringLiteral("train.min_lr"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Lowest learning rate")},
      {QStringLiteral("train.pct_start"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Rising share")},
      {QStringLiteral("train.plateau_patience"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Plateau patience")},
      {QStringLiteral("train.clip_norm"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Clip gradient norm")},
      {QStringLiteral("train.clip_value"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Clip gradient values")},
      {QStringLiteral("train.accumulate"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Batches per step")},
      {QStringLiteral("train.label_smoothing"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Label smoothing")},
      {QStringLiteral("train.loss"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Loss")},
      {QStringLiteral("train.huber_delta"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Huber delta")},
      {QStringLiteral("train.precision"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Number format")},
      {QStringLiteral("train.device"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Device")},
      {QStringLiteral("train.memory_format"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Memory layout")},
      {QStringLiteral("train.epochs"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Epochs")},
      {QStringLiteral("data.keep_classes"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Keep only classes")},
      {QStringLiteral("train.init_from"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Start from weights")},
      {QStringLiteral("train.unfreeze"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Unfreeze at epochs")},
      {QStringLiteral("train.unfreeze_warmup_steps"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Unfreeze warm-up steps")},
      {QStringLiteral("train.seed"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Seed")},
      {QStringLiteral("train.threads"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Threads")},
      {QStringLiteral("train.log_every"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Log loss every N steps")},
      {QStringLiteral("train.monitor"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Metric watched")},
      {QStringLiteral("train.patience"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Patience (epochs)")},
      {QStringLiteral("train.min_delta"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Smallest improvement")},
      {QStringLiteral("train.checkpoint_every"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Checkpoint every N steps")},
      {QStringLiteral("train.keep_epochs"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Keep checkpoints of last N epochs")},
      {QStringLiteral("train.top_k"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Top-k accuracy: k")},
      {QStringLiteral("distributed.nproc_per_node"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Processes")},
      {QStringLiteral("distributed.backend"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Backend")},
      {QStringLiteral("distributed.max_restarts"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Restarts after a failure")},
      {QStringLiteral("distributed.bucket_mb"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Gradient bucket (MB)")},
      {QStringLiteral("distributed.broadcast_buffers"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Broadcast buffers")},
      {QStringLiteral("distributed.timeout_s"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Collective timeout (s)")},
      {QStringLiteral("distributed.shard"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Shard across ranks")},
      {QStringLiteral("tracking.experiment"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Experiment")},
      {QStringLiteral("tracking.run_name"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "Run name")},
      {QStringLiteral("tracking.tensorboard"), QT_TRANSLATE_NOOP("tw::ui::ConfigLabels", "TensorBoard folder")},
  };
  return table;
}

}  // namespace

QString configLabel(const QString &key) {
  if (const char *label = labels().value(key)) return QCoreApplication::translate("tw::ui::ConfigLabels", label);
  return key.section(QLatin1Char('.'), 1);
}

bool hasConfigLabel(const QString &key) { return labels().contains(key); }

}  // namespace tw::ui
