#pragma once
// Min/max decimation for a series read in chunks, in bounded memory: the points go in one by one
// in step order and at most maxPoints come out, without the whole series ever being in memory.
// Up to maxPoints points are kept as they are; past that, the step range [firstStep, lastStep]
// is cut into equal buckets and each keeps its lowest and highest point, as minMaxDecimate()
// does for a series already in memory. The first and the last point always stay. Non-finite
// values are dropped (no chart can draw them).
//
//   StreamDecimator decimator(first.step, latest.step, 4000);
//   for (auto &chunk : chunks) for (auto &p : chunk) decimator.add(p);
//   std::vector<MetricPoint> shown = decimator.take();

#include "tracking/run_record.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tw::ui {

class StreamDecimator {
 public:
  // Steps past lastStep (a run still writing) fall into the last bucket. maxPoints below 4
  // is treated as 4.
  StreamDecimator(int64_t firstStep, int64_t lastStep, int maxPoints);
  void add(const tracking::MetricPoint &point);
  // The kept points in step order; the decimator is empty afterwards.
  std::vector<tracking::MetricPoint> take();

 private:
  struct Bucket {
    tracking::MetricPoint low, high;
    bool used = false;
  };
  void toBuckets();
  void addToBucket(const tracking::MetricPoint &point);

  int64_t m_firstStep;
  int64_t m_lastStep;
  int m_maxPoints;
  std::vector<tracking::MetricPoint> m_exact;  // while the series still fits as it is
  std::vector<Bucket> m_buckets;               // once it does not
  std::optional<tracking::MetricPoint> m_first, m_last;
};

}  // namespace tw::ui
