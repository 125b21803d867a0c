#include "app/cli/progress_line.h"

#include "core/config/number_text.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

namespace tw::cli {

namespace {

std::string duration(double seconds) {
  const auto s = static_cast<long long>(std::llround(seconds));
  char text[32];
  if (s >= 3600) std::snprintf(text, sizeof text, "%lldh%02lldm", s / 3600, s % 3600 / 60);
  else if (s >= 60) std::snprintf(text, sizeof text, "%lldm%02llds", s / 60, s % 60);
  else std::snprintf(text, sizeof text, "%llds", s);
  return text;
}

}  // namespace

std::string progressText(const std::string &verb, const std::string &unit, int64_t done, int64_t total, double seconds) {
  using config::formatNumber;
  std::string text = verb + " " + formatNumber(double(done)) + " / " + formatNumber(double(total)) + " " + unit;
  text += " (" + std::to_string(total > 0 ? 100 * done / total : 100) + "%)";
  if (seconds >= 1.0 && done > 0) {
    const double rate = double(done) / seconds;
    text += ", " + formatNumber(rate, 3) + " " + unit + "/s";
    if (done < total) text += ", " + duration(double(total - done) / rate) + " left";
  }
  return text;
}

ProgressLine::ProgressLine(std::string verb, std::string unit, int64_t total, bool enabled)
    : m_verb(std::move(verb)), m_unit(std::move(unit)), m_total(total), m_terminal(enabled && ::isatty(STDERR_FILENO) != 0),
      m_start(std::chrono::steady_clock::now()), m_lastDrawn(m_start - std::chrono::seconds(1)) {}

ProgressLine::~ProgressLine() { finish(); }

void ProgressLine::say(const std::string &line) {
  if (m_terminal && !m_finished) std::fputs("\r\033[K", stderr), std::fflush(stderr);
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
  std::fprintf(stderr, "\r%s\033[K", progressText(m_verb, m_unit, done, m_total, seconds).c_str());
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (!m_terminal || m_finished) return;
  m_finished = true;
  std::fputc('\n', stderr);
}

}  // namespace tw::cli
