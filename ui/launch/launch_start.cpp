// Launch: the form's run file checked by the core's validator off the UI thread, then written to
// the workspace's studio-runs/ folder and started with `torchwright launch --detach`.

#include "ui/launch/launch_page.h"

#include "ui/design/model_document.h"
#include "ui/launch/model_source.h"
#include "ui/launch/range_spin_box.h"
#include "ui/launch/run_check.h"
#include "ui/launch/run_launcher.h"

#include <QDateTime>
#include <QDir>
#include <QFutureWatcher>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QtConcurrent/QtConcurrentRun>

namespace tw::ui {

void LaunchPage::launch() {
  // A number outside its range is never launched as the value the field went back to unseen;
  // one typed but not yet taken (Ctrl+Return in the field) is taken first.
  for (QWidget *field : findChildren<QWidget *>())
    if (const QString problem = rangeInputProblem(field); !problem.isEmpty()) {
      showRefusal(tr("Not launched: %1").arg(problem));
      return;
    }
  for (QWidget *field : findChildren<QWidget *>()) finishRangeInput(field);
  if (!m_inputRefusal.isEmpty()) {
    showRefusal(tr("Not launched: %1").arg(m_inputRefusal));
    m_inputRefusal.clear();  // said once; the field shows the value a second Launch trains with
    return;
  }
  if (m_workspace.isEmpty()) {
    showRefusal(tr("Open a workspace first."));
    return;
  }
  if (m_modelSource->usesFile() && m_modelSource->modelFile().isEmpty()) {
    showRefusal(tr("Choose a model file first."));
    return;
  }
  if (!m_modelSource->usesFile() && !m_model->analysis().ok()) {
    showRefusal(tr("The model has problems; fix them on the Design page first."));
    return;
  }
  const QString folder = QDir(m_workspace).filePath(QStringLiteral("studio-runs"));
  QDir().mkpath(folder);
  const QString path = QDir(folder).filePath(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss-zzz")) +
                                             QStringLiteral(".run.yaml"));
  // Refused before a run file or a run exists, by the checks `torchwright check` and `launch`
  // apply; they read the data source and the model file, so they run on a worker thread.
  const QString yaml = runYaml();
  const int processes = m_processes->value();
  m_launch->setEnabled(false);
  setStatus(tr("Checking the run…"), false);
  using Check = std::pair<QString, ClassFit>;
  auto *watcher = new QFutureWatcher<Check>(this);
  connect(watcher, &QFutureWatcher<Check>::finished, this, [this, watcher, yaml, path, processes] {
    const auto [problems, fit] = watcher->result();
    watcher->deleteLater();
    offerHeadFit(fit.dataClasses);
    if (!problems.isEmpty()) {
      m_launch->setEnabled(true);
      showRefusal(tr("Not launched: %1").arg(problems));
      return;
    }
    // Fewer class scores than classes: training would refuse it once the run is recorded. The
    // Design page's model can be fixed here, with the offer beside Launch.
    if (!m_modelSource->usesFile() && fit.differs() && fit.modelClasses < fit.dataClasses) {
      m_launch->setEnabled(true);
      showRefusal(tr("Not launched: the model gives %1 class scores but the data has %2 classes; "
                     "Replace head (%2 classes) gives the model one score per class.")
                      .arg(fit.modelClasses)
                      .arg(fit.dataClasses));
      return;
    }
    writeAndLaunch(yaml, path, processes);
  });
  watcher->setFuture(QtConcurrent::run([yaml, path] { return Check(runFileProblems(yaml, path), runClassFit(yaml, path)); }));
}

void LaunchPage::writeAndLaunch(const QString &yaml, const QString &path, int processes) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(yaml.toUtf8()) < 0 || !file.commit()) {
    m_launch->setEnabled(true);
    setStatus(tr("Cannot write %1: %2").arg(path, file.errorString()), true);
    return;
  }
  if (!m_launcher->launch(path, m_workspace, processes)) {
    m_launch->setEnabled(true);
    return;
  }
  setStatus(tr("Starting…"), false);
}

}  // namespace tw::ui
