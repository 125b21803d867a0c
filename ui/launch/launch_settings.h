#pragma once
// Settings given as dotted keys (a sweep trial's parameters) applied to the Launch page: to its
// config-table widgets (kConfigKeyProperty), to the model's fields through the undoable
// document, and, for run-file keys the form has no widget for, into the run file's text.
//
//   page->applySettings({{"train.lr", "0.003"}, {"model.fc1.out_features", "256"}});

#include <QString>

#include <map>
#include <string>

namespace tw::ui {

// The run file's text with each dotted key set (`train.weight_decay` -> train: {weight_decay:}),
// values as written; a leading comment is kept.
QString withSettings(const QString &yaml, const std::map<std::string, std::string> &settings);

}  // namespace tw::ui
