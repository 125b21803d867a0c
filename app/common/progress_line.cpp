#include "app/common/progress_line.h"

#include "app/common/value_text.h"

#include "core/config/number_text.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace tw::app {

std::string progressText(const std::string &verb, const std::string &unit, int64_t done, int64_t total, double seconds,
                         int64_t first) {
  using config::formatNumber;
  std::string text = verb + " " + formatNumber(double(done)) + " / " + formatNumber(double(total)) + " " + unit;
  text += " (" + std::to_string(total > 0 ? 100 * done / total : 100) + "%)";
  if (seconds >= 1.0 && done > first) {
    const double rate = double(done - first) / seconds;
    text += ", " + formatNumber(rate, 3) + " " + unit + "/s";
    if (done < total) text += ", " + formatDuration(std::llround(double(total - done) / rate * 1000.0)) + " left";
  }
  return text;
}

ProgressLine::ProgressLine(std::string verb, std::string unit, int64_t total, ProgressOptions options)
    : m_verb(std::move(verb)), m_unit(std::move(unit)), m_total(total), m_first(options.first),
      m_stream(options.onStdout ? stdout : stderr),
      m_terminal(options.enabled && ::isatty(options.onStdout ? STDOUT_FILENO : STDERR_FILENO) != 0),
      m_done(options.first), m_start(std::chrono::steady_clock::now()), m_lastDrawn(m_start - std::chrono::seconds(1)) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::say(const std::string &line) {
  if (m_terminal && !m_finished) std::fputs("\r\033[K", m_stream), std::fflush(m_stream);
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  if (m_terminal && !m_finished) {
    m_lastDrawn = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    update(m_done);
  }
}

void ProgressLine::update(int64_t done) {
  m_done = done;
  if (!m_terminal || m_finished) return;
  const auto now = std::chrono::steady_clock::now();
  if (done < m_total && now - m_lastDrawn < std::chrono::milliseconds(200)) return;
  m_lastDrawn = now;
  const double seconds = std::chrono::duration<double>(now - m_start).count();
  // \r and erase-to-end: a shorter line leaves nothing of the longer one before it.
  std::fprintf(m_stream, "\r%s\033[K", progressText(m_verb, m_unit, done, m_total, seconds, m_first).c_str());
  std::fflush(m_stream);
}

void ProgressLine::finish() {
  if (!m_terminal || m_finished) return;
  m_finished = true;
  std::fputc('\n', m_stream);
  std::fflush(m_stream);
}

}  // namespace tw::app
