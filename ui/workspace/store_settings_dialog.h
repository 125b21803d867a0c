#pragma once
// Workspace > Tracking Store…: where the workspace records its runs, as `store:` in its
// workspace.yaml (tracking/workspace_store.h): empty for its own tracking.db, or a PostgreSQL URL
// that several machines share. A URL with a password is refused before anything is written; the
// password belongs in ~/.pgpass or PGPASSWORD. TW_STORE, when set, wins over the setting, and the
// dialog says so.

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace tw::ui {

class StoreSettingsDialog : public QDialog {
  Q_OBJECT

 public:
  StoreSettingsDialog(const QString &workspaceDir, QWidget *parent = nullptr);

  QLineEdit *locationEdit() const { return m_location; }
  QLabel *problemLabel() const { return m_problem; }
  // Writes the setting; false (and the problem shown) when it is refused or cannot be written.
  bool apply();

 private:
  QString m_workspace;
  QLineEdit *m_location;
  QLabel *m_problem;
  QDialogButtonBox *m_buttons;
};

}  // namespace tw::ui
