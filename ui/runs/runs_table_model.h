#pragma once
// The runs of a workspace as a table: one row per run, merged incrementally from the poller's
// updates (a changed run updates its row in place, a new run is inserted), so that selection
// and sorting survive live updates. Sort through a QSortFilterProxyModel with SortRole.
//
// Fixed columns come first; the user may add any metric (its latest value) or parameter seen in
// the workspace as extra columns after them. The note column is editable: an edit is shown at
// once and announced with noteEdited, for the page to store.

#include "ui/workspace/poll_results.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

class QTimer;

namespace tw::ui {

struct ExtraColumn {
  enum class Kind { Metric, Param };
  Kind kind = Kind::Metric;
  std::string key;
  bool operator==(const ExtraColumn &other) const { return kind == other.kind && key == other.key; }
};

class RunsTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name, Experiment, Status, Started, Duration, ValAccuracy, ValLoss, TestAccuracy, Labels, Note,
    FixedColumnCount
  };
  enum Role {
    SortRole = Qt::UserRole + 1,  // numbers and times as numbers, so they sort as such
    RunIdRole,
  };

  explicit RunsTableModel(QObject *parent = nullptr);

  int rowCount(const QModelIndex &parent = {}) const override;
  int columnCount(const QModelIndex &parent = {}) const override;
  QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex &index) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  void mergeRuns(const tw::ui::RunsUpdate &update);
  void removeRun(int64_t runId);  // deleted: the poller reports changes, not disappearances
  void clear();
  // Shows a tag change before the poller brings it back from the database; nullopt removes. Until
  // a snapshot from the database agrees (or kPendingTagMs pass, for a write that failed), the
  // change is laid over incoming snapshots: one read just before the write commits would
  // otherwise take it back for a poll.
  void setTagLocally(int64_t runId, const std::string &key, const std::optional<std::string> &value);

  int rowOfRun(int64_t runId) const;  // -1 when unknown
  std::optional<RunSnapshot> snapshot(int64_t runId) const;
  const RunSnapshot &snapshotAt(int row) const { return m_rows[row]; }

  // Extra columns, in order after the fixed ones.
  const std::vector<ExtraColumn> &extraColumns() const { return m_extra; }
  void setExtraColumns(const std::vector<ExtraColumn> &columns);
  void addExtraColumn(const ExtraColumn &column);  // no-op when shown already
  void removeExtraColumn(const ExtraColumn &column);
  int columnOf(const ExtraColumn &column) const;    // -1 when not shown

  // What the workspace's runs have, for the column chooser and the label filter (sorted).
  QStringList knownMetricKeys() const;
  QStringList knownParamKeys() const;
  QStringList knownLabels() const;

  // The metric key shown in a fixed metric column; empty for the other columns.
  static const char *metricKey(int column);

 Q_SIGNALS:
  void noteEdited(qint64 runId, const QString &note);
  void knownKeysChanged();

 private:
  QVariant displayData(const RunSnapshot &row, int column) const;
  // A metric cell's value to ten digits with its step; a parameter cell's value as recorded.
  QVariant metricToolTip(const RunSnapshot &row, int column) const;
  QVariant sortData(const RunSnapshot &row, int column) const;
  QVariant extraData(const RunSnapshot &row, const ExtraColumn &column, bool forSorting) const;
  void noteKeys(const RunSnapshot &row, bool *changed);
  RunSnapshot withPendingTags(const RunSnapshot &snapshot);
  void refreshDurations();

  std::vector<RunSnapshot> m_rows;
  std::map<int64_t, int> m_rowOfRun;
  // By uuid, not id: SQLite may give a later run the id of a deleted one.
  std::set<std::string> m_deletedUuids;
  std::vector<ExtraColumn> m_extra;
  struct PendingTag {
    std::optional<std::string> value;
    qint64 sinceMs;
  };
  static constexpr qint64 kPendingTagMs = 10000;
  std::map<int64_t, std::map<std::string, PendingTag>> m_pendingTags;
  std::set<std::string> m_metricKeys, m_paramKeys, m_labels;
  QTimer *m_clock = nullptr;
};

}  // namespace tw::ui
