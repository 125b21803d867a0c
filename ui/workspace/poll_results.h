#pragma once
// What the database poller hands to the UI thread: plain copies of tracking rows, so that a
// queued signal never shares state with the poller's thread.

#include "tracking/run_record.h"

#include <QMetaType>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tw::ui {

// A run as listed, with the latest value of every metric (read on the poller thread).
struct RunSnapshot {
  tracking::RunRecord run;
  std::vector<tracking::LatestMetric> latest;
  std::map<std::string, std::string> params;  // the flattened configuration
  std::map<std::string, std::string> tags;    // system tags, labels, note, archive mark

  const tracking::LatestMetric *latestMetric(const std::string &key) const {
    for (const auto &metric : latest)
      if (metric.key == key) return &metric;
    return nullptr;
  }
};

// Runs that are new or changed since the previous update.
struct RunsUpdate {
  std::vector<RunSnapshot> runs;
  // A poll that found many runs (a workspace opened) sends them in parts; true on every part
  // but the last. The next part comes when the receiver asks (DbPoller::sendMoreRuns).
  bool more = false;
};

// New points of one metric of the watched run, in step order.
struct SeriesChunk {
  std::string key;
  std::vector<tracking::MetricPoint> points;
};

// watchToken identifies the watch request: a chunk for an earlier selection of the same run
// can still be queued when the user comes back to it, and must not be appended twice.
struct MetricsUpdate {
  quint64 watchToken = 0;
  int64_t runId = 0;
  std::vector<SeriesChunk> series;
};

// Stalled: no poll has finished for DbPollerOptions::stallMs (a poll waiting on a lock, a
// poller thread that hangs); what is on screen may be old, and the status bar says so.
enum class DbState { Connecting, Ok, Unavailable, Stalled };

// Registers the types above for queued connections; safe to call more than once.
void registerPollMetaTypes();

}  // namespace tw::ui

Q_DECLARE_METATYPE(tw::ui::RunsUpdate)
Q_DECLARE_METATYPE(tw::ui::MetricsUpdate)
Q_DECLARE_METATYPE(tw::ui::DbState)
