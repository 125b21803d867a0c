#include "ui/compare/compare_loader.h"

#include "tracking/store.h"

#include <QFutureWatcher>
#include <limits>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

void CompareLoader::load(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &metric,
                         int maxPoints) {
  const quint64 generation = ++m_generation;
  auto *watcher = new QFutureWatcher<CompareData>(this);
  connect(watcher, &QFutureWatcher<CompareData>::finished, this, [this, watcher, generation] {
    const CompareData data = watcher->result();
    watcher->deleteLater();
    if (generation == m_generation) Q_EMIT loaded(data);
  });
  watcher->setFuture(QtConcurrent::run([path = databasePath.toStdString(), runIds, key = metric.toStdString(), maxPoints] {
    CompareData data;
    data.metric = key;
    try {
      auto store = tracking::Store::open(path);
      for (int64_t id : runIds) {
        auto run = store->run(id);
        if (!run) continue;
        ComparedRun compared;
        compared.run = *run;
        compared.params = store->params(id);
        compared.points = store->metricPoints(id, key, std::numeric_limits<int64_t>::min(), maxPoints);
        data.runs.push_back(std::move(compared));
      }
    } catch (const std::exception &e) {
      data.error = QString::fromUtf8(e.what());
    }
    return data;
  }));
}

}  // namespace tw::ui
