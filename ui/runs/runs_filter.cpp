#include "ui/runs/runs_filter.h"

#include "ui/runs/runs_table_model.h"

namespace tw::ui {

void RunsFilter::setText(const QString &text) {
  m_text = text.trimmed();
  invalidateFilter();
}

void RunsFilter::setStatus(std::optional<tracking::RunStatus> status) {
  m_status = status;
  invalidateFilter();
}

void RunsFilter::setMinValAccuracy(double accuracy) {
  m_minValAccuracy = accuracy;
  invalidateFilter();
}

bool RunsFilter::filterAcceptsRow(int sourceRow, const QModelIndex &) const {
  const auto *model = static_cast<const RunsTableModel *>(sourceModel());
  const RunSnapshot &snapshot = model->snapshotAt(sourceRow);
  if (m_status && snapshot.run.status != *m_status) return false;
  if (!m_text.isEmpty() && !QString::fromStdString(snapshot.run.name).contains(m_text, Qt::CaseInsensitive) &&
      !QString::fromStdString(snapshot.run.experiment).contains(m_text, Qt::CaseInsensitive))
    return false;
  if (m_minValAccuracy > 0.0) {
    const tracking::LatestMetric *accuracy = snapshot.latestMetric("val/accuracy");
    if (!accuracy || accuracy->value < m_minValAccuracy) return false;
  }
  return true;
}

}  // namespace tw::ui
