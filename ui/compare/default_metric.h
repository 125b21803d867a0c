#pragma once
// The metric Compare shows until the user picks one: what the runs themselves watched
// (their recorded `train.monitor`, the metric early stopping and the best checkpoint follow),
// else val/loss, else train/loss. Only a metric some run recorded counts, so a fresh comparison
// never opens on an empty chart while another metric has points.
//
//   defaultMetric({&run.params, ...}, {"train/loss", "val/accuracy"})   // "val/accuracy" when
//                                                                        // the runs monitor it

#include <map>
#include <string>
#include <vector>

namespace tw::ui {

// runParams: each run's recorded parameters; recordedKeys: every metric some run recorded.
std::string defaultMetric(const std::vector<const std::map<std::string, std::string> *> &runParams,
                          const std::vector<std::string> &recordedKeys);

}  // namespace tw::ui
