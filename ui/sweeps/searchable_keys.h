#pragma once
// The keys a sweep may search, as the Sweeps form offers them: every run-file key of the config
// table that a distribution can cover (numbers, booleans, strings with choices) and every typed
// field of the model (`model.<node id>.<field>`, as core/sweep's model_fields.h finds them with
// the layer registry's definitions), each with its type, allowed range, choices and current
// value. Read from those tables, never listed here.
//
//   for (const SearchableKey &key : searchableKeys(document->toYaml().toStdString())) combo->addItem(key.key);

#include "core/search/space.h"

#include <optional>
#include <string>
#include <vector>

namespace tw::ui {

struct SearchableKey {
  std::string key;                   // "train.lr", "model.fc1.out_features"
  search::ParamType type = search::ParamType::Float;
  std::optional<double> min, max;    // the key's allowed range (inclusive), numbers only
  std::vector<std::string> choices;  // categorical: the allowed values
  std::string current;               // the value the base run has now, as text
  std::string doc;
  std::string section;               // the config table's section ("optimiser"); empty for model fields
};

// Config-table keys first (table order), then the model's fields in file order.
std::vector<SearchableKey> searchableKeys(const std::string &modelYaml);

// The key a new row starts with: the first numeric key of the optimiser section in the config
// table's order (train.lr), the key most searches start with, else the first key; a key already
// in `taken` is passed over for the next one the same rule picks. Empty when there is none.
std::string firstKeyToSearch(const std::vector<SearchableKey> &keys, const std::vector<std::string> &taken = {});

// A distribution to start a new row with: around the current value within the allowed range
// (floats a decade either side, log-scaled when positive; ints half to double), every choice.
search::ParamSpec suggestedParam(const SearchableKey &key);

// "[0, 1000]", ">= 1", "adam, sgd": the allowed values as the form shows them.
std::string allowedText(const SearchableKey &key);

}  // namespace tw::ui
