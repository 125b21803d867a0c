#pragma once
// Which runs the Runs table shows: text in the name or experiment, a status, and a lowest
// validation accuracy. Filtering runs on the proxy, so live updates keep being filtered and the
// model below stays whole.

#include "tracking/run_record.h"

#include <QSortFilterProxyModel>

#include <optional>

namespace tw::ui {

class RunsFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit RunsFilter(QObject *parent = nullptr) : QSortFilterProxyModel(parent) {}

  void setText(const QString &text);
  void setStatus(std::optional<tracking::RunStatus> status);
  void setMinValAccuracy(double accuracy);  // 0..1; 0 = no threshold

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

 private:
  QString m_text;
  std::optional<tracking::RunStatus> m_status;
  double m_minValAccuracy = 0.0;
};

}  // namespace tw::ui
