#pragma once
// The training losses, one function over (model output, targets). Engine-internal.
//
//   Loss loss(config.train, data.task, data.classes);   // throws on a task/loss mismatch
//   torch::Tensor value = loss(model->forward(x), y);   // mean over the batch

#include "core/config/run_config.h"
#include "core/engine/dataset.h"

#include <torch/torch.h>

namespace tw::engine {

class Loss {
 public:
  // Classification takes cross_entropy (with label smoothing) or bce_with_logits (one output for
  // two classes, else one per class against one-hot targets); regression mse, l1 or huber;
  // next-token prediction cross_entropy over every position's scores.
  Loss() = default;  // cross_entropy
  Loss(const config::TrainOptions &options, Task task, int64_t classes);
  torch::Tensor operator()(const torch::Tensor &output, const torch::Tensor &targets) const;
  const std::string &name() const { return m_name; }

 private:
  std::string m_name = "cross_entropy";
  Task m_task = Task::Classification;
  int64_t m_classes = 0;
  double m_labelSmoothing = 0.0;
  double m_huberDelta = 1.0;
};

}  // namespace tw::engine
