#pragma once
// Which of a run's checkpoints a command means: "best", "last" or "epoch-N". A run always keeps
// last.pt (and best.pt when it validates); epoch-N.pt is the end of epoch N, kept for the newest
// `train.keep_epochs` epochs. init_from, export, predict and the trainer name files by this rule.
// Torch-free.

#include <cstdint>
#include <string>
#include <vector>

namespace tw::config {

struct CheckpointChoice {
  std::string name;     // "best", "last" or "epoch-N"; the file is checkpoints/<name>.pt
  int64_t epoch = 0;    // N for "epoch-N", 0 otherwise
  std::string problem;  // why the text names no checkpoint; empty when it does
  std::string file() const { return name + ".pt"; }
};

CheckpointChoice parseCheckpointChoice(const std::string &text);
std::string epochCheckpointName(int64_t epoch);  // "epoch-3"
// <runDir>/checkpoints/<name>.pt, kept inside that folder by config/safe_path.h (a checkpoint that
// is a symbolic link out of it is refused; an epoch checkpoint is a hard link of last.pt, which
// is allowed). Throws std::runtime_error naming the checkpoint; whether the file exists is the caller's.
std::string checkpointFile(const std::string &runDir, const CheckpointChoice &choice);

// The epochs whose checkpoints a run's checkpoint folder holds, ascending.
std::vector<int64_t> keptEpochs(const std::string &checkpointDir);
// Why `choice` is not in the folder, for a message: "it keeps epoch-4 and epoch-5 (train.keep_epochs)".
std::string missingCheckpointHint(const std::string &checkpointDir, const CheckpointChoice &choice);

// For usage lines and messages.
inline constexpr const char *kCheckpointChoices = "best|last|epoch-N";

}  // namespace tw::config
