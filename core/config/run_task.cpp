#include "core/config/run_task.h"

#include "core/config/data_source_table.h"
#include "core/config/metric_keys.h"

namespace tw::config {

metrics::RunTask runTask(const DataOptions &data) {
  const DataSourceInfo *source = findDataSource(data.dataset);
  if (source && source->family == SourceFamily::TokenFile) return metrics::RunTask::NextToken;
  if (source && source->family == SourceFamily::Csv && data.task == "regression") return metrics::RunTask::Regression;
  return metrics::RunTask::Classification;
}

bool isRegression(const DataOptions &data) { return runTask(data) == metrics::RunTask::Regression; }

std::vector<std::string> monitorKeys(const DataOptions &data, int64_t topK) {
  std::vector<std::string> keys;
  for (const std::string &name : metrics::evaluationNames(runTask(data), topK))
    keys.push_back(metrics::kValPrefix + name);
  return keys;
}

}  // namespace tw::config
