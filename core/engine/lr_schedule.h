#pragma once
// Learning-rate schedules as a pure function of the position in training, plus the one piece of
// state that depends on results (plateau). Pure arithmetic, no LibTorch: a resumed run recomputes
// the same rate from (step, epoch) and the saved plateau state, and tests need no tensors.
//
//   LrSchedule schedule(config.train, /*stepsPerEpoch=*/422);
//   double lr = schedule.rate(step, epoch);        // before optimiser step `step` (0-based)
//   schedule.endOfEpoch(valLoss);                  // plateau only; a no-op otherwise

#include "core/config/run_config.h"

#include <cstdint>

namespace tw::engine {

struct PlateauState {
  double scale = 1.0;        // product of the decays applied so far
  double best = 0.0;
  bool haveBest = false;
  int64_t badEpochs = 0;
};

class LrSchedule {
 public:
  LrSchedule(const config::TrainOptions &options, int64_t stepsPerEpoch);

  // The rate for optimiser step `step` (0-based, counted over the whole run) taken during epoch
  // `epoch` (1-based). Warm-up ramps linearly over the first warmup_steps steps; the epoch-based
  // schedules (step, multistep, exponential) follow PyTorch's per-epoch semantics, the step-based
  // ones (cosine, onecycle) PyTorch's formulas over all the run's steps after the warm-up.
  double rate(int64_t step, int64_t epoch) const;

  // Plateau: `monitor` is the epoch's monitored value, `lowerIsBetter` its direction.
  void endOfEpoch(double monitor, bool lowerIsBetter);

  const PlateauState &plateau() const { return m_plateau; }
  void restore(const PlateauState &state) { m_plateau = state; }
  int64_t totalSteps() const { return m_totalSteps; }

 private:
  config::TrainOptions m_options;
  int64_t m_totalSteps = 0;
  PlateauState m_plateau;
};

}  // namespace tw::engine
