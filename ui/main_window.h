#pragma once
// Studio's frame: menus, status bar and the pages. Pages bring their own widgets and logic;
// this class only places them, opens workspaces and remembers the window's layout.

#include "ui/workspace/poll_results.h"

#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace tw::ui {

class ComparePage;
class DesignPage;
class LaunchPage;
class ModelsPage;
class RunsPage;
class SweepsPage;
class WorkspaceSession;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget *parent = nullptr);
  ~MainWindow() override;

  bool openWorkspace(const QString &dir);
  WorkspaceSession *session() const { return m_session; }
  RunsPage *runsPage() const { return m_runsPage; }
  DesignPage *designPage() const { return m_designPage; }
  LaunchPage *launchPage() const { return m_launchPage; }
  ComparePage *comparePage() const { return m_comparePage; }
  SweepsPage *sweepsPage() const { return m_sweepsPage; }
  ModelsPage *modelsPage() const { return m_modelsPage; }
  QTabWidget *pages() const { return m_pages; }

 protected:
  void closeEvent(QCloseEvent *event) override;

 private:
  void createMenus();
  void chooseWorkspace();
  void showAbout();
  void showShortcuts();
  void showUserGuide();
  void onDatabaseState(tw::ui::DbState state, const QString &detail);
  void updateRunCount(int count);
  void saveSettings() const;
  void restoreSettings();

  WorkspaceSession *m_session = nullptr;
  RunsPage *m_runsPage = nullptr;
  DesignPage *m_designPage = nullptr;
  LaunchPage *m_launchPage = nullptr;
  ComparePage *m_comparePage = nullptr;
  SweepsPage *m_sweepsPage = nullptr;
  ModelsPage *m_modelsPage = nullptr;
  QTabWidget *m_pages = nullptr;
  QLabel *m_workspaceLabel = nullptr;
  QLabel *m_runCountLabel = nullptr;
  QLabel *m_stateLabel = nullptr;
};

}  // namespace tw::ui
