#include "ui/charts/run_timeline.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::ui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

QString xAxisTitle(XAxisKind kind, double timeUnitSeconds) {
  switch (kind) {
    case XAxisKind::Step: return QCoreApplication::translate("tw::ui::MetricChart", "Step");
    case XAxisKind::Epoch: return QCoreApplication::translate("tw::ui::MetricChart", "Epoch");
    case XAxisKind::WallTime: break;
  }
  if (timeUnitSeconds >= 3600) return QCoreApplication::translate("tw::ui::MetricChart", "Time since start (h)");
  if (timeUnitSeconds >= 60) return QCoreApplication::translate("tw::ui::MetricChart", "Time since start (min)");
  return QCoreApplication::translate("tw::ui::MetricChart", "Time since start (s)");
}

double timeUnitFor(double seconds) {
  // Up to 10 minutes in seconds, up to 10 hours in minutes: the labels stay short numbers.
  if (seconds <= 600) return 1.0;
  if (seconds <= 36000) return 60.0;
  return 3600.0;
}

void RunTimeline::addEpochs(const std::vector<tracking::MetricPoint> &points) {
  for (const tracking::MetricPoint &p : points) {
    if (!std::isfinite(p.value)) continue;
    if (!m_ends.empty() && p.step <= m_ends.back().step) continue;
    m_ends.push_back({p.step, p.value, p.timeMs});
    noteTime(p.timeMs);
  }
}

void RunTimeline::noteTime(int64_t timeMs) {
  if (timeMs > 0 && (m_firstMs == 0 || timeMs < m_firstMs)) m_firstMs = timeMs;
}

double RunTimeline::epochAt(double step) const {
  if (m_ends.empty()) return kNaN;
  // Epoch e ended at m_ends[i]; the one before it (or step 0, epoch 0) starts the segment.
  auto after = std::lower_bound(m_ends.begin(), m_ends.end(), step, [](const End &e, double s) { return e.step < s; });
  if (after == m_ends.end()) {
    // An epoch in progress: as long as the last one, in steps.
    const End &last = m_ends.back();
    const double fromStep = m_ends.size() > 1 ? static_cast<double>(m_ends[m_ends.size() - 2].step) : 0.0;
    const double fromEpoch = m_ends.size() > 1 ? m_ends[m_ends.size() - 2].epoch : 0.0;
    const double length = static_cast<double>(last.step) - fromStep;
    if (!(length > 0)) return last.epoch;
    return last.epoch + (step - static_cast<double>(last.step)) * (last.epoch - fromEpoch) / length;
  }
  const double toStep = static_cast<double>(after->step);
  const double fromStep = after == m_ends.begin() ? 0.0 : static_cast<double>((after - 1)->step);
  const double fromEpoch = after == m_ends.begin() ? after->epoch - 1.0 : (after - 1)->epoch;
  if (!(toStep > fromStep)) return after->epoch;
  return fromEpoch + (step - fromStep) / (toStep - fromStep) * (after->epoch - fromEpoch);
}

double RunTimeline::secondsAt(int64_t timeMs) const {
  if (timeMs <= 0) return kNaN;
  const int64_t start = m_startMs > 0 ? m_startMs : m_firstMs;
  if (start <= 0) return kNaN;
  return static_cast<double>(timeMs - start) / 1000.0;
}

double RunTimeline::secondsAtStep(double step) const {
  auto at = std::lower_bound(m_ends.begin(), m_ends.end(), step, [](const End &e, double s) { return e.step < s; });
  if (at == m_ends.end()) return kNaN;
  return secondsAt(at->timeMs);
}

}  // namespace tw::ui
