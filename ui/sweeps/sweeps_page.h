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

class LaunchPage;
class ModelDocument;
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
  QString lastSweepFile() const { return m_lastSweepFile; }

 Q_SIGNALS:
  void openRunRequested(qint64 runId);
  void exportRunRequested(qint64 runId);
  void launchConfigurationRequested(const std::map<std::string, std::string> &params);

 private:
  // Writes the sweep file and starts the sweep once the base run passed its check.
  void startChecked(const QString &baseYaml);
  void setStatus(const QString &text, bool error);
  void requestStop(qint64 studyId);
  void refreshModel();

  ModelDocument *m_model;
  LaunchPage *m_launch;
  QString m_workspace;
  QString m_lastSweepFile;
  QTabWidget *m_tabs;
  SweepForm *m_form;
  StudyView *m_studies;
  SweepLauncher *m_launcher;
  QLabel *m_status;
};

}  // namespace tw::ui
