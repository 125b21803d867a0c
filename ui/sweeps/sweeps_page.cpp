#include "ui/sweeps/sweeps_page.h"

#include "core/config/workspace.h"
#include "tracking/store.h"
#include "tracking/workspace_store.h"
#include "ui/common/store_call.h"
#include "ui/design/model_document.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/run_check.h"
#include "ui/sweeps/base_run_box.h"
#include "ui/sweeps/study_phase.h"
#include "ui/sweeps/study_view.h"
#include "ui/sweeps/sweep_form.h"
#include "ui/sweeps/sweep_launcher.h"

#include <QDateTime>
#include <QDir>
#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

SweepsPage::SweepsPage(ModelDocument *model, LaunchPage *launch, QWidget *parent)
    : QWidget(parent), m_model(model), m_launch(launch), m_tabs(new QTabWidget(this)), m_form(new SweepForm(this)),
      m_studies(new StudyView(this)), m_launcher(new SweepLauncher(this)), m_status(new QLabel(this)),
      m_base(new BaseRunBox(launch, model, this)) {
  m_stopCall = new StoreCall(this, StoreCall::Delivery::Every);
  m_tabs->addTab(m_form, tr("New Sweep"));
  m_tabs->addTab(m_studies, tr("Studies"));
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_tabs, 1);
  // What a new sweep trains heads its form (scrolling with it, so small screens keep their rows).
  m_form->setHeader(m_base);
  connect(m_tabs, &QTabWidget::currentChanged, m_base, &BaseRunBox::refresh);
  connect(m_base, &BaseRunBox::changeRequested, this, &SweepsPage::launchPageRequested);
  layout->addWidget(m_status);

  // The offered model fields follow the Design page's model as it is edited.
  connect(m_model, &ModelDocument::changed, this, &SweepsPage::refreshModel);
  refreshModel();
  connect(m_form, &SweepForm::startRequested, this, &SweepsPage::start);
  connect(m_launcher, &SweepLauncher::started, this, [this](const QString &uuid, const QString &message) {
    m_form->startButton()->setEnabled(true);
    setStatus(message.isEmpty() ? tr("The sweep runs in the background.") : message, false);
    // The line names the driver's pid: it goes once the study says the driver let it go.
    m_background = uuid.isEmpty() ? m_resumedStudy : uuid;
    m_backgroundSinceMs = QDateTime::currentMSecsSinceEpoch();
    showBackgroundEnd();
    if (!uuid.isEmpty()) m_studies->selectStudyUuid(uuid);
    m_tabs->setCurrentWidget(m_studies);
  });
  connect(m_launcher, &SweepLauncher::failed, this, [this](const QString &message) {
    m_form->startButton()->setEnabled(true);
    setStatus(tr("The sweep did not start: %1").arg(message), true);
  });
  connect(m_studies, &StudyView::stopRequested, this, &SweepsPage::requestStop);
  connect(m_studies, &StudyView::resumeRequested, this, [this](const QString &study) {
    if (m_workspace.isEmpty() || !m_launcher->resume(study, m_workspace)) return;
    m_resumedStudy = study;
    m_studies->resumeButton()->setEnabled(false);
    setStatus(tr("Resuming %1…").arg(study), false);
  });
  connect(m_studies, &StudyView::studiesChanged, this, &SweepsPage::showBackgroundEnd);
  connect(m_studies, &StudyView::openRunRequested, this, &SweepsPage::openRunRequested);
  connect(m_studies, &StudyView::exportRunRequested, this, &SweepsPage::exportRunRequested);
  connect(m_studies, &StudyView::launchConfigurationRequested, this, &SweepsPage::launchConfigurationRequested);
}

void SweepsPage::refreshModel() {
  m_form->setModel(m_model->toYaml());
  m_base->refresh();
}

void SweepsPage::showEvent(QShowEvent *event) {
  QWidget::showEvent(event);
  m_base->refresh();  // the Launch page's form may have changed while this page was hidden
}

