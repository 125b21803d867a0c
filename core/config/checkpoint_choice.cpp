#include "core/config/checkpoint_choice.h"

#include "core/config/safe_path.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace tw::config {

std::string epochCheckpointName(int64_t epoch) { return "epoch-" + std::to_string(epoch); }

std::string checkpointFile(const std::string &runDir, const CheckpointChoice &choice) {
  return pathInside((std::filesystem::path(runDir) / "checkpoints").string(), choice.file(),
                    "the " + choice.name + " checkpoint", HardLinks::Allow);
}

CheckpointChoice parseCheckpointChoice(const std::string &text) {
  CheckpointChoice out;
  out.name = text;
  if (text == "best" || text == "last") return out;
  static const std::string prefix = "epoch-";
  const std::string digits = text.rfind(prefix, 0) == 0 ? text.substr(prefix.size()) : std::string();
  const bool number = !digits.empty() && digits.size() <= 9 && digits[0] != '0' &&
                      std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!number) {
    out.problem = "'" + text + "' names no checkpoint (expected best, last or epoch-N with N from 1)";
    return out;
  }
  out.epoch = std::stoll(digits);
  return out;
}

std::vector<int64_t> keptEpochs(const std::string &checkpointDir) {
  std::vector<int64_t> epochs;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(checkpointDir, ec)) {
    const std::filesystem::path file = entry.path();
    if (file.extension() != ".pt") continue;
    const CheckpointChoice choice = parseCheckpointChoice(file.stem().string());
    if (choice.problem.empty() && choice.epoch > 0) epochs.push_back(choice.epoch);
  }
  std::sort(epochs.begin(), epochs.end());
  return epochs;
}

std::string missingCheckpointHint(const std::string &checkpointDir, const CheckpointChoice &choice) {
  if (choice.name == "best") return "a run without validation keeps only last";
  if (choice.epoch == 0) return "the run ended before its first checkpoint";
  const std::vector<int64_t> epochs = keptEpochs(checkpointDir);
  if (epochs.empty()) return "the run kept no epoch checkpoints (train.keep_epochs was 0)";
  std::string list;
  for (size_t i = 0; i < epochs.size(); ++i)
    list += (i == 0 ? "" : i + 1 == epochs.size() ? " and " : ", ") + epochCheckpointName(epochs[i]);
  return "it keeps " + list + " (the newest train.keep_epochs epochs)";
}

}  // namespace tw::config
