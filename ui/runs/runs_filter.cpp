#include "ui/runs/runs_filter.h"

#include "core/config/metric_keys.h"
#include "tracking/run_labels.h"
#include "ui/runs/runs_table_model.h"

namespace tw::ui {

void RunsFilter::setText(const QString &text) {
  m_query = RunQuery::parse(text);
  invalidateFilter();
}

void RunsFilter::setStatus(std::optional<tracking::RunStatus> status) {
  m_status = status;
  invalidateFilter();
}

void RunsFilter::setLabel(const QString &label) {
  m_label = label;
  invalidateFilter();
}

void RunsFilter::setMinValAccuracy(double accuracy) {
  m_minValAccuracy = accuracy;
  invalidateFilter();
}

void RunsFilter::setShowArchived(bool show) {
  m_showArchived = show;
  invalidateFilter();
}

bool RunsFilter::filterAcceptsRow(int sourceRow, const QModelIndex &) const {
  const auto *model = static_cast<const RunsTableModel *>(sourceModel());
  const RunSnapshot &snapshot = model->snapshotAt(sourceRow);
  if (!m_showArchived && tracking::isArchived(snapshot.tags)) return false;
  if (m_status && snapshot.run.status != *m_status) return false;
  if (!m_label.isEmpty() && !snapshot.tags.count(tracking::labelKey(m_label.toStdString()))) return false;
  if (m_minValAccuracy > 0.0) {
    const tracking::LatestMetric *accuracy = snapshot.latestMetric(config::metrics::kValAccuracy);
    if (!accuracy || accuracy->value < m_minValAccuracy) return false;
  }
  return m_query.isEmpty() || m_query.matches(snapshot);
}

bool RunsFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const {
  const QVariant a = left.data(sortRole()), b = right.data(sortRole());
  const bool aText = a.typeId() == QMetaType::QString, bText = b.typeId() == QMetaType::QString;
  if (aText != bText) return bText;  // the number first
  return QSortFilterProxyModel::lessThan(left, right);
}

}  // namespace tw::ui
