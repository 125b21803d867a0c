#include "ui/help/shortcuts_dialog.h"

#include "ui/common/visible_rows.h"
#include "ui/help/shortcut_list.h"

#include <QDialogButtonBox>
#include <QPushButton>
#include <QHeaderView>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tw::ui {

ShortcutsDialog::ShortcutsDialog(QWidget *window, QTabWidget *pages)
    : QDialog(window), m_table(new QTableWidget(this)) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard Shortcuts"));
  const std::vector<ShortcutEntry> entries = collectShortcuts(window, pages);
  m_table->setObjectName(QStringLiteral("shortcutsTable"));
  m_table->setColumnCount(3);
  m_table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut"), tr("Where")});
  m_table->setRowCount(static_cast<int>(entries.size()));
  for (int row = 0; row < static_cast<int>(entries.size()); ++row) {
    const ShortcutEntry &entry = entries[static_cast<size_t>(row)];
    m_table->setItem(row, 0, new QTableWidgetItem(entry.action));
    m_table->setItem(row, 1, new QTableWidgetItem(entry.keys));
    m_table->setItem(row, 2, new QTableWidgetItem(entry.where));
  }
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->verticalHeader()->hide();
  m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_table->resizeColumnToContents(1);
  m_table->resizeColumnToContents(2);
  keepRowsVisible(m_table);
  auto *buttons = new QDialogButtonBox(this);
  buttons->addButton(new QPushButton(tr("Close"), buttons), QDialogButtonBox::RejectRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_table, 1);
  layout->addWidget(buttons);
  resize(560, 520);
}

}  // namespace tw::ui
