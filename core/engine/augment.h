#pragma once
// Training-time augmentation of image batches [N, C, H, W]: random crop after zero padding,
// horizontal flip, random erasing. Validation and test never see it. Every draw comes
// from the batch's own seed, so a resumed run and a prefetch thread reproduce the same batches.
//
//   Augment augment(config.data);
//   if (augment.active()) x = augment.apply(x, mixSeed(seed, epoch * 1000003 + batch));

#include "core/config/run_config.h"

#include <torch/torch.h>

#include <cstdint>

namespace tw::engine {

class Augment {
 public:
  explicit Augment(const config::DataOptions &options);
  bool active() const { return m_cropPadding > 0 || m_flip > 0.0 || m_erase > 0.0; }
  torch::Tensor apply(const torch::Tensor &images, uint64_t seed) const;

 private:
  int64_t m_cropPadding;
  double m_flip, m_erase;
};

}  // namespace tw::engine
