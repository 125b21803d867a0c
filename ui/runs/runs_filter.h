#pragma once
// Which runs the Runs table shows: a typed query (words, labels, metric and parameter
// comparisons; see RunQuery), a status, a label, a lowest validation accuracy, and whether
// archived runs are shown. Filtering runs on the proxy, so live updates keep being filtered and
// the model below stays whole.

#include "tracking/run_record.h"
#include "ui/runs/run_query.h"

#include <QSortFilterProxyModel>

#include <optional>

namespace tw::ui {

class RunsFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit RunsFilter(QObject *parent = nullptr) : QSortFilterProxyModel(parent) {}

  void setText(const QString &text);
  void setStatus(std::optional<tracking::RunStatus> status);
  void setLabel(const QString &label);        // empty: any
  void setMinValAccuracy(double accuracy);    // 0..1; 0 = no threshold
  void setShowArchived(bool show);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;
  // A parameter column may hold numbers and texts ("0.1", "auto"): numbers sort as numbers and
  // before every text, instead of comparing unordered.
  bool lessThan(const QModelIndex &left, const QModelIndex &right) const override;

 private:
  RunQuery m_query;
  std::optional<tracking::RunStatus> m_status;
  QString m_label;
  double m_minValAccuracy = 0.0;
  bool m_showArchived = false;  // archiving is how a user says "out of my way"
};

}  // namespace tw::ui
