#pragma once
// The Parameters tab: a run's resolved configuration as the flattened keys it recorded
// (train.lr, data.batch_size, model.parameters ...) with their values, and a search field that
// keeps the rows whose key or value contains what is typed. The params arrive with the run's
// snapshot, read by the poller: nothing here touches the database.

#include <QWidget>

#include <map>
#include <string>

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace tw::ui {

class ParamsPanel : public QWidget {
  Q_OBJECT

 public:
  enum Column { KeyColumn, ValueColumn };
  // A value shown through formatValueText sorts by the number it is (the key column by its text).
  static constexpr int kSortRole = Qt::UserRole + 1;

  explicit ParamsPanel(QWidget *parent = nullptr);

  // Replaces the rows when the params differ from those shown; the search text stays.
  void setParams(const std::map<std::string, std::string> &params);
  void clear();

  QLineEdit *searchField() const { return m_search; }
  QTableView *table() const { return m_table; }
  // Rows shown under the current search.
  int visibleRowCount() const;

 private:
  void updateCount();

  std::map<std::string, std::string> m_params;
  QLineEdit *m_search;
  QStandardItemModel *m_model;
  QSortFilterProxyModel *m_proxy;
  QTableView *m_table;
  QLabel *m_count;
};

}  // namespace tw::ui
