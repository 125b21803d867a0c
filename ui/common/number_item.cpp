#include "ui/common/number_item.h"

namespace tw::ui {

NumberItem::NumberItem() : QTableWidgetItem(QTableWidgetItem::UserType) {}

NumberItem::NumberItem(double value, int significant) : QTableWidgetItem(QTableWidgetItem::UserType) {
  setText(formatNumber(value, significant));
  setData(SortRole, value);
  setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
}

NumberItem *NumberItem::fromText(const QString &text, int significant) {
  auto *item = new NumberItem;
  const QString shown = formatValueText(text, significant);
  item->setText(shown);
  // A number when formatValueText read it as one (recorded values are C-locale text); a choice,
  // a path or "nan" stays text.
  bool ok = false;
  const double value = text.trimmed().toDouble(&ok);
  if (ok && shown == formatNumber(value, significant)) {
    item->setData(SortRole, value);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  }
  return item;
}

bool NumberItem::operator<(const QTableWidgetItem &other) const {
  const QVariant mine = data(SortRole), theirs = other.data(SortRole);
  if (mine.isValid() && theirs.isValid()) return mine.toDouble() < theirs.toDouble();
  if (mine.isValid() != theirs.isValid()) return mine.isValid();  // numbers first
  return QTableWidgetItem::operator<(other);
}

}  // namespace tw::ui