void SweepsPage::showBackgroundEnd() {
  if (m_background.isEmpty()) return;
  for (const StudySummary &summary : m_studies->summaries()) {
    const bool ours = QString::fromStdString(summary.study.uuid) == m_background ||
                      QString::fromStdString(summary.study.name) == m_background;
    // Idle again after the driver started (its release is the last thing a driver writes), or
    // silent for longer than a live driver ever is (killed before it could write it).
    const StudyClock clock = m_studies->clock();
    const bool gone = summary.study.status != "RUNNING" ? summary.study.updatedMs >= m_backgroundSinceMs
                                                        : driverSilent(summary, clock);
    if (!ours || !gone) continue;
    m_background.clear();
    setStatus(tr("The sweep of study %1 ended. %2")
                  .arg(QString::fromStdString(summary.study.name), studyPhaseReason(summary, clock)),
              false);
    return;
  }
}

void SweepsPage::setWorkspace(const QString &dir) {
  m_workspace = dir;
  // The session opened the workspace only once its store setting read well; it is read the same.
  try {
    m_store = dir.isEmpty() ? std::string() : tracking::workspaceStore(dir.toStdString());
  } catch (const std::exception &e) {
    m_store.clear();
    setStatus(QString::fromUtf8(e.what()), true);
  }
  m_studies->setDatabase(QString::fromStdString(m_store));
}

QString SweepsPage::statusText() const { return m_status->text(); }

void SweepsPage::setStatus(const QString &text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color: #c62828") : QString());
}

void SweepsPage::start() {
  if (m_workspace.isEmpty()) {
    setStatus(tr("Open a workspace first."), true);
    return;
  }
  if (!m_model->analysis().ok()) {
    setStatus(tr("The model has problems; fix them on the Design page first."), true);
    return;
  }
  m_base->refresh();
  const QString baseYaml = m_launch->runYaml();
  const QString base = QDir(QDir(m_workspace).filePath(QStringLiteral("studies"))).filePath(QStringLiteral("base.run.yaml"));
  // The base must be a run `torchwright launch` would take; its problems are named here. The
  // check reads the data source, so it runs off the UI thread, as the Launch page's does.
  m_form->startButton()->setEnabled(false);
  setStatus(tr("Checking the run…"), false);
  auto *watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, baseYaml] {
    const QString problems = watcher->result();
    watcher->deleteLater();
    if (!problems.isEmpty()) {
      m_form->startButton()->setEnabled(true);
      setStatus(tr("Not started: the Launch page's run has problems: %1").arg(problems), true);
      return;
    }
    startChecked(baseYaml);
  });
  watcher->setFuture(QtConcurrent::run([baseYaml, base] { return runFileProblems(baseYaml, base); }));
}

void SweepsPage::startChecked(const QString &baseYaml) {
  m_form->setBaseYaml(baseYaml);
  QString path, error;
  if (!m_form->save(m_workspace, &path, &error)) {
    m_form->startButton()->setEnabled(true);
    setStatus(tr("Not started: %1").arg(error), true);
    return;
  }
  m_lastSweepFile = path;
  m_background.clear();
  if (!m_launcher->start(path, m_workspace)) {
    m_form->startButton()->setEnabled(true);
    return;
  }
  setStatus(tr("Starting the sweep %1: %2 on %3…")
                .arg(QDir::toNativeSeparators(path), m_base->modelText(), m_base->dataText()),
            false);
}

void SweepsPage::requestStop(qint64 studyId) {
  if (m_workspace.isEmpty()) return;
  m_studies->stopButton()->setEnabled(false);
  m_stopCall->run<bool>(
      QString::fromStdString(m_store),
      [studyId](tracking::Store &store) {
        store.requestStudyStop(studyId);
        return true;
      },
      [this](bool) { setStatus(tr("Asked the sweep to stop; running trials end and no new one starts."), false); },
      [this](const QString &error) { setStatus(tr("Cannot ask the sweep to stop: %1").arg(error), true); });
}

}  // namespace tw::ui
