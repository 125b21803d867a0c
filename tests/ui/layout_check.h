#pragma once
// What a person would see as broken on a window now: a visible control narrower than its text
// needs, or a table or tree showing fewer than 8 rows. Shared by the layout and tour tests.

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QStringList>
#include <QTableView>
#include <QTreeView>
#include <QWidget>

#include <algorithm>

namespace tw::test {

constexpr int kMinimumRows = 8;

inline QString describe(const QWidget *widget) {
  QString text;
  if (auto *button = qobject_cast<const QAbstractButton *>(widget)) text = button->text();
  if (auto *label = qobject_cast<const QLabel *>(widget)) text = label->text();
  if (auto *box = qobject_cast<const QComboBox *>(widget)) text = box->currentText();
  const QString name = widget->objectName().isEmpty() ? QString() : QLatin1Char('#') + widget->objectName();
  return QStringLiteral("%1%2 '%3'").arg(QString::fromLatin1(widget->metaObject()->className()), name, text.left(60));
}

// A label without text, or a button that shows only an icon, has nothing to squeeze.
inline bool hasText(const QWidget *widget) {
  if (auto *label = qobject_cast<const QLabel *>(widget)) return !label->text().isEmpty();
  if (auto *button = qobject_cast<const QAbstractButton *>(widget)) return !button->text().isEmpty();
  return true;
}

inline bool isControl(const QWidget *widget) {
  return qobject_cast<const QAbstractButton *>(widget) || qobject_cast<const QLineEdit *>(widget) ||
         qobject_cast<const QComboBox *>(widget) || qobject_cast<const QAbstractSpinBox *>(widget) ||
         qobject_cast<const QLabel *>(widget);
}

// Rows a view shows: its viewport's height over one row's.
inline int rowsShown(const QAbstractItemView *view) {
  int rowHeight = 0;
  if (auto *table = qobject_cast<const QTableView *>(view)) rowHeight = table->verticalHeader()->defaultSectionSize();
  if (view->model() && view->model()->rowCount() > 0)
    rowHeight = std::max(rowHeight, view->visualRect(view->model()->index(0, 0)).height());
  if (rowHeight <= 0) rowHeight = view->fontMetrics().height() + 4;
  return view->viewport()->height() / rowHeight;
}

// What is wrong on screen now, one line a problem.
inline QStringList layoutProblems(const QWidget *window) {
  QStringList problems;
  for (const QWidget *widget : window->findChildren<QWidget *>()) {
    if (!widget->isVisible()) continue;
    // The tab bar's scroll arrows and a line edit's clear button are parts of other controls.
    if (widget->parentWidget() && (qobject_cast<const QLineEdit *>(widget->parentWidget()) ||
                                   qobject_cast<const QAbstractSpinBox *>(widget->parentWidget())))
      continue;
    if (isControl(widget) && hasText(widget)) {
      const int need = widget->minimumSizeHint().width();
      if (widget->width() < need)
        problems << QStringLiteral("%1: %2 px wide, needs %3").arg(describe(widget)).arg(widget->width()).arg(need);
    }
    if (auto *view = qobject_cast<const QAbstractItemView *>(widget);
        view && (qobject_cast<const QTableView *>(view) || qobject_cast<const QTreeView *>(view))) {
      const int rows = rowsShown(view);
      // A table capped on purpose (the System tab's ranks) passes while it shows all its rows.
      const bool cappedAndWhole = view->maximumHeight() < QWIDGETSIZE_MAX && view->model() &&
                                  view->model()->rowCount() <= rows;
      if (rows < kMinimumRows && !cappedAndWhole)
        problems << QStringLiteral("%1: shows %2 rows").arg(describe(view)).arg(rows);
    }
  }
  return problems;
}

}  // namespace tw::test
