#pragma once
// Reads what the Compare page shows for a set of runs (each run's record, params and one metric
// series) on a worker thread with its own database connection, and hands the result back on
// the UI thread. A newer request makes older answers void.

#include "tracking/run_record.h"

#include <QObject>
#include <QString>

#include <map>
#include <string>
#include <vector>

namespace tw::ui {

struct ComparedRun {
  tracking::RunRecord run;
  std::map<std::string, std::string> params;
  std::vector<tracking::MetricPoint> points;
};

struct CompareData {
  std::string metric;
  std::vector<ComparedRun> runs;
  QString error;
};

class CompareLoader : public QObject {
  Q_OBJECT

 public:
  explicit CompareLoader(QObject *parent = nullptr) : QObject(parent) {}
  // At most maxPoints per series: a hundred runs of a million steps must not flood the UI.
  void load(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &metric,
            int maxPoints = 20000);

 Q_SIGNALS:
  void loaded(const tw::ui::CompareData &data);

 private:
  quint64 m_generation = 0;
};

}  // namespace tw::ui
