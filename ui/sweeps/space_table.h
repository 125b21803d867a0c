#pragma once
// The search space as a table the user edits: one row per parameter, its key picked (and
// searched by typing) from the keys the config table and the model offer (searchable_keys.h),
// then its distribution: type, low, high, log, step, choices and an optional condition.
// Picking a key fills the row with a suggestion inside the key's allowed range, shown beside it.
//
//   table->setKeys(searchableKeys(document->spec()));
//   table->addParam("train.lr");
//   QStringList problems;
//   search::SearchSpace space = table->space(&problems);

#include "core/search/space.h"
#include "ui/sweeps/searchable_keys.h"

#include <QStringList>
#include <QTableWidget>

class QComboBox;

namespace tw::ui {

class SpaceTable : public QTableWidget {
  Q_OBJECT

 public:
  enum Column { KeyColumn, TypeColumn, LowColumn, HighColumn, LogColumn, StepColumn, ChoicesColumn, WhenColumn,
                AllowedColumn, ColumnCount };

  explicit SpaceTable(QWidget *parent = nullptr);

  // The keys rows may pick; rows keep their keys (a key no longer offered says so in Allowed).
  void setKeys(std::vector<SearchableKey> keys);
  const std::vector<SearchableKey> &keys() const { return m_keys; }
  const SearchableKey *findKey(const QString &key) const;

  // Appends a row for `key` with its suggested distribution; returns the row.
  int addParam(const QString &key);
  // Appends a row showing `param` as it is.
  int addParam(const search::ParamSpec &param);
  void removeSelectedRows();
  QComboBox *keyBox(int row) const;
  QComboBox *typeBox(int row) const;

  // The rows as a search space, in row order; every problem (an empty key, a number that does
  // not read, a bound outside the key's allowed range, a malformed condition) names its row and key.
  search::SearchSpace space(QStringList *problems) const;

 private:
  void onKeyChosen(int row, const QString &key);
  void showParam(int row, const search::ParamSpec &param);
  void setText(int row, int column, const QString &text);
  QString text(int row, int column) const;

  std::vector<SearchableKey> m_keys;
  QStringList m_keyNames;
};

// "train.optimizer=sgd,adam; model.h1.p=0.1" <-> conditions: every one must hold.
QString conditionText(const std::vector<search::Condition> &when);
bool parseConditions(const QString &text, std::vector<search::Condition> *when);

}  // namespace tw::ui
