#pragma once
// A run's hyperparameters in the layout of TensorBoard's HParams plugin: summaries whose metadata
// names the plugin "hparams" and carries a serialized HParamsPluginData (version 0) — the
// experiment (each hyperparameter's name and type, each metric's tag), the session's start (its
// hyperparameter values) and its end (status and time). The metrics themselves are the run's
// scalars, which the plugin finds by tag in the same folder. Written in every run's own folder,
// as PyTorch's SummaryWriter.add_hparams does, so exports into one folder never rewrite each
// other's files. No Qt, no LibTorch.
//
//   events.summary(hparamsExperiment(params, metricTags, start), 0, start);
//   events.summary(hparamsSessionStart(params, start), 0, start);
//   events.summary(hparamsSessionEnd(HParamsStatus::Success, end), 0, end);

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tw::tracking {

// tensorboard.hparams.Status
enum class HParamsStatus { Unknown = 0, Success = 1, Failure = 2, Running = 3 };

// Each returns a serialized tensorboard Summary holding one value.
// A value is written as a number when its text is a number's shortest text (so it reads back the
// same), as a bool for "true" and "false", else as a string.
std::string hparamsExperiment(const std::map<std::string, std::string> &hparams,
                              const std::vector<std::string> &metricTags, double createdSecs);
std::string hparamsSessionStart(const std::map<std::string, std::string> &hparams, double startSecs);
std::string hparamsSessionEnd(HParamsStatus status, double endSecs);

// The hyperparameters of a session-start summary value (a Summary.Value message), each as text
// (numbers in their shortest form); nullopt when the value is not the HParams plugin's session
// start.
std::optional<std::map<std::string, std::string>> hparamsOfSummaryValue(std::string_view value);

}  // namespace tw::tracking
