#pragma once
// Help > Keyboard Shortcuts: a table of every shortcut the window offers (collectShortcuts),
// read when the dialog opens.

#include <QDialog>

class QTableWidget;
class QTabWidget;

namespace tw::ui {

class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  ShortcutsDialog(QWidget *window, QTabWidget *pages);
  QTableWidget *table() const { return m_table; }

 private:
  QTableWidget *m_table;
};

}  // namespace tw::ui
