#pragma once
// What `torchwright sweep` shows while it runs. On a terminal: one status line redrawn in place
// (trials done, running, pruned, failed, the best so far, the time, trials a minute and the time
// left by the budget), with each event printed
// above it. Otherwise (a pipe, a log file, Studio's detached driver): one plain line per event.

#include "core/search/trial.h"
#include "tracking/study_record.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::cli {

struct SweepCounts {
  int complete = 0, running = 0, pruned = 0, failed = 0;
  int budgetTrials = 0;   // 0 = no trial limit
  double budgetMinutes = 0.0;
  std::string best;       // "0.8731 (trial 4)"; empty before any trial completed
  int64_t elapsedMs = 0;
};

// The states of a study's trials and its best value so far ("0.8731 (trial 4)", or the size of
// the Pareto front); the caller fills in the budget and the time.
SweepCounts countTrials(const std::vector<tracking::TrialRecord> &trials,
                        const std::vector<search::Direction> &directions);

class SweepProgress {
 public:
  explicit SweepProgress(bool terminal) : m_terminal(terminal) {}
  // An event ("trial 3 COMPLETE: val/accuracy 0.8123, the best so far"), on a line of its own.
  void event(const std::string &line);
  // Redraws the status line (terminal only; rate-limited by the caller).
  void status(const SweepCounts &counts);
  // Leaves the terminal on a fresh line.
  void finish();

  static std::string summary(const SweepCounts &counts);

 private:
  void clearLine();
  bool m_terminal;
  bool m_statusShown = false;
  std::string m_lastStatus;
};

}  // namespace tw::cli
