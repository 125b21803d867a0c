#include "ui/compare/compare_loader.h"

#include "app/common/study_records.h"
#include "core/config/metric_keys.h"
#include "tracking/store.h"
#include "ui/common/store_call.h"
#include "ui/compare/default_metric.h"
#include "ui/compare/series_scan.h"

#include <algorithm>
#include <climits>
#include <set>

namespace tw::ui {

namespace {

struct SeriesRange {
  bool present = false;
  int64_t first = 0, last = 0;
};

// latest_metrics holds each series' highest step; the lowest is one indexed seek away.
SeriesRange rangeOf(const tracking::Store &store, int64_t runId, const std::string &key,
                    const std::vector<tracking::LatestMetric> &latest) {
  SeriesRange range;
  auto found = std::find_if(latest.begin(), latest.end(), [&](const auto &l) { return l.key == key; });
  if (found == latest.end()) return range;
  const auto first = store.metricPoints(runId, key, INT64_MIN, 1);
  if (first.empty()) return range;
  range.present = true;
  range.first = first.front().step;
  range.last = std::max(found->step, range.first);
  return range;
}

// The parameters the sweeps that made these runs sampled on a log scale: they read better on a
// log axis whatever their spread in this comparison. A study whose recorded sweep no longer
// parses (edited by hand, a key renamed) simply tells nothing.
std::set<std::string> logSampledParams(const tracking::Store &store, const std::set<std::string> &studyNames) {
  std::set<std::string> keys;
  for (const std::string &name : studyNames) {
    try {
      const auto study = store.findStudy(name);
      if (!study) continue;
      for (const search::ParamSpec &spec : app::recordedSweep(*study, /*requireBase=*/false).space.params)
        if (spec.log) keys.insert(spec.key);
    } catch (const std::exception &) {
    }
  }
  return keys;
}

CompareData readComparison(tracking::Store &store, const std::vector<int64_t> &runIds, const std::string &wanted,
                           const CompareLoadOptions &options) {
  CompareData data;
  // First the small rows of every run, so that the grid spans all of them before any series
  // is read.
  std::vector<std::vector<tracking::LatestMetric>> latests;
  std::set<std::string> keys, studies;
  for (int64_t id : runIds) {
    auto run = store.run(id);
    if (!run) continue;  // deleted since it was selected
    ComparedRun compared;
    compared.run = *run;
    compared.params = store.params(id);
    auto latest = store.latestMetrics(id);
    for (const auto &l : latest) {
      compared.finals[l.key] = l.value;
      keys.insert(l.key);
    }
    // One row per epoch: where each epoch ended, for the Curves tab's epoch axis.
    compared.epochs = store.metricPoints(id, config::metrics::kEpoch);
    const auto tags = store.tags(id);
    if (auto study = tags.find("study"); study != tags.end()) studies.insert(study->second);
    latests.push_back(std::move(latest));
    data.runs.push_back(std::move(compared));
  }
  data.metricKeys.assign(keys.begin(), keys.end());
  data.logParams = logSampledParams(store, studies);
  if (wanted.empty()) {
    std::vector<const std::map<std::string, std::string> *> params;
    for (const auto &compared : data.runs) params.push_back(&compared.params);
    data.metric = defaultMetric(params, data.metricKeys);
  } else {
    data.metric = wanted;
  }
  const std::string &key = data.metric;
  std::vector<SeriesRange> ranges;
  for (size_t i = 0; i < data.runs.size(); ++i) ranges.push_back(rangeOf(store, data.runs[i].run.id, key, latests[i]));
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const auto &range : ranges) {
    if (!range.present) continue;
    first = std::min(first, range.first);
    last = std::max(last, range.last);
  }
  data.grid = StepGrid::spanning(first, last, options.maxBins);

  SeriesScanOptions scanOptions;
  // Hundreds of overlaid curves cannot show thousands of points each; drawing them would only
  // slow the chart down.
  const int runs = std::max<int>(1, static_cast<int>(data.runs.size()));
  scanOptions.maxPoints = std::min(options.maxPoints, std::max(300, options.totalPoints / runs));
  scanOptions.grid = &data.grid;
  scanOptions.chunkPoints = options.chunkPoints;
  for (size_t i = 0; i < data.runs.size(); ++i) {
    if (!ranges[i].present) continue;
    ComparedRun &compared = data.runs[i];
    SeriesScan scan = scanSeries(store, compared.run.id, key, ranges[i].first, ranges[i].last, scanOptions);
    compared.points = std::move(scan.points);
    compared.binned = std::move(scan.bins);
    compared.summary = scan.summary;
  }
  return data;
}

MetricSummaries readSummaries(tracking::Store &store, const std::vector<int64_t> &runIds, const std::string &key) {
  MetricSummaries summaries;
  summaries.key = key;
  SeriesScanOptions options;  // no curve, no bins: the summary alone
  for (int64_t id : runIds) summaries.byRun[id] = scanSeries(store, id, key, 0, 0, options).summary;
  return summaries;
}

}  // namespace

CompareLoader::CompareLoader(QObject *parent)
    : QObject(parent), m_comparison(new StoreCall(this)), m_summaries(new StoreCall(this)) {
  connect(m_comparison, &StoreCall::busyChanged, this, &CompareLoader::busyChanged);
}

void CompareLoader::load(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &metric,
                         CompareLoadOptions options) {
  m_summaries->cancel();  // summaries belong to the comparison they were asked for
  const std::string key = metric.toStdString();
  m_comparison->run<CompareData>(
      databasePath, [runIds, key, options](tracking::Store &store) { return readComparison(store, runIds, key, options); },
      [this](CompareData data) { Q_EMIT loaded(data); },
      [this, key](const QString &error) {
        CompareData data;
        data.metric = key;
        data.error = error;
        Q_EMIT loaded(data);
      });
}

void CompareLoader::loadSummaries(const QString &databasePath, const std::vector<int64_t> &runIds,
                                  const QString &metric) {
  const std::string key = metric.toStdString();
  m_summaries->run<MetricSummaries>(
      databasePath, [runIds, key](tracking::Store &store) { return readSummaries(store, runIds, key); },
      [this](MetricSummaries summaries) { Q_EMIT summariesLoaded(summaries); },
      [this, key](const QString &error) {
        MetricSummaries summaries;
        summaries.key = key;
        summaries.error = error;
        Q_EMIT summariesLoaded(summaries);
      });
}

}  // namespace tw::ui
