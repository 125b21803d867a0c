#include "core/config/config_fields.h"

#include "core/config/data_source_table.h"
#include "core/config/loss_table.h"
#include "core/config/optimizer_table.h"
#include "core/config/unfreeze.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tw::config {

namespace {

ConfigField intField(std::string key, std::function<int64_t &(RunConfig &)> ref,
                     std::optional<double> min, std::optional<double> max, std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::Int;
  f.intRef = std::move(ref);
  f.min = min;
  f.max = max;
  f.doc = std::move(doc);
  return f;
}

ConfigField floatField(std::string key, std::function<double &(RunConfig &)> ref,
                       std::optional<double> min, std::optional<double> max, std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::Float;
  f.floatRef = std::move(ref);
  f.min = min;
  f.max = max;
  f.doc = std::move(doc);
  return f;
}

ConfigField boolField(std::string key, std::function<bool &(RunConfig &)> ref, std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::Bool;
  f.boolRef = std::move(ref);
  f.doc = std::move(doc);
  return f;
}

ConfigField stringField(std::string key, std::function<std::string &(RunConfig &)> ref,
                        std::vector<std::string> choices, std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::String;
  f.stringRef = std::move(ref);
  f.choices = std::move(choices);
  f.doc = std::move(doc);
  return f;
}

ConfigField intListField(std::string key, std::function<std::vector<int64_t> &(RunConfig &)> ref,
                         std::optional<double> min, std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::IntList;
  f.intListRef = std::move(ref);
  f.min = min;
  f.doc = std::move(doc);
  return f;
}

ConfigField stringListField(std::string key, std::function<std::vector<std::string> &(RunConfig &)> ref,
                            std::string doc) {
  ConfigField f;
  f.key = std::move(key);
  f.kind = FieldKind::StringList;
  f.stringListRef = std::move(ref);
  f.doc = std::move(doc);
  return f;
}

// The row, restricted to the data sources it means something for.
ConfigField onlyFor(std::vector<std::string> sources, ConfigField field) {
  field.sources = std::move(sources);
  return field;
}

// The row, restricted to the learning-rate schedules it means something for.
ConfigField onlyForSchedules(std::vector<std::string> schedules, ConfigField field) {
  field.schedules = std::move(schedules);
  return field;
}

// The row, marked as changing only how fast a run trains (ConfigField::speedOnly).
ConfigField speedOnly(ConfigField field) {
  field.speedOnly = true;
  return field;
}

// Accessor shorthands keep each row of the table on a line or two.
#define TW_DATA(member) [](RunConfig &c) -> auto & { return c.data.member; }
#define TW_TRAIN(member) [](RunConfig &c) -> auto & { return c.train.member; }

std::vector<ConfigField> makeFields() {
  // Which sources read which keys: the data-source table's (data_source_table.h).
  using S = DataSourceInfo;
  using F = SourceFamily;
  const std::vector<std::string> kCsv = dataSourcesWhere([](const S &s) { return s.family == F::Csv; }),
      kImageFolder = dataSourcesWhere([](const S &s) { return s.imageGeometry; }),
      kStreamed = dataSourcesWhere([](const S &s) { return s.streamed; }),
      kBudgeted = dataSourcesWhere([](const S &s) { return s.memoryBudget; }),
      kReadThreads = dataSourcesWhere([](const S &s) { return s.readThreads; }),
      kShards = dataSourcesWhere([](const S &s) { return s.family == F::Shards; }),
      kTokens = dataSourcesWhere([](const S &s) { return s.family == F::Tokens; }),
      kTokenFile = dataSourcesWhere([](const S &s) { return s.family == F::TokenFile; }),
      kSequences = dataSourcesWhere([](const S &s) { return s.family == F::Tokens || s.family == F::TokenFile; }),
      kSynthetic = dataSourcesWhere([](const S &s) { return s.family == F::Synthetic; }),
      kGenerated = dataSourcesWhere([](const S &s) { return s.family == F::Synthetic || s.family == F::Tokens; }),
      kImages = dataSourcesWhere([](const S &s) { return s.images; }),
      kWithoutTestSet = dataSourcesWhere([](const S &s) { return !s.ownTestSet; });
  std::vector<ConfigField> f;
  // Each row takes the section last set above it, so a row and its section are read together.
  std::string section;
  auto add = [&](ConfigField field) {
    field.section = section;
    f.push_back(std::move(field));
  };
  // --- data ---
  section = "data";
  add(stringField("data.dataset", TW_DATA(dataset), dataSourceNames(),
                          "data source: IDX datasets, a CSV table, an image folder, a packed shard set "
                          "(`torchwright pack`), a file of token ids (token-file: next-token prediction) or a "
                          "synthetic set (spirals, blobs; tokens: sequences whose class is the marker token seen most)"));
  add(stringField("data.path", TW_DATA(path), {},
                          "IDX folder, CSV file, image folder, packed shard set or token file; empty = the IDX "
                          "dataset's Debian folder"));
  add(intField("data.train_limit", TW_DATA(trainLimit), 0, std::nullopt,
                       "use only the first N training examples (0 = all)"));
  add(intField("data.test_limit", TW_DATA(testLimit), 0, std::nullopt,
                       "use only the first N test examples (0 = all)"));
  add(stringListField("data.keep_classes", TW_DATA(keepClasses),
                      "classification: train on these classes only (indices or names), numbered 0.. in this order; "
                      "the limits count their examples (empty = all)"));
  section = "splits";
  add(floatField("data.val_fraction", TW_DATA(valFraction), 0.0, 0.9,
                         "share of the training examples held out for validation"));
  add(onlyFor(kWithoutTestSet,
                      floatField("data.test_fraction", TW_DATA(testFraction), 0.0, 0.9,
                                 "share held out as the test set by sources without one (csv, image-folder, synthetic)")));
  add(boolField("data.stratify", TW_DATA(stratify), "classification splits keep the class proportions"));
  section = "data";
  add(intField("data.batch_size", TW_DATA(batchSize), 1, 1 << 20, "samples per batch"));
  add(boolField("data.shuffle", TW_DATA(shuffle), "reshuffle the training set every epoch (from the seed)"));
  add(onlyFor(kShards, stringField("data.shuffle_mode", TW_DATA(shuffleMode), {"global", "shards"},
                                   "shard sets: global (a fresh random order of every example each epoch) or shards "
                                   "(shards in a random order, each read front to back through a shuffle buffer: "
                                   "sequential reads; the run records how well mixed the order is)")));
  add(onlyFor(kShards, intField("data.shuffle_buffer", TW_DATA(shuffleBuffer), 1, 100000000,
                                "shard sets with shuffle_mode shards: examples held in the shuffle buffer")));
  add(boolField("data.normalize", TW_DATA(normalize),
                        "standardise with the training split's statistics (applied to every split)"));
  add(onlyFor(kCsv, stringField("data.task", TW_DATA(task), {"classification", "regression"},
                                        "csv: what the target is")));
  add(onlyFor(kCsv, stringField("data.target", TW_DATA(target), {}, "csv: the target column")));
  add(onlyFor(kCsv, stringListField("data.features", TW_DATA(features),
                                            "csv: feature columns (empty = all but the target)")));
  add(onlyFor(kCsv, stringListField("data.categorical", TW_DATA(categorical),
                                            "csv: columns one-hot encoded even when numeric")));
  add(onlyFor(kCsv, stringField("data.missing", TW_DATA(missing), {"error", "drop", "mean", "zero"},
                                        "csv: what to do with an empty, NA or ? field")));
  add(onlyFor(kImageFolder,
                      intField("data.image_size", TW_DATA(imageSize), 0, 4096,
                               "image-folder: resize every image to this square size (0 = the first image's size)")));
  add(onlyFor(kImageFolder, intField("data.channels", TW_DATA(channels), 0, 3,
                                             "image-folder: 1 gray, 3 RGB, 0 = automatic")));
  add(onlyFor(kGenerated, intField("data.samples", TW_DATA(samples), 10, 10000000,
                                           "spirals, blobs, tokens: number of examples")));
  add(onlyFor(kGenerated, intField("data.classes", TW_DATA(classes), 2, 1000,
                                           "spirals, blobs, tokens: number of classes")));
  add(onlyFor(kSynthetic, floatField("data.noise", TW_DATA(noise), 0.0, 10.0, "spirals, blobs: noise / spread")));
  add(onlyFor(kSequences, intField("data.seq_len", TW_DATA(seqLen), 1, 4096,
                                   "tokens, token-file: tokens per sequence (the Input's shape)")));
  add(onlyFor(kTokenFile, stringField("data.token_dtype", TW_DATA(tokenDtype), {"uint16", "uint32"},
                                      "token-file: the width of each little-endian token id in the file")));
  add(onlyFor(kTokenFile, intField("data.windows_per_epoch", TW_DATA(windowsPerEpoch), 0, std::nullopt,
                                   "token-file: training windows drawn at random starts anywhere in the file each "
                                   "epoch, from the seed and the epoch (0 = every window of seq_len + 1 once, "
                                   "in a shuffled order)")));
  add(onlyFor(kTokens, intField("data.vocab_size", TW_DATA(vocabSize), 3, 1000000,
                                        "tokens: token ids 0..vocab_size-1, of which 0..classes-1 are the class "
                                        "markers; above data.classes (the Embedding's num_embeddings)")));
  section = "augmentation";
  add(onlyFor(kImages, intField("data.crop_padding", TW_DATA(cropPadding), 0, 64,
                                        "augmentation: random crop after zero padding of this many pixels (0 = off)")));
  add(onlyFor(kImages, floatField("data.flip", TW_DATA(flip), 0.0, 1.0,
                                          "augmentation: horizontal flip probability")));
  add(onlyFor(kImages, floatField("data.erase", TW_DATA(erase), 0.0, 1.0,
                                          "augmentation: random erasing probability")));
  section = "resources";
  add(speedOnly(onlyFor(kReadThreads, intField("data.workers", TW_DATA(workers), 0, 256,
                                     "threads that decode images or parse a streamed table's rows (0 = one per "
                                     "core); the data are the same whatever the number"))));
  add(speedOnly(intField("data.prefetch", TW_DATA(prefetch), 0, 64,
                       "batches prepared ahead on a background thread (0 = on the training thread)")));
  add(speedOnly(onlyFor(kStreamed, stringField("data.cache", TW_DATA(cache), {"none", "memory", "disk"},
                                     "streamed images: keep them decoded (8-bit) after their first read, so later "
                                     "epochs skip decoding: in memory within data.memory_mb, or on disk (a file "
                                     "removed when the run ends) within the free space of data.cache_dir"))));
  add(speedOnly(onlyFor(kStreamed, stringField("data.cache_dir", TW_DATA(cacheDir), {},
                                     "data.cache: disk: the folder of the cache file (empty = $TMPDIR or /tmp); "
                                     "a local disk, not a memory-backed tmpfs"))));
  add(speedOnly(onlyFor(kBudgeted, intField("data.memory_mb", TW_DATA(memoryMb), 0, 16 << 20,
                                  "the data's memory budget in MiB (0 = a quarter of this machine's memory): "
                                  "streamed images keep at most this much decoded; a CSV table larger than this "
                                  "as floats is parsed per batch from the file instead of read whole; IDX images "
                                  "larger than this as floats are read per batch (plain files) or held as 8-bit "
                                  "pixels (gzipped)"))));
  add(onlyFor(kStreamed, stringField("data.on_bad", TW_DATA(onBad), {"error", "skip"},
                                     "streamed images: a corrupt or changed image stops the run, naming it (error), "
                                     "or is left out of its batch and counted (skip)")));
  // --- train ---
  section = "optimiser";
  add(stringField("train.optimizer", TW_TRAIN(optimizer), optimizerNames(), "optimiser"));
  add(floatField("train.lr", TW_TRAIN(lr), 0.0, 1e3, "learning rate (the peak for onecycle)"));
  add(floatField("train.momentum", TW_TRAIN(momentum), 0.0, 1.0, "SGD and RMSprop momentum"));
  add(boolField("train.nesterov", TW_TRAIN(nesterov), "SGD: Nesterov momentum"));
  section = "regularisation";
  add(floatField("train.weight_decay", TW_TRAIN(weightDecay), 0.0, 1.0, "L2 penalty (decoupled for adamw)"));
  section = "optimiser";
  add(floatField("train.beta1", TW_TRAIN(beta1), 0.0, 1.0, "Adam first-moment decay"));
  add(floatField("train.beta2", TW_TRAIN(beta2), 0.0, 1.0, "Adam second-moment decay"));
  add(floatField("train.alpha", TW_TRAIN(alpha), 0.0, 1.0, "RMSprop smoothing constant"));
  add(floatField("train.eps", TW_TRAIN(eps), 0.0, 1.0, "Adam, AdamW and RMSprop epsilon"));
  section = "schedule";
  add(stringField("train.schedule", TW_TRAIN(schedule),
                          {"none", "step", "multistep", "exponential", "cosine", "onecycle", "plateau"},
                          "learning-rate schedule"));
  add(intField("train.warmup_steps", TW_TRAIN(warmupSteps), 0, std::nullopt,
                       "linear warm-up over the first N optimiser steps (0 = none), then the schedule"));
  // Which schedules read which keys (core/engine/lr_schedule.h); warm-up precedes every schedule.
  const std::vector<std::string> kStep{"step"}, kMultistep{"multistep"}, kOnecycle{"onecycle"}, kPlateau{"plateau"},
      kDecaying{"step", "multistep", "exponential", "plateau"}, kWithFloor{"cosine", "plateau"};
  add(onlyForSchedules(kStep, intField("train.step_size", TW_TRAIN(stepSize), 1, std::nullopt,
                                       "step: epochs between decays")));
  add(onlyForSchedules(kMultistep, intListField("train.milestones", TW_TRAIN(milestones), 1,
                                                "multistep: epochs at which lr *= gamma")));
  add(onlyForSchedules(kDecaying, floatField("train.gamma", TW_TRAIN(gamma), 0.0, 1.0,
                                             "decay factor of step, multistep, exponential (per epoch) and plateau")));
  add(onlyForSchedules(kWithFloor, floatField("train.min_lr", TW_TRAIN(minLr), 0.0, 1e3, "cosine and plateau: the lowest lr")));
  add(onlyForSchedules(kOnecycle, floatField("train.pct_start", TW_TRAIN(pctStart), 0.0, 1.0,
                                             "onecycle: share of steps rising to lr")));
  add(onlyForSchedules(kPlateau, intField("train.plateau_patience", TW_TRAIN(plateauPatience), 0, std::nullopt,
                                          "plateau: epochs without improvement of the monitor before lr *= gamma")));
  section = "regularisation";
  add(floatField("train.clip_norm", TW_TRAIN(clipNorm), 0.0, 1e6, "clip the global gradient norm (0 = off)"));
  add(floatField("train.clip_value", TW_TRAIN(clipValue), 0.0, 1e6, "clip each gradient element (0 = off)"));
  section = "optimiser";
  add(intField("train.accumulate", TW_TRAIN(accumulate), 1, 4096, "batches per optimiser step"));
  section = "loss";
  add(floatField("train.label_smoothing", TW_TRAIN(labelSmoothing), 0.0, 0.99, "cross_entropy label smoothing"));
  add(stringField("train.loss", TW_TRAIN(loss), lossNames(),
                          "loss function"));
  add(floatField("train.huber_delta", TW_TRAIN(huberDelta), 1e-9, 1e6, "huber: where the loss turns linear"));
  section = "precision";
  add(stringField("train.precision", TW_TRAIN(precision), {"fp32", "bf16", "fp16"},
                          "fp32, bf16 autocast, or fp16 with dynamic loss scaling (CUDA only)"));
  section = "resources";
  add(stringField("train.device", TW_TRAIN(device), {}, "cpu, cuda or cuda:N (CUDA builds of LibTorch)"));
  section = "precision";
  add(stringField("train.memory_format", TW_TRAIN(memoryFormat), {"auto", "channels_last", "contiguous"},
                          "layout of activations: auto = channels-last for 2-D convolutions on the CPU (faster)"));
  section = "training";
  add(intField("train.epochs", TW_TRAIN(epochs), 1, 1e6, "passes over the training split"));
  add(stringField("train.init_from", TW_TRAIN(initFrom), {},
                  "start from these weights: run:<run>[@best|@last], a checkpoint or a PyTorch state_dict file; "
                  "nodes whose names and shapes match take them, the rest start from the seed"));
  ConfigField unfreeze = stringListField("train.unfreeze", TW_TRAIN(unfreeze),
                                         "gradual unfreezing: frozen nodes (or block instances) that start to train at an "
                                         "epoch, [{epoch: 3, nodes: [h2]}] or 3:h2,5:h1+c1");
  unfreeze.mapItem = unfreezeStepText;
  add(unfreeze);
  add(intField("train.unfreeze_warmup_steps", TW_TRAIN(unfreezeWarmupSteps), 0, std::nullopt,
               "optimiser steps over which a newly unfrozen group's learning rate rises from 0 (0 = one epoch's)"));
  section = "seed";
  add(intField("train.seed", TW_TRAIN(seed), 0, std::nullopt,
                       "seed for weights, shuffling, augmentation and the splits"));
  ConfigField threads;
  threads.key = "train.threads";
  threads.kind = FieldKind::Threads;
  threads.min = 0;
  threads.max = 1024;
  threads.intRef = TW_TRAIN(threads);
  threads.doc = "cores for this run: 'auto' (0) picks LibTorch and BLAS threads without oversubscription";
  section = "resources";
  add(threads);
  section = "metrics";
  add(intField("train.log_every", TW_TRAIN(logEvery), 1, std::nullopt, "log train/loss every N steps"));
  section = "early stopping";
  add(stringField("train.monitor", TW_TRAIN(monitor), {},
                          "metric for early stopping, plateau and the best checkpoint (val/loss: lower is better)"));
  add(intField("train.patience", TW_TRAIN(patience), 0, std::nullopt,
                       "stop after this many epochs without improvement of the monitor (0 = never)"));
  add(floatField("train.min_delta", TW_TRAIN(minDelta), 0.0, 1e6, "smallest change that counts as improvement"));
  section = "checkpoints";
  add(intField("train.checkpoint_every", TW_TRAIN(checkpointEvery), 0, std::nullopt,
                       "also checkpoint every N optimiser steps (0 = at the end of each epoch only)"));
  add(intField("train.keep_epochs", TW_TRAIN(keepEpochs), 0, 100000,
               "keep the checkpoint at the end of each of the newest N epochs as epoch-N, for init_from, "
               "export and predict (0 = none)"));
  section = "metrics";
  add(intField("train.top_k", TW_TRAIN(topK), 1, 1000, "k of the top-k accuracy"));
  // --- distributed ---
#define TW_DIST(member) [](RunConfig &c) -> decltype(c.distributed.member) & { return c.distributed.member; }
  section = "distributed";
  add(intField("distributed.nproc_per_node", TW_DIST(nprocPerNode), 1, 1024,
                       "training processes (ranks) on this machine; data.batch_size is split among all ranks"));
  add(stringField("distributed.backend", TW_DIST(backend), {"auto", "gloo", "nccl"},
                          "c10d backend: auto = NCCL on CUDA devices, Gloo on the CPU"));
  add(intField("distributed.max_restarts", TW_DIST(maxRestarts), 0, 1000,
                       "restart all ranks from the last checkpoint this many times after a rank dies"));
  add(floatField("distributed.bucket_mb", TW_DIST(bucketMb), 0.01, 1024.0,
                         "gradients are all-reduced in buckets of this size, overlapping the backward pass"));
  add(boolField("distributed.broadcast_buffers", TW_DIST(broadcastBuffers),
                        "copy rank 0's buffers (batch-norm statistics) to every rank before each step"));
  add(intField("distributed.timeout_s", TW_DIST(timeoutS), 1, 86400,
                       "seconds a collective may wait for a peer before the rank fails"));
  add(stringField("distributed.shard", TW_DIST(shard), {"none", "optimizer", "gradients"},
                  "split the optimiser state (optimizer) and the summed gradients too (gradients) across the "
                  "ranks instead of every rank holding all of it (ZeRO stage 1 and 2)"));
#undef TW_DIST
  // --- tracking ---
  section = "tracking";
  add(stringField("tracking.experiment",
                          [](RunConfig &c) -> std::string & { return c.tracking.experiment; }, {},
                          "experiment the run belongs to"));
  add(stringField("tracking.run_name",
                          [](RunConfig &c) -> std::string & { return c.tracking.runName; }, {},
                          "run label; generated when empty"));
  add(stringField("tracking.tensorboard", [](RunConfig &c) -> std::string & { return c.tracking.tensorboard; }, {},
                  "also write the run's metrics as TensorBoard event files while it trains, into "
                  "<folder>/<run name>_<id> (relative to the run file's folder); empty: none"));
  return f;
}

#undef TW_DATA
#undef TW_TRAIN

}  // namespace

