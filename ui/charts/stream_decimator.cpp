#include "ui/charts/stream_decimator.h"

#include <algorithm>
#include <cmath>

namespace tw::ui {

StreamDecimator::StreamDecimator(int64_t firstStep, int64_t lastStep, int maxPoints)
    : m_firstStep(firstStep), m_lastStep(std::max(firstStep, lastStep)), m_maxPoints(std::max(4, maxPoints)) {}

void StreamDecimator::add(const tracking::MetricPoint &point) {
  if (!std::isfinite(point.value)) return;
  if (!m_first) m_first = point;
  m_last = point;
  if (m_buckets.empty()) {
    m_exact.push_back(point);
    if (static_cast<int>(m_exact.size()) > m_maxPoints) toBuckets();
    return;
  }
  addToBucket(point);
}

void StreamDecimator::toBuckets() {
  // Two points per bucket, two more for the first and the last.
  m_buckets.assign(static_cast<size_t>((m_maxPoints - 2) / 2), Bucket{});
  for (const auto &point : m_exact) addToBucket(point);
  m_exact.clear();
  m_exact.shrink_to_fit();
}

void StreamDecimator::addToBucket(const tracking::MetricPoint &point) {
  // In double: a step span near INT64_MAX times the bucket count would overflow in integers.
  const double span = static_cast<double>(m_lastStep - m_firstStep) + 1.0;
  const double offset = static_cast<double>(point.step - m_firstStep);
  const auto last = static_cast<int64_t>(m_buckets.size()) - 1;
  const int64_t index = std::clamp<int64_t>(static_cast<int64_t>(offset / span * static_cast<double>(m_buckets.size())), 0, last);
  Bucket &bucket = m_buckets[static_cast<size_t>(index)];
  if (!bucket.used) {
    bucket.low = bucket.high = point;
    bucket.used = true;
    return;
  }
  if (point.value < bucket.low.value) bucket.low = point;
  if (point.value > bucket.high.value) bucket.high = point;
}

std::vector<tracking::MetricPoint> StreamDecimator::take() {
  std::vector<tracking::MetricPoint> out;
  if (m_buckets.empty()) {
    out.swap(m_exact);
  } else {
    out.reserve(m_buckets.size() * 2 + 2);
    out.push_back(*m_first);
    for (const Bucket &bucket : m_buckets) {
      if (!bucket.used) continue;
      out.push_back(bucket.low);
      out.push_back(bucket.high);
    }
    out.push_back(*m_last);
    // Steps are unique within a series, so equal steps are the same point kept twice.
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.step < b.step; });
    out.erase(std::unique(out.begin(), out.end(), [](const auto &a, const auto &b) { return a.step == b.step; }),
              out.end());
    m_buckets.clear();
  }
  m_first.reset();
  m_last.reset();
  return out;
}

}  // namespace tw::ui
