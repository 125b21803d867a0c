#include "core/config/optimizer_rules.h"

#include <sstream>

namespace tw::config {

std::string nesterovProblem(const TrainOptions &t) {
  if (t.optimizer != "sgd" || !t.nesterov || t.momentum > 0.0) return {};
  std::ostringstream out;
  out << "train.nesterov: Nesterov momentum needs train.momentum > 0 (it is " << t.momentum
      << "); set train.momentum, e.g. 0.9, or train.nesterov: false";
  return out.str();
}

}  // namespace tw::config
