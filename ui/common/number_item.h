#pragma once
// A table cell that shows a number as Studio shows every number (number_format.h: the digits
// that matter, the locale's separators) and sorts by the number itself, not by its text: "9" before
// "10", "1.000" (German thousand) after "2,5". A cell without a number sorts after those with one.
//
//   table->setItem(row, column, new NumberItem(0.002915586427666988));   // "0.002916"
//   table->setItem(row, column, NumberItem::fromText("adamw"));           // text, sorted last

#include "ui/common/number_format.h"

#include <QTableWidgetItem>

namespace tw::ui {

class NumberItem : public QTableWidgetItem {
 public:
  // The number a cell sorts by (a double), invalid when the cell holds none.
  static constexpr int SortRole = Qt::UserRole + 100;

  NumberItem();  // empty, sorts last
  explicit NumberItem(double value, int significant = kShownDigits);
  // A value recorded as text (a parameter): formatValueText's, sorting as a number when it is one.
  static NumberItem *fromText(const QString &text, int significant = kShownDigits);

  bool operator<(const QTableWidgetItem &other) const override;
};

}  // namespace tw::ui
