#pragma once
// Reads what the Compare page shows for a set of runs (each run's record, params, final value
// of every metric, and one metric series read in full) on a worker thread with its own database
// connection, and hands the result back on the UI thread. A newer comparison makes older
// answers void.
//
// Series are read in chunks and reduced while reading (see series_scan.h): memory stays bounded
// for hundreds of runs of any length, and no run is cut off.
//
//   loader->load(dbPath, {3, 4, 9}, "val/loss");          // -> loaded(CompareData)
//   loader->load(dbPath, {3, 4, 9}, QString());           // the runs' monitor, else val/loss
//   loader->loadSummaries(dbPath, {3, 4, 9}, "val/accuracy");  // -> summariesLoaded(...)

#include "tracking/run_record.h"
#include "ui/compare/metric_summary.h"
#include "ui/compare/step_grid.h"

#include <QObject>
#include <QString>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tw::ui {

struct CompareLoadOptions {
  int maxPoints = 4000;       // per run's curve: about what a wide chart can show
  int totalPoints = 200000;   // over all curves: 200 runs draw 1000 points each, not 4000
  int maxBins = 1000;         // of the common step grid the group bands are computed on
  int chunkPoints = 50000;    // rows per query; bounds the memory of reading one series
};

struct ComparedRun {
  tracking::RunRecord run;
  std::map<std::string, std::string> params;
  std::vector<tracking::MetricPoint> points;  // the compared metric, min/max decimated
  std::vector<StepValue> binned;              // the compared metric, mean per bin of CompareData::grid
  MetricSummary summary;                      // the compared metric over all its points
  std::map<std::string, double> finals;       // the latest value of every metric the run recorded
  std::vector<tracking::MetricPoint> epochs;  // the run's `epoch` rows: the curves against epochs
};

struct CompareData {
  std::string metric;
  StepGrid grid;  // spans the compared metric's steps over all runs
  std::vector<ComparedRun> runs;
  std::vector<std::string> metricKeys;  // every metric some run recorded, sorted
  std::set<std::string> logParams;      // parameters a sweep behind some of the runs sampled on a log scale
  QString error;
};

// One metric's summary for each run of the current comparison, by run id.
struct MetricSummaries {
  std::string key;
  std::map<int64_t, MetricSummary> byRun;
  QString error;
};

class StoreCall;

class CompareLoader : public QObject {
  Q_OBJECT

 public:
  explicit CompareLoader(QObject *parent = nullptr);
  // An empty metric: the runs' default (default_metric.h), chosen once their params are read;
  // CompareData::metric says which.
  void load(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &metric,
            CompareLoadOptions options = {});
  // Min and max of another metric need its points; read on demand. Void after the next load().
  void loadSummaries(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &metric);

 Q_SIGNALS:
  void loaded(const tw::ui::CompareData &data);
  void summariesLoaded(const tw::ui::MetricSummaries &summaries);
  void busyChanged(bool loading);  // a comparison is being read

 private:
  StoreCall *m_comparison;
  StoreCall *m_summaries;
};

}  // namespace tw::ui
