// The Launch page's status line: what the page is doing, why it refused, and then the launched
// run's state as the workspace's database poller reports it (running, finished, failed, stopped),
// so the line never goes on saying "training" about a run that has ended.

#include "ui/launch/launch_page.h"

#include <QLabel>

namespace tw::ui {

QString LaunchPage::statusText() const { return m_status->text(); }

void LaunchPage::setStatus(const QString &text, bool error) {
  m_refusalShown = false;
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color: #c62828") : QString());
}

void LaunchPage::showRefusal(const QString &text) {
  setStatus(text, true);
  m_refusalShown = true;
}

void LaunchPage::followRuns(const RunsUpdate &update) {
  for (const RunSnapshot &snapshot : update.runs)
    m_runStates[QString::fromStdString(snapshot.run.uuid)] = {snapshot.run.status,
                                                               QString::fromStdString(snapshot.run.statusMessage)};
  if (!m_launchedUuid.isEmpty() && m_runStates.contains(m_launchedUuid)) showLaunchedRunState();
}

void LaunchPage::showLaunchedRunState() {
  const QString run = m_launchedUuid.left(8);
  const RunState state = m_runStates.value(m_launchedUuid);
  switch (state.status) {
    case tracking::RunStatus::Created:
    case tracking::RunStatus::Running: setStatus(tr("Run %1 is training in the background.").arg(run), false); break;
    case tracking::RunStatus::Finished: setStatus(tr("Run %1 finished.").arg(run), false); break;
    case tracking::RunStatus::Failed:
      setStatus(state.message.isEmpty() ? tr("Run %1 failed.").arg(run) : tr("Run %1 failed: %2").arg(run, state.message), true);
      break;
    case tracking::RunStatus::Killed:
      setStatus(state.message.isEmpty() ? tr("Run %1 was stopped.").arg(run)
                                        : tr("Run %1 was stopped: %2").arg(run, state.message),
                false);
      break;
  }
}

}  // namespace tw::ui
