#pragma once
// What a chart needs to draw a run's curves against epochs or wall time rather than steps: the
// steps at which its epochs ended (the engine's `epoch` metric, value e at the step epoch e
// ended) and when it started. Runs with different batch sizes take different steps per epoch;
// against epochs or time their curves line up.
//
//   RunTimeline timeline;
//   timeline.setStartMs(run.startMs);
//   timeline.addEpochs(epochPoints);        // the run's "epoch" rows, as the poller delivers them
//   double x = timeline.epochAt(1250);      // 2.5 when epoch 2 ended at step 1000 and 3 at 1500

#include "tracking/run_record.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace tw::ui {

// What the x axis of a metric chart counts.
enum class XAxisKind { Step, Epoch, WallTime };

// The axis title: "Step", "Epoch", "Time since start (min)" for a unit of 60 s.
QString xAxisTitle(XAxisKind kind, double timeUnitSeconds = 1.0);
// Seconds, minutes or hours, whichever keeps a span of `seconds` readable.
double timeUnitFor(double seconds);

class RunTimeline {
 public:
  // The run's start; 0 (not started, or unknown) takes the first time seen instead.
  void setStartMs(int64_t startMs) { m_startMs = startMs; }
  int64_t startMs() const { return m_startMs; }
  // Epoch rows in step order; rows at steps already known are ignored (a chunk read again).
  void addEpochs(const std::vector<tracking::MetricPoint> &points);
  // Notes a point's time, so that a run without a start time counts from its first point.
  void noteTime(int64_t timeMs);
  bool hasEpochs() const { return !m_ends.empty(); }

  // The epoch a step falls in, with the fraction of it done: step 0 is 0, the step at which
  // epoch e ended is e, steps in between are interpolated, and steps after the last ended epoch
  // are placed by that epoch's length (the one in progress). NaN before any epoch has ended.
  double epochAt(double step) const;
  // Seconds since the start; NaN for a point recorded without a time.
  double secondsAt(int64_t timeMs) const;
  // Seconds since the start at a step, from the epoch rows' times (for a figure recorded with
  // a step alone, such as the test set's): NaN when no epoch row is at or after the step.
  double secondsAtStep(double step) const;

 private:
  struct End {
    int64_t step;
    double epoch;
    int64_t timeMs;
  };
  std::vector<End> m_ends;
  int64_t m_startMs = 0;
  int64_t m_firstMs = 0;
};

}  // namespace tw::ui
