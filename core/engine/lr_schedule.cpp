#include "core/engine/lr_schedule.h"

#include "core/config/metric_direction.h"

#include <algorithm>
#include <cmath>

namespace tw::engine {

namespace {

constexpr double kPi = 3.14159265358979323846;

double cosineBetween(double from, double to, double progress) {
  return to + (from - to) * 0.5 * (1.0 + std::cos(kPi * std::clamp(progress, 0.0, 1.0)));
}

}  // namespace

LrSchedule::LrSchedule(const config::TrainOptions &options, int64_t stepsPerEpoch)
    : m_options(options), m_totalSteps(std::max<int64_t>(1, stepsPerEpoch) * std::max<int64_t>(1, options.epochs)) {}

double LrSchedule::rate(int64_t step, int64_t epoch) const {
  const config::TrainOptions &o = m_options;
  const double base = o.lr;
  const int64_t warmup = std::min(o.warmupSteps, m_totalSteps);
  const int64_t epochIndex = std::max<int64_t>(0, epoch - 1);  // epochs completed before this one
  // Steps after the warm-up, as a share of those left: cosine and onecycle span exactly the rest.
  const double afterWarmup = static_cast<double>(std::max<int64_t>(0, step - warmup));
  const double progress = afterWarmup / static_cast<double>(std::max<int64_t>(1, m_totalSteps - warmup));

  double lr = base;
  if (o.schedule == "step") {
    lr = base * std::pow(o.gamma, static_cast<double>(epochIndex / std::max<int64_t>(1, o.stepSize)));
  } else if (o.schedule == "multistep") {
    const auto passed = std::count_if(o.milestones.begin(), o.milestones.end(),
                                      [&](int64_t m) { return m <= epochIndex; });
    lr = base * std::pow(o.gamma, static_cast<double>(passed));
  } else if (o.schedule == "exponential") {
    lr = base * std::pow(o.gamma, static_cast<double>(epochIndex));
  } else if (o.schedule == "cosine") {
    lr = cosineBetween(base, o.minLr, progress);
  } else if (o.schedule == "onecycle") {
    // PyTorch's OneCycleLR defaults: start at lr/25, peak at lr, end at lr/25/1e4, cosine phases.
    const double initial = base / 25.0, final = initial / 1e4;
    const double rise = std::max(1e-12, o.pctStart);
    lr = progress < rise ? cosineBetween(initial, base, progress / rise)
                         : cosineBetween(base, final, (progress - rise) / std::max(1e-12, 1.0 - rise));
  } else if (o.schedule == "plateau") {
    lr = std::max(o.minLr, base * m_plateau.scale);
  }
  if (step < warmup) lr *= static_cast<double>(step + 1) / static_cast<double>(warmup);
  return lr;
}

void LrSchedule::endOfEpoch(double monitor, bool lowerIsBetter) {
  if (m_options.schedule != "plateau" || !std::isfinite(monitor)) return;
  const bool improved =
      !m_plateau.haveBest || config::metrics::improves(monitor, m_plateau.best, lowerIsBetter, m_options.minDelta);
  if (improved) {
    m_plateau.best = monitor;
    m_plateau.haveBest = true;
    m_plateau.badEpochs = 0;
    return;
  }
  if (++m_plateau.badEpochs > m_options.plateauPatience) {
    m_plateau.scale *= m_options.gamma;
    m_plateau.badEpochs = 0;
  }
}

}  // namespace tw::engine
