#pragma once
// Long work's progress on a terminal: one line redrawn in place with the count, the share, the
// rate and the time left ("packing 1,200 / 9,000 examples (13%), 850 examples/s, 9 s left"). Not
// a terminal (a pipe, a log file, CI): nothing is drawn, and the command's own lines stand.
// The CLI's commands and the worker's training (whose stderr is the terminal `train` runs in)
// draw it alike.
//
//   ProgressLine progress("exporting", "runs", total);
//   for (...) { ...; progress.update(++done); }
//   progress.finish();

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace tw::app {

// The line itself, for `done` of `total` after `seconds`: the rate once a second has passed,
// the time left once there is a rate. `first`: where this process started counting (a resumed
// run's step), so the rate is of the work done here.
std::string progressText(const std::string &verb, const std::string &unit, int64_t done, int64_t total, double seconds,
                         int64_t first = 0);

struct ProgressOptions {
  bool enabled = true;    // a --json run passes false
  int64_t first = 0;      // progressText's `first`
  // Drawn on stdout instead of stderr: the worker's stderr is a pipe to its launcher, its stdout
  // the terminal `train` runs in.
  bool onStdout = false;
};

class ProgressLine {
 public:
  // Draws on stderr (or stdout) when that is a terminal and the options enable it.
  ProgressLine(std::string verb, std::string unit, int64_t total, ProgressOptions options = {});
  ~ProgressLine();
  void update(int64_t done);  // redrawn at most five times a second, and at the end
  // A line of the command's own output (stdout) while the progress line stands: the progress line
  // is cleared first and drawn again under it.
  void say(const std::string &line);
  void finish();              // ends the line (once)
  bool drawing() const { return m_terminal; }

 private:
  std::string m_verb, m_unit;
  int64_t m_total;
  int64_t m_first;
  std::FILE *m_stream;
  bool m_terminal;
  bool m_finished = false;
  int64_t m_done = 0;
  std::chrono::steady_clock::time_point m_start, m_lastDrawn;
};

}  // namespace tw::app
