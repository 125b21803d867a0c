#pragma once
// The Sweeps page: "New Sweep" (SweepForm: the space over the Design page's model and the
// Launch page's run, sampler, pruner, budget) and "Studies" (StudyView, live). Start writes the
// sweep file into <workspace>/studies/ and runs `torchwright sweep --detach`; Stop sets the
// study's stop flag in the database; Resume runs `torchwright sweep --resume --detach`.
//
//   auto *sweeps = new SweepsPage(designPage->document(), launchPage, this);
//   connect(session, &WorkspaceSession::opened, sweeps, &SweepsPage::setWorkspace);

#include <QWidget>

#include <map>
#include <string>

class QLabel;
class QTabWidget;

namespace tw::ui {

class BaseRunBox;
class LaunchPage;
class ModelDocument;
class StoreCall;
class StudyView;
class SweepForm;
class SweepLauncher;

class SweepsPage : public QWidget {
  Q_OBJECT

 public:
  SweepsPage(ModelDocument *model, LaunchPage *launch, QWidget *parent = nullptr);

  void setWorkspace(const QString &dir);
  QString workspace() const { return m_workspace; }
  // Checks the Launch page's run off the UI thread, then writes the sweep file and starts it;
  // the status line says how it went.
  void start();

  SweepForm *form() const { return m_form; }
  StudyView *studies() const { return m_studies; }
  SweepLauncher *launcher() const { return m_launcher; }
  QTabWidget *tabs() const { return m_tabs; }
  QString statusText() const;
  // What each trial of a new sweep trains: the Launch page's model and data.
  BaseRunBox *baseRun() const { return m_base; }
  QString lastSweepFile() const { return m_lastSweepFile; }

 Q_SIGNALS:
  void openRunRequested(qint64 runId);
  void exportRunRequested(qint64 runId);
  void launchConfigurationRequested(const std::map<std::string, std::string> &params);
  // "Change on Launch Page": the base run's model and data are set there.
  void launchPageRequested();

 protected:
  void showEvent(QShowEvent *event) override;

 private:
  // Writes the sweep file and starts the sweep once the base run passed its check.
  void startChecked(const QString &baseYaml);
  void setStatus(const QString &text, bool error);
  void requestStop(qint64 studyId);
  void refreshModel();
  // Replaces the "runs in the background (pid ...)" line once that sweep's driver let its study go.
  void showBackgroundEnd();

  ModelDocument *m_model;
  LaunchPage *m_launch;
  QString m_workspace;
  std::string m_store;  // the workspace's tracking store (tracking/workspace_store.h)
  StoreCall *m_stopCall = nullptr;
  QString m_lastSweepFile;
  QTabWidget *m_tabs;
  SweepForm *m_form;
  StudyView *m_studies;
  SweepLauncher *m_launcher;
  QLabel *m_status;
  BaseRunBox *m_base;
  QString m_background;     // uuid or name of the study a started driver runs; empty: none
  QString m_resumedStudy;   // the name Resume was asked for
  qint64 m_backgroundSinceMs = 0;
};

}  // namespace tw::ui
