#include "app/cli/sweep_progress.h"

#include "app/cli/table_printer.h"

#include <cstdio>

namespace tw::cli {

std::string SweepProgress::summary(const SweepCounts &c) {
  const int done = c.complete + c.pruned + c.failed;
  std::string out = "trials " + std::to_string(done);
  if (c.budgetTrials > 0) out += "/" + std::to_string(c.budgetTrials);
  out += " done (" + std::to_string(c.complete) + " complete, " + std::to_string(c.pruned) + " pruned, " +
         std::to_string(c.failed) + " failed), " + std::to_string(c.running) + " running";
  out += c.best.empty() ? ", no best yet" : ", best " + c.best;
  out += ", " + formatDuration(c.elapsedMs);
  if (c.budgetMinutes > 0) out += " of " + formatDuration(static_cast<int64_t>(c.budgetMinutes * 60000.0));
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
