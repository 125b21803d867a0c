#include "tracking/history_compare.h"

#include <cstdio>
#include <set>

namespace tw::tracking {

namespace {

std::string exact(double v) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

bool contains(const std::string &s, const char *part) { return s.find(part) != std::string::npos; }

}  // namespace

bool isTimingMetric(const std::string &key) {
  return contains(key, "samples_per_sec") || contains(key, "data_wait") || key.rfind("time/", 0) == 0 ||
         key.rfind("system/", 0) == 0 || contains(key, "allreduce_share");
}

HistoryComparison compareHistories(const Store &store, int64_t runA, int64_t runB) {
  HistoryComparison result;
  std::set<std::string> keys;
  for (const auto &k : store.metricKeys(runA)) keys.insert(k);
  for (const auto &k : store.metricKeys(runB)) keys.insert(k);
  auto differ = [&](const std::string &what) {
    if (result.firstDifference.empty()) result.firstDifference = what;
  };
  for (const auto &key : keys) {
    if (isTimingMetric(key)) {
      result.skipped.push_back(key);
      continue;
    }
    const auto a = store.metricPoints(runA, key);
    const auto b = store.metricPoints(runB, key);
    ++result.seriesCompared;
    if (a.empty() || b.empty()) {
      differ(key + ": recorded by only one of the runs");
      continue;
    }
    size_t i = 0;
    for (; i < a.size() && i < b.size(); ++i) {
      ++result.pointsCompared;
      if (a[i].step != b[i].step) {
        differ(key + ": step " + std::to_string(a[i].step) + " in one run, " + std::to_string(b[i].step) +
               " in the other");
        break;
      }
      if (a[i].value != b[i].value) {
        differ(key + " at step " + std::to_string(a[i].step) + ": " + exact(a[i].value) + " vs " + exact(b[i].value));
        break;
      }
    }
    if (i == std::min(a.size(), b.size()) && a.size() != b.size())
      differ(key + ": " + std::to_string(a.size()) + " points vs " + std::to_string(b.size()));
  }
  result.identical = result.firstDifference.empty() && result.seriesCompared > 0;
  if (result.seriesCompared == 0) result.firstDifference = "no metrics to compare";
  return result;
}

}  // namespace tw::tracking
