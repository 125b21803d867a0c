#pragma once
// The runs of a workspace as a table: one row per run, merged incrementally from the poller's
// updates (a changed run updates its row in place, a new run is inserted), so that selection
// and sorting survive live updates. Sort through a QSortFilterProxyModel with SortRole.

#include "ui/workspace/poll_results.h"

#include <QAbstractTableModel>

#include <map>
#include <optional>
#include <vector>

class QTimer;

namespace tw::ui {

class RunsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Name, Experiment, Status, Started, Duration, ValAccuracy, ValLoss, TestAccuracy, ColumnCount };
  enum Role {
    SortRole = Qt::UserRole + 1,  // numbers and times as numbers, so they sort as such
    RunIdRole,
  };

  explicit RunsTableModel(QObject *parent = nullptr);

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  void mergeRuns(const tw::ui::RunsUpdate &update);
  void removeRun(int64_t runId);  // deleted: the poller reports changes, not disappearances
  void clear();

  int rowOfRun(int64_t runId) const;  // -1 when unknown
  std::optional<RunSnapshot> snapshot(int64_t runId) const;
  const RunSnapshot &snapshotAt(int row) const { return m_rows[row]; }

  // The metric key shown in a metric column; empty for the other columns.
  static const char *metricKey(int column);

 private:
  QVariant displayData(const RunSnapshot &row, int column) const;
  QVariant sortData(const RunSnapshot &row, int column) const;
  void refreshDurations();

  std::vector<RunSnapshot> m_rows;
  std::map<int64_t, int> m_rowOfRun;
  QTimer *m_clock = nullptr;
};

}  // namespace tw::ui
