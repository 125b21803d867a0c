#pragma once
// The Config tab: the parameters of the compared runs side by side, one column per run, with
// every parameter that differs between them highlighted and, optionally, shown alone.
//
//   view->setComparison(&comparison);
//   view->differingKeys();   // {"train.lr"}

#include <QStringList>
#include <QWidget>

class QCheckBox;
class QTableWidget;

namespace tw::ui {

class EmptyState;
struct Comparison;

class ConfigDiffView : public QWidget {
  Q_OBJECT

 public:
  explicit ConfigDiffView(QWidget *parent = nullptr);

  void setComparison(const Comparison *comparison);
  QTableWidget *table() const { return m_table; }
  QCheckBox *onlyDifferences() const { return m_onlyDifferences; }
  QStringList differingKeys() const;
  EmptyState *emptyState() const { return m_empty; }

 private:
  void applyFilter();

  QCheckBox *m_onlyDifferences;
  QTableWidget *m_table;
  EmptyState *m_empty;
};

}  // namespace tw::ui
