#include "ui/runs/runs_table_model.h"

#include "core/config/metric_keys.h"
#include "tracking/run_labels.h"
#include "ui/common/number_format.h"
#include "ui/runs/run_status.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace tw::ui {

namespace {

struct MetricColumn {
  int column;
  const char *key;
  bool percent;  // accuracies read better as percentages
};

constexpr MetricColumn kMetricColumns[] = {
    {RunsTableModel::ValAccuracy, config::metrics::kValAccuracy, true},
    {RunsTableModel::ValLoss, config::metrics::kValLoss, false},
    {RunsTableModel::TestAccuracy, config::metrics::kTestAccuracy, true},
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
  return parent.isValid() ? 0 : FixedColumnCount + static_cast<int>(m_extra.size());
}

Qt::ItemFlags RunsTableModel::flags(const QModelIndex &index) const {
  Qt::ItemFlags flags = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == Note) flags |= Qt::ItemIsEditable;
  return flags;
}

bool RunsTableModel::setData(const QModelIndex &index, const QVariant &value, int role) {
  if (!index.isValid() || index.column() != Note || role != Qt::EditRole) return false;
  const int64_t runId = m_rows[index.row()].run.id;
  const QString note = value.toString().trimmed();
  if (note == QString::fromStdString(tracking::noteOf(m_rows[index.row()].tags))) return false;
  setTagLocally(runId, tracking::kNoteTag, note.isEmpty() ? std::nullopt : std::optional(note.toStdString()));
  Q_EMIT noteEdited(runId, note);
  return true;
}

QVariant RunsTableModel::data(const QModelIndex &index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const RunSnapshot &row = m_rows[index.row()];
  switch (role) {
    case Qt::DisplayRole: return displayData(row, index.column());
    case Qt::EditRole:
      if (index.column() == Note) return QString::fromStdString(tracking::noteOf(row.tags));
      return {};
    case Qt::ForegroundRole:
      // Archived runs, when shown at all, recede.
      if (tracking::isArchived(row.tags)) return QColor(Qt::gray);
      return {};
    case SortRole: return sortData(row, index.column());
    case RunIdRole: return QVariant::fromValue<qint64>(row.run.id);
    case Qt::DecorationRole:
      if (index.column() == Status) return runStatusIcon(row.run.status);
      return {};
    case Qt::ToolTipRole:
      if (index.column() == Status && !row.run.statusMessage.empty())
        return QString::fromStdString(row.run.statusMessage);
      if (index.column() == Name) return QString::fromStdString(row.run.uuid);
      if (index.column() == Note) return QString::fromStdString(tracking::noteOf(row.tags));
      return metricToolTip(row, index.column());
    case Qt::TextAlignmentRole:
      if ((index.column() >= Duration && index.column() < Labels) ||
          (index.column() >= FixedColumnCount && m_extra[index.column() - FixedColumnCount].kind == ExtraColumn::Kind::Metric))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
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
    case Labels: {
      QStringList labels;
      for (const auto &label : tracking::labelsOf(row.tags)) labels << QString::fromStdString(label);
      return labels.join(QStringLiteral(", "));
    }
    case Note: return QString::fromStdString(tracking::noteOf(row.tags)).section(QLatin1Char('\n'), 0, 0);
    default: break;
  }
  if (column >= FixedColumnCount) return extraData(row, m_extra[column - FixedColumnCount], false);
  const MetricColumn *entry = metricColumn(column);
  if (!entry) return {};
  const tracking::LatestMetric *metric = row.latestMetric(entry->key);
  if (!metric) return {};
  // A percentage has the digits the CLI's table shows for the same value (0.784 -> "78.4 %").
  if (entry->percent) return formatPercent(metric->value);
  return formatNumber(metric->value);
}

QVariant RunsTableModel::metricToolTip(const RunSnapshot &row, int column) const {
  std::string key;
  if (column >= FixedColumnCount) {
    const ExtraColumn &extra = m_extra[column - FixedColumnCount];
    if (extra.kind != ExtraColumn::Kind::Metric) {
      auto found = row.params.find(extra.key);
      return found == row.params.end() ? QVariant() : QVariant(QString::fromStdString(found->second));
    }
    key = extra.key;
  } else if (const MetricColumn *entry = metricColumn(column)) {
    key = entry->key;
  }
  const tracking::LatestMetric *metric = key.empty() ? nullptr : row.latestMetric(key);
  if (!metric) return {};
  // The cell keeps four digits; the tooltip has the value closely enough to tell runs apart.
  return tr("%1 = %2 at step %3")
      .arg(QString::fromStdString(key), formatNumber(metric->value, 10), formatNumber(static_cast<double>(metric->step)));
}