const std::vector<ConfigField> &configFields() {
  static const std::vector<ConfigField> fields = makeFields();
  return fields;
}

const ConfigField *findConfigField(const std::string &key) {
  for (const auto &field : configFields())
    if (field.key == key) return &field;
  return nullptr;
}

std::vector<std::string> speedOnlyKeys() {
  std::vector<std::string> keys;
  for (const ConfigField &field : configFields())
    if (field.speedOnly) keys.push_back(field.key);
  return keys;
}

bool appliesToSource(const std::string &key, const std::string &dataset) {
  const ConfigField *field = findConfigField(key);
  if (!field || field->sources.empty() || dataset.empty()) return true;
  return std::find(field->sources.begin(), field->sources.end(), dataset) != field->sources.end();
}

bool appliesToSchedule(const std::string &key, const std::string &schedule) {
  const ConfigField *field = findConfigField(key);
  if (!field || field->schedules.empty() || schedule.empty()) return true;
  return std::find(field->schedules.begin(), field->schedules.end(), schedule) != field->schedules.end();
}

std::string fieldKindName(FieldKind kind) {
  switch (kind) {
    case FieldKind::Int: return "int";
    case FieldKind::Float: return "float";
    case FieldKind::Bool: return "bool";
    case FieldKind::String: return "string";
    case FieldKind::Threads: return "int or auto";
    case FieldKind::IntList: return "list of int";
    case FieldKind::StringList: return "list of string";
  }
  return "unknown";
}

namespace {

// Integers as integers (1048576, not 1048576.000000); other numbers in their shortest exact form.
std::string boundText(double value) {
  if (std::floor(value) == value && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  char text[32];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(text, sizeof text, "%.*g", precision, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

}  // namespace

std::string rangeText(const ConfigField &field) {
  if (field.min && field.max) return "[" + boundText(*field.min) + ", " + boundText(*field.max) + "]";
  if (field.min) return ">= " + boundText(*field.min);
  if (field.max) return "<= " + boundText(*field.max);
  return {};
}

bool isIdentityKey(const std::string &key) {
  return key == "tracking.experiment" || key == "tracking.run_name" || key == "model.file" || key == "data.path";
}

}  // namespace tw::config
