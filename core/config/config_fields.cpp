#include "core/config/config_fields.h"

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

std::vector<ConfigField> makeFields() {
  std::vector<ConfigField> f;
  f.push_back(stringField("data.dataset", [](RunConfig &c) -> std::string & { return c.data.dataset; },
                          {"fashion-mnist", "mnist"}, "IDX dataset of the MNIST family"));
  f.push_back(stringField("data.path", [](RunConfig &c) -> std::string & { return c.data.path; }, {},
                          "folder with the IDX files; empty = the Debian package's folder"));
  f.push_back(intField("data.train_limit", [](RunConfig &c) -> int64_t & { return c.data.trainLimit; },
                       0, std::nullopt, "use only the first N training images (0 = all)"));
  f.push_back(intField("data.test_limit", [](RunConfig &c) -> int64_t & { return c.data.testLimit; },
                       0, std::nullopt, "use only the first N test images (0 = all)"));
  f.push_back(floatField("data.val_fraction", [](RunConfig &c) -> double & { return c.data.valFraction; },
                         0.0, 0.9, "share of the training images held out for validation"));
  f.push_back(intField("data.batch_size", [](RunConfig &c) -> int64_t & { return c.data.batchSize; },
                       1, 1 << 20, "samples per optimiser step"));
  f.push_back(boolField("data.shuffle", [](RunConfig &c) -> bool & { return c.data.shuffle; },
                        "reshuffle the training set every epoch (from the seed)"));
  f.push_back(boolField("data.normalize", [](RunConfig &c) -> bool & { return c.data.normalize; },
                        "standardise pixels with the training split's mean and std"));
  f.push_back(stringField("train.optimizer", [](RunConfig &c) -> std::string & { return c.train.optimizer; },
                          {"sgd", "adam", "adamw"}, "optimiser"));
  f.push_back(floatField("train.lr", [](RunConfig &c) -> double & { return c.train.lr; }, 0.0, 1e3,
                         "learning rate"));
  f.push_back(floatField("train.momentum", [](RunConfig &c) -> double & { return c.train.momentum; }, 0.0,
                         1.0, "SGD momentum"));
  f.push_back(floatField("train.weight_decay", [](RunConfig &c) -> double & { return c.train.weightDecay; },
                         0.0, 1.0, "L2 penalty (decoupled for adamw)"));
  f.push_back(floatField("train.beta1", [](RunConfig &c) -> double & { return c.train.beta1; }, 0.0, 1.0,
                         "Adam first-moment decay"));
  f.push_back(floatField("train.beta2", [](RunConfig &c) -> double & { return c.train.beta2; }, 0.0, 1.0,
                         "Adam second-moment decay"));
  f.push_back(intField("train.epochs", [](RunConfig &c) -> int64_t & { return c.train.epochs; }, 1, 1e6,
                       "passes over the training split"));
  f.push_back(intField("train.seed", [](RunConfig &c) -> int64_t & { return c.train.seed; }, 0,
                       std::nullopt, "seed for weights, shuffling and the validation split"));
  ConfigField threads;
  threads.key = "train.threads";
  threads.kind = FieldKind::Threads;
  threads.min = 0;
  threads.max = 1024;
  threads.intRef = [](RunConfig &c) -> int64_t & { return c.train.threads; };
  threads.doc = "cores for this run: 'auto' (0) picks LibTorch and BLAS threads without oversubscription";
  f.push_back(threads);
  f.push_back(stringField("train.loss", [](RunConfig &c) -> std::string & { return c.train.loss; },
                          {"cross_entropy"}, "loss function"));
  f.push_back(intField("train.log_every", [](RunConfig &c) -> int64_t & { return c.train.logEvery; }, 1,
                       std::nullopt, "log train/loss every N steps"));
  f.push_back(stringField("tracking.experiment",
                          [](RunConfig &c) -> std::string & { return c.tracking.experiment; }, {},
                          "experiment the run belongs to"));
  f.push_back(stringField("tracking.run_name",
                          [](RunConfig &c) -> std::string & { return c.tracking.runName; }, {},
                          "run label; generated when empty"));
  return f;
}

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

}  // namespace tw::config
