#pragma once
// The one table of run-file keys: each with its kind, range, default (from RunConfig's
// initialisers) and doc. Parsing, overrides, serialisation and `torchwright config --keys` all
// walk this table, so a new option is one row.

#include "core/config/run_config.h"

#include <functional>
#include <utility>
#include <optional>
#include <string>
#include <vector>

namespace YAML { class Node; }

namespace tw::config {

enum class FieldKind { Int, Float, Bool, String, Threads, IntList, StringList };

struct ConfigField {
  std::string key;  // dotted: "train.lr"
  FieldKind kind = FieldKind::String;
  std::optional<double> min, max;   // inclusive, numbers only
  std::vector<std::string> choices; // strings only; empty = any
  std::string doc;
  // The data sources (data.dataset choices) the key means something for; empty = every source.
  // A CSV column name says nothing about an IDX run: Compare offers a key only for its runs'
  // sources.
  std::vector<std::string> sources;
  // What the key is about, for forms that group keys: "data", "splits", "augmentation",
  // "optimiser", "schedule", "regularisation", "loss", "training", "early stopping",
  // "checkpoints", "precision", "seed", "metrics", "resources", "distributed", "tracking".
  std::string section;
  // The learning-rate schedules (train.schedule choices) the key means something for; empty =
  // whatever the schedule. Forms show a schedule's keys only while that schedule is chosen.
  std::vector<std::string> schedules;
  // The key changes how fast a run trains, never what it trains (decode threads, prefetch, the
  // decoded cache): `train --resume RUN --set KEY=VALUE` may change it, and the resumed run ends
  // bit-identical all the same.
  bool speedOnly = false;
  // A list key whose items may also be written as maps ({epoch: 3, nodes: [h2]}): turns one
  // map's entries (a key with its value or values) into the item's text, or throws
  // std::invalid_argument saying what an item should be.
  std::function<std::string(const std::vector<std::pair<std::string, std::vector<std::string>>> &)> mapItem;
  // Accessors into RunConfig; exactly one pair is set, matching `kind`.
  std::function<int64_t &(RunConfig &)> intRef;
  std::function<double &(RunConfig &)> floatRef;
  std::function<bool &(RunConfig &)> boolRef;
  std::function<std::string &(RunConfig &)> stringRef;
  std::function<std::vector<int64_t> &(RunConfig &)> intListRef;
  std::function<std::vector<std::string> &(RunConfig &)> stringListRef;
};

const std::vector<ConfigField> &configFields();

// Parameters that name a run or say where its files are (its experiment, its name, the model
// file's path, the data's path) rather than how it was trained: Compare never counts them as
// differing (the data itself is compared by its fingerprint, the model by its hash).
bool isIdentityKey(const std::string &key);
const ConfigField *findConfigField(const std::string &key);
// Whether `key` means something for runs of the data source `dataset` (a data.dataset value):
// true for keys of every source, for keys outside the table (model.*) and for an empty dataset.
//   appliesToSource("data.target", "csv")            // true
//   appliesToSource("data.target", "fashion-mnist")  // false
bool appliesToSource(const std::string &key, const std::string &dataset);
// Whether `key` means something under the schedule `schedule` (a train.schedule value): true for
// keys of every schedule, for keys outside the table and for an empty schedule.
//   appliesToSchedule("train.step_size", "step")     // true
//   appliesToSchedule("train.step_size", "cosine")   // false
bool appliesToSchedule(const std::string &key, const std::string &schedule);

// The keys a resumed run may change (ConfigField::speedOnly), in table order.
std::vector<std::string> speedOnlyKeys();

// "int", "float", "bool", "string", "int or auto", "list of int", "list of string".
std::string fieldKindName(FieldKind kind);
// The field's bounds as a person writes them, integers as integers: "[1, 1048576]", ">= 0",
// "[0, 0.9]"; empty when unbounded.
std::string rangeText(const ConfigField &field);

}  // namespace tw::config