QVariant RunsTableModel::sortData(const RunSnapshot &row, int column) const {
  const auto &run = row.run;
  switch (column) {
    case Name: return QString::fromStdString(run.name);
    case Experiment: return QString::fromStdString(run.experiment);
    case Status: return static_cast<int>(run.status);
    case Started: return QVariant::fromValue<qint64>(run.startMs ? run.startMs : run.createdMs);
    case Duration: return QVariant::fromValue<qint64>(runDurationMs(run, tracking::nowMs()));
    case Labels:
    case Note: return displayData(row, column);
    default: break;
  }
  if (column >= FixedColumnCount) return extraData(row, m_extra[column - FixedColumnCount], true);
  const MetricColumn *entry = metricColumn(column);
  if (!entry) return {};
  const tracking::LatestMetric *metric = row.latestMetric(entry->key);
  // Runs without the metric sort below every real value.
  return metric ? metric->value : -std::numeric_limits<double>::infinity();
}

QVariant RunsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (section >= FixedColumnCount && section < columnCount()) {
    const ExtraColumn &extra = m_extra[section - FixedColumnCount];
    if (role == Qt::ToolTipRole)
      return extra.kind == ExtraColumn::Kind::Metric ? tr("Latest value of the metric %1").arg(QString::fromStdString(extra.key))
                                                     : tr("Parameter %1").arg(QString::fromStdString(extra.key));
    if (role == Qt::DisplayRole) return QString::fromStdString(extra.key);
    return {};
  }
  if (role == Qt::ToolTipRole) {
    if (section == Note) return tr("Double-click a note to edit it");
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
    case Labels: return tr("Tags");
    case Note: return tr("Note");
    default: return {};
  }
}

void RunsTableModel::mergeRuns(const RunsUpdate &update) {
  std::vector<const RunSnapshot *> added;
  bool keysChanged = false;
  for (const auto &snapshot : update.runs) {
    // A poll that read the run just before it was deleted arrives after the deletion.
    if (m_deletedUuids.count(snapshot.run.uuid)) continue;
    noteKeys(snapshot, &keysChanged);
    auto found = m_rowOfRun.find(snapshot.run.id);
    if (found == m_rowOfRun.end()) {
      added.push_back(&snapshot);
      continue;
    }
    m_rows[found->second] = withPendingTags(snapshot);
    Q_EMIT dataChanged(index(found->second, 0), index(found->second, columnCount() - 1));
  }
  if (!added.empty()) {
    // Appending keeps existing rows (and the view's selection) where they are; the proxy sorts.
    const int first = rowCount();
    beginInsertRows({}, first, first + static_cast<int>(added.size()) - 1);
    for (const RunSnapshot *snapshot : added) {
      m_rowOfRun[snapshot->run.id] = static_cast<int>(m_rows.size());
      m_rows.push_back(*snapshot);
    }
    endInsertRows();
  }
  // Last, so that whoever asks for the known keys finds the new rows.
  if (keysChanged) Q_EMIT knownKeysChanged();
}

void RunsTableModel::noteKeys(const RunSnapshot &row, bool *changed) {
  for (const auto &metric : row.latest) *changed = m_metricKeys.insert(metric.key).second || *changed;
  for (const auto &[key, value] : row.params) *changed = m_paramKeys.insert(key).second || *changed;
  for (const auto &label : tracking::labelsOf(row.tags)) *changed = m_labels.insert(label).second || *changed;
}

RunSnapshot RunsTableModel::withPendingTags(const RunSnapshot &snapshot) {
  auto pending = m_pendingTags.find(snapshot.run.id);
  if (pending == m_pendingTags.end()) return snapshot;
  RunSnapshot merged = snapshot;
  const qint64 now = QDateTime::currentMSecsSinceEpoch();
  for (auto it = pending->second.begin(); it != pending->second.end();) {
    auto stored = snapshot.tags.find(it->first);
    const bool agrees = it->second.value ? (stored != snapshot.tags.end() && stored->second == *it->second.value)
                                         : stored == snapshot.tags.end();
    if (agrees || now - it->second.sinceMs > kPendingTagMs) {
      it = pending->second.erase(it);
      continue;
    }
    if (it->second.value) merged.tags[it->first] = *it->second.value;
    else merged.tags.erase(it->first);
    ++it;
  }
  if (pending->second.empty()) m_pendingTags.erase(pending);
  return merged;
}

