#include "ui/runs/runs_table_model.h"

#include "ui/runs/run_status.h"

#include <QLocale>
#include <QTimer>

#include <limits>

namespace tw::ui {

namespace {

struct MetricColumn {
  int column;
  const char *key;
  bool percent;  // accuracies read better as percentages
};

constexpr MetricColumn kMetricColumns[] = {
    {RunsTableModel::ValAccuracy, "val/accuracy", true},
    {RunsTableModel::ValLoss, "val/loss", false},
    {RunsTableModel::TestAccuracy, "test/accuracy", true},
};

const MetricColumn *metricColumn(int column) {
  for (const auto &entry : kMetricColumns)
    if (entry.column == column) return &entry;
  return nullptr;
}

}  // namespace

RunsTableModel::RunsTableModel(QObject *parent) : QAbstractTableModel(parent) {
  // Running runs' durations grow without any database change.
  m_clock = new QTimer(this);
  m_clock->setInterval(1000);
  connect(m_clock, &QTimer::timeout, this, &RunsTableModel::refreshDurations);
  m_clock->start();
}

const char *RunsTableModel::metricKey(int column) {
  const MetricColumn *entry = metricColumn(column);
  return entry ? entry->key : "";
}

int RunsTableModel::rowCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RunsTableModel::columnCount(const QModelIndex &parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RunSnapshot &row = m_rows[index.row()];
  switch (role) {
    case Qt::DisplayRole: return displayData(row, index.column());
    case SortRole: return sortData(row, index.column());
    case RunIdRole: return QVariant::fromValue<qint64>(row.run.id);
    case Qt::DecorationRole:
      if (index.column() == Status) return runStatusIcon(row.run.status);
      return {};
    case Qt::ToolTipRole:
      if (index.column() == Status && !row.run.statusMessage.empty())
        return QString::fromStdString(row.run.statusMessage);
      if (index.column() == Name) return QString::fromStdString(row.run.uuid);
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() >= Duration) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    default: return {};
  }
}

QVariant RunsTableModel::displayData(const RunSnapshot &row, int column) const {
  const auto &run = row.run;
  switch (column) {
    case Name: return QString::fromStdString(run.name.empty() ? run.uuid.substr(0, 8) : run.name);
    case Experiment: return QString::fromStdString(run.experiment);
    case Status: return runStatusText(run.status);
    case Started: return formatTimestamp(run.startMs);
    case Duration:
      if (run.startMs == 0) return QString();  // not started: no duration, not "0 ms"
      return formatDuration(runDurationMs(run, tracking::nowMs()));
    default: break;
  }
  const MetricColumn *entry = metricColumn(column);
  if (!entry) return {};
  const tracking::LatestMetric *metric = row.latestMetric(entry->key);
  if (!metric) return {};
  const QLocale locale;
  if (entry->percent) return tr("%1 %").arg(locale.toString(100.0 * metric->value, 'f', 2));
  return locale.toString(metric->value, 'f', 4);
}

QVariant RunsTableModel::sortData(const RunSnapshot &row, int column) const {
  const auto &run = row.run;
  switch (column) {
    case Name: return QString::fromStdString(run.name);
    case Experiment: return QString::fromStdString(run.experiment);
    case Status: return static_cast<int>(run.status);
    case Started: return QVariant::fromValue<qint64>(run.startMs ? run.startMs : run.createdMs);
    case Duration: return QVariant::fromValue<qint64>(runDurationMs(run, tracking::nowMs()));
    default: break;
  }
  const MetricColumn *entry = metricColumn(column);
  if (!entry) return {};
  const tracking::LatestMetric *metric = row.latestMetric(entry->key);
  // Runs without the metric sort below every real value.
  return metric ? metric->value : -std::numeric_limits<double>::infinity();
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    const char *key = metricKey(section);
    return *key ? QString::fromLatin1(key) : QVariant();
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Name");
    case Experiment: return tr("Experiment");
    case Status: return tr("Status");
    case Started: return tr("Started");
    case Duration: return tr("Duration");
    case ValAccuracy: return tr("Val. accuracy");
    case ValLoss: return tr("Val. loss");
    case TestAccuracy: return tr("Test accuracy");
    default: return {};
  }
}

void RunsTableModel::mergeRuns(const RunsUpdate &update) {
  std::vector<const RunSnapshot *> added;
  for (const auto &snapshot : update.runs) {
    auto found = m_rowOfRun.find(snapshot.run.id);
    if (found == m_rowOfRun.end()) {
      added.push_back(&snapshot);
      continue;
    }
    m_rows[found->second] = snapshot;
    Q_EMIT dataChanged(index(found->second, 0), index(found->second, ColumnCount - 1));
  }
  if (added.empty()) return;
  // Appending keeps existing rows (and the view's selection) where they are; the proxy sorts.
  const int first = rowCount();
  beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
  for (const RunSnapshot *snapshot : added) {
    m_rowOfRun[snapshot->run.id] = static_cast<int>(m_rows.size());
    m_rows.push_back(*snapshot);
  }
  endInsertRows();
}

void RunsTableModel::removeRun(int64_t runId) {
  const int row = rowOfRun(runId);
  if (row < 0) return;
  beginRemoveRows({}, row, row);
  m_rows.erase(m_rows.begin() + row);
  m_rowOfRun.erase(runId);
  for (auto &[id, r] : m_rowOfRun)
    if (r > row) --r;
  endRemoveRows();
}

void RunsTableModel::clear() {
  beginResetModel();
  m_rows.clear();
  m_rowOfRun.clear();
  endResetModel();
}

int RunsTableModel::rowOfRun(int64_t runId) const {
  auto found = m_rowOfRun.find(runId);
  return found == m_rowOfRun.end() ? -1 : found->second;
}

std::optional<RunSnapshot> RunsTableModel::snapshot(int64_t runId) const {
  const int row = rowOfRun(runId);
  if (row < 0) return std::nullopt;
  return m_rows[row];
}

void RunsTableModel::refreshDurations() {
  for (size_t row = 0; row < m_rows.size(); ++row) {
    if (m_rows[row].run.status != tracking::RunStatus::Running) continue;
    const QModelIndex cell = index(static_cast<int>(row), Duration);
    Q_EMIT dataChanged(cell, cell, {Qt::DisplayRole, SortRole});
  }
}

}  // namespace tw::ui
