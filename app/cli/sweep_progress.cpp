#include "app/cli/sweep_progress.h"

#include "app/cli/study_trials.h"
#include "app/cli/table_printer.h"

#include "core/config/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tw::cli {

SweepCounts countTrials(const std::vector<tracking::TrialRecord> &trials,
                        const std::vector<search::Direction> &directions) {
  SweepCounts c;
  for (const auto &t : trials) {
    if (t.state == "COMPLETE") ++c.complete;
    else if (t.state == "PRUNED") ++c.pruned;
    else if (t.state == "FAILED") ++c.failed;
    else if (t.state == "RUNNING") ++c.running;
  }
  if (directions.size() == 1) {
    if (const auto best = bestTrial(trials, directions.front()))
      c.best = formatMetric(best->values.front()) + " (trial " + std::to_string(best->number) + ")";
  } else if (const auto front = paretoFront(trials, directions); !front.empty()) {
    c.best = std::to_string(front.size()) + " on the Pareto front";
  }
  return c;
}

std::string SweepProgress::summary(const SweepCounts &c) {
  const int done = c.complete + c.pruned + c.failed;
  std::string out = "trials " + std::to_string(done);
  if (c.budgetTrials > 0) out += "/" + std::to_string(c.budgetTrials);
  out += " done (" + std::to_string(c.complete) + " complete, " + std::to_string(c.pruned) + " pruned, " +
         std::to_string(c.failed) + " failed), " + std::to_string(c.running) + " running";
  out += c.best.empty() ? ", no best yet" : ", best " + c.best;
  out += ", " + formatDuration(c.elapsedMs);
  if (c.budgetMinutes > 0) out += " of " + formatDuration(static_cast<int64_t>(c.budgetMinutes * 60000.0));
  // The rate once a trial has ended; the time left by the trial budget at that rate, or by the
  // time budget, whichever ends the sweep first.
  if (done > 0 && c.elapsedMs > 0) {
    const double perMinute = done / (double(c.elapsedMs) / 60000.0);
    out += ", " + config::formatNumber(perMinute, 3) + " trials/min";
    int64_t leftMs = -1;
    if (c.budgetTrials > done) leftMs = std::llround((c.budgetTrials - done) / perMinute * 60000.0);
    if (c.budgetMinutes > 0) {
      const int64_t byTime = std::max<int64_t>(0, static_cast<int64_t>(c.budgetMinutes * 60000.0) - c.elapsedMs);
      leftMs = leftMs < 0 ? byTime : std::min(leftMs, byTime);
    }
    if (leftMs > 0) out += ", " + formatDuration(leftMs) + " left";
  }
  return out;
}

void SweepProgress::clearLine() {
  if (m_terminal && m_statusShown) {
    std::fputs("\r\033[2K", stdout);
    m_statusShown = false;
  }
}

void SweepProgress::event(const std::string &line) {
  clearLine();
  std::printf("%s\n", line.c_str());
  if (m_terminal && !m_lastStatus.empty()) {
    std::fputs(m_lastStatus.c_str(), stdout);
    m_statusShown = true;
  }
  std::fflush(stdout);
}

void SweepProgress::status(const SweepCounts &counts) {
  if (!m_terminal) return;
  m_lastStatus = summary(counts);
  clearLine();
  std::fputs(m_lastStatus.c_str(), stdout);
  m_statusShown = true;
  std::fflush(stdout);
}

void SweepProgress::finish() {
  clearLine();
  m_lastStatus.clear();
  std::fflush(stdout);
}

}  // namespace tw::cli