void RunsTableModel::setTagLocally(int64_t runId, const std::string &key, const std::optional<std::string> &value) {
  const int row = rowOfRun(runId);
  if (row < 0) return;
  auto &tags = m_rows[row].tags;
  if (value) tags[key] = *value;
  else tags.erase(key);
  m_pendingTags[runId][key] = {value, QDateTime::currentMSecsSinceEpoch()};
  bool keysChanged = false;
  noteKeys(m_rows[row], &keysChanged);
  Q_EMIT dataChanged(index(row, 0), index(row, columnCount() - 1));
  if (keysChanged) Q_EMIT knownKeysChanged();
}

QVariant RunsTableModel::extraData(const RunSnapshot &row, const ExtraColumn &column, bool forSorting) const {
  if (column.kind == ExtraColumn::Kind::Metric) {
    const tracking::LatestMetric *metric = row.latestMetric(column.key);
    if (forSorting) return metric ? metric->value : -std::numeric_limits<double>::infinity();
    if (!metric) return {};
    return formatNumber(metric->value);
  }
  auto found = row.params.find(column.key);
  if (found == row.params.end()) return forSorting ? QVariant(-std::numeric_limits<double>::infinity()) : QVariant();
  const QString text = QString::fromStdString(found->second);
  if (!forSorting) return formatValueText(text);
  // Numbers sort as numbers; a column mixing both sorts the texts after every number.
  bool numeric = false;
  const double value = text.toDouble(&numeric);
  return numeric ? QVariant(value) : QVariant(text);
}

void RunsTableModel::setExtraColumns(const std::vector<ExtraColumn> &columns) {
  beginResetModel();
  m_extra.clear();
  for (const auto &column : columns)
    if (std::find(m_extra.begin(), m_extra.end(), column) == m_extra.end()) m_extra.push_back(column);
  endResetModel();
}

void RunsTableModel::addExtraColumn(const ExtraColumn &column) {
  if (columnOf(column) >= 0) return;
  const int at = columnCount();
  beginInsertColumns({}, at, at);
  m_extra.push_back(column);
  endInsertColumns();
}

void RunsTableModel::removeExtraColumn(const ExtraColumn &column) {
  const int at = columnOf(column);
  if (at < 0) return;
  beginRemoveColumns({}, at, at);
  m_extra.erase(m_extra.begin() + (at - FixedColumnCount));
  endRemoveColumns();
}

int RunsTableModel::columnOf(const ExtraColumn &column) const {
  auto found = std::find(m_extra.begin(), m_extra.end(), column);
  return found == m_extra.end() ? -1 : FixedColumnCount + static_cast<int>(found - m_extra.begin());
}

namespace {
QStringList toList(const std::set<std::string> &keys) {
  QStringList list;
  list.reserve(static_cast<int>(keys.size()));
  for (const auto &key : keys) list << QString::fromStdString(key);
  return list;
}
}  // namespace

QStringList RunsTableModel::knownMetricKeys() const { return toList(m_metricKeys); }
QStringList RunsTableModel::knownParamKeys() const { return toList(m_paramKeys); }

QStringList RunsTableModel::knownLabels() const {
  // Recounted, not cached: a label removed from its last run must leave the filter.
  std::set<std::string> labels;
  for (const auto &row : m_rows)
    for (auto &label : tracking::labelsOf(row.tags)) labels.insert(std::move(label));
  return toList(labels);
}

void RunsTableModel::removeRun(int64_t runId) {
  const int row = rowOfRun(runId);
  if (row < 0) return;
  m_deletedUuids.insert(m_rows[row].run.uuid);
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
  m_metricKeys.clear();
  m_paramKeys.clear();
  m_labels.clear();
  m_pendingTags.clear();
  m_deletedUuids.clear();
  endResetModel();
  Q_EMIT knownKeysChanged();
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
