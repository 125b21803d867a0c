#include "ui/runs/data_bound_hint.h"

#include "ui/common/number_format.h"

#include "core/config/data_source_table.h"
#include "core/config/metric_keys.h"

#include <QCoreApplication>
#include <QStringList>

namespace tw::ui {

namespace {

std::string param(const RunSnapshot &s, const std::string &key, const std::string &otherwise) {
  const auto it = s.params.find(key);
  return it == s.params.end() ? otherwise : it->second;
}

}  // namespace

QString dataBoundHint(const RunSnapshot &snapshot) {
  const tracking::LatestMetric *wait = snapshot.latestMetric(config::metrics::kTrainDataWait);
  if (!wait || !(wait->value >= kDataBoundShare)) return {};
  QStringList help;
  const config::DataSourceInfo *source = config::findDataSource(param(snapshot, "data.dataset", ""));
  if (source && source->streamed) {
    const tracking::LatestMetric *hits = snapshot.latestMetric(config::metrics::kTrainCacheHitRate);
    if (param(snapshot, "data.cache", "memory") == "none")
      help << QCoreApplication::translate("tw::ui::DataBoundHint", "data.cache: memory keeps decoded images, so later epochs skip decoding");
    else if (hits && hits->value < 0.99 && param(snapshot, "data.cache", "memory") == "memory")
      help << QCoreApplication::translate("tw::ui::DataBoundHint", "a larger data.memory_mb keeps more decoded images (the cache held %1 of the last epoch's), or data.cache: disk keeps them on disk")
                  .arg(formatPercent(hits->value, 2));
  }
  if (source && source->readThreads)
    help << QCoreApplication::translate("tw::ui::DataBoundHint", "more decode threads (data.workers; `torchwright data bench RUN.yaml` measures each count)");
  if (param(snapshot, "data.prefetch", "4") == "0") help << QCoreApplication::translate("tw::ui::DataBoundHint", "data.prefetch above 0 prepares batches ahead");
  QString text = QCoreApplication::translate("tw::ui::DataBoundHint", "Data-bound: this run waited for batches %1 of its training time in the last epoch.")
                     .arg(formatPercent(wait->value, 2));
  if (!help.isEmpty()) text += QLatin1Char(' ') + QCoreApplication::translate("tw::ui::DataBoundHint", "What would help: %1.").arg(help.join(QStringLiteral("; ")));
  return text;
}

}  // namespace tw::ui
