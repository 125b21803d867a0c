#include "ui/common/visible_rows.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>
#include <QTreeView>

#include <algorithm>

namespace tw::ui {

int rowHeightOf(const QAbstractItemView *view) {
  int height = 0;
  if (auto *table = qobject_cast<const QTableView *>(view)) height = table->verticalHeader()->defaultSectionSize();
  if (view->model() && view->model()->rowCount() > 0)
    height = std::max(height, view->visualRect(view->model()->index(0, 0)).height());
  // An empty tree has no row to measure: a line of text and the style's item margins.
  return height > 0 ? height : view->fontMetrics().height() + 6;
}

void keepRowsVisible(QAbstractItemView *view, int rows) {
  int header = 0;
  if (auto *table = qobject_cast<QTableView *>(view); table && !table->horizontalHeader()->isHidden())
    header = table->horizontalHeader()->sizeHint().height();
  if (auto *tree = qobject_cast<QTreeView *>(view); tree && !tree->isHeaderHidden())
    header = tree->header()->sizeHint().height();
  // A horizontal scroll bar may take a row's place when the columns are wide.
  const int scrollBar = view->horizontalScrollBar()->sizeHint().height();
  view->setMinimumHeight(header + rows * rowHeightOf(view) + scrollBar + 2 * view->frameWidth());
}

}  // namespace tw::ui
