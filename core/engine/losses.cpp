#include "core/engine/losses.h"

#include "core/config/loss_table.h"

#include <stdexcept>

namespace tw::engine {

namespace F = torch::nn::functional;

Loss::Loss(const config::TrainOptions &options, Task task, int64_t classes)
    : m_name(options.loss), m_task(task), m_classes(classes), m_labelSmoothing(options.labelSmoothing),
      m_huberDelta(options.huberDelta) {
  using config::metrics::RunTask;
  const RunTask runTask = task == Task::Regression ? RunTask::Regression
                          : task == Task::NextToken ? RunTask::NextToken
                                                    : RunTask::Classification;
  if (const config::LossProblem p = config::lossProblem(m_name, runTask, m_labelSmoothing); !p.message.empty())
    throw std::runtime_error(p.field + ": " + p.message);
}

torch::Tensor Loss::operator()(const torch::Tensor &output, const torch::Tensor &targets) const {
  // Losses run in fp32 even under bf16 autocast: the reduction is where precision is lost.
  const torch::Tensor out = output.scalar_type() == torch::kFloat ? output : output.to(torch::kFloat);
  if (m_task == Task::NextToken)  // [N, T, V] scores against [N, T] next tokens: the mean over every token
    return F::cross_entropy(out.reshape({-1, out.size(-1)}), targets.reshape({-1}),
                            F::CrossEntropyFuncOptions().label_smoothing(m_labelSmoothing));
  if (m_name == "cross_entropy")
    return F::cross_entropy(out, targets, F::CrossEntropyFuncOptions().label_smoothing(m_labelSmoothing));
  if (m_name == "bce_with_logits") {
    // One logit per example for two classes (the usual binary head), else one per class.
    if (out.dim() == 1 || out.size(-1) == 1)
      return F::binary_cross_entropy_with_logits(out.reshape({-1}), targets.to(out.scalar_type()));
    return F::binary_cross_entropy_with_logits(out, F::one_hot(targets, out.size(-1)).to(out.scalar_type()));
  }
  const torch::Tensor target = targets.reshape(out.sizes());
  if (m_name == "mse") return F::mse_loss(out, target);
  if (m_name == "l1") return F::l1_loss(out, target);
  return F::huber_loss(out, target, F::HuberLossFuncOptions().delta(m_huberDelta));
}

}  // namespace tw::engine
