// The Runs page's context menus and what they do to runs: labels, notes, the archive mark, and
// the column chooser. Kept apart from runs_page.cpp, which builds the page.

#include "ui/runs/runs_page.h"

#include "core/config/checkpoint_choice.h"
#include "core/config/workspace.h"
#include "tracking/run_labels.h"
#include "ui/launch/cli_command.h"
#include "ui/launch/run_control.h"
#include "ui/models/export_dialog.h"
#include "ui/runs/report_writer.h"
#include "ui/runs/runs_filter.h"
#include "ui/runs/runs_table_model.h"
#include "ui/workspace/workspace_session.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QMenu>
#include <QPushButton>
#include <QTableView>

#include <algorithm>
#include <set>

namespace tw::ui {

QList<qint64> RunsPage::selectedIdList() const {
  QList<qint64> ids;
  for (int64_t id : selectedRunIds()) ids << id;
  return ids;
}

void RunsPage::addLabelToSelection(const QString &typed) {
  const std::string label = tracking::normalizeLabel(typed.toStdString());
  const QList<qint64> ids = selectedIdList();
  if (label.empty() || ids.isEmpty()) return;
  for (qint64 id : ids) m_model->setTagLocally(id, tracking::labelKey(label), std::string());
  m_control->setTag(m_session->databasePath(), ids, QString::fromStdString(tracking::labelKey(label)), QString());
}

void RunsPage::removeLabelFromSelection(const QString &label) {
  const QList<qint64> ids = selectedIdList();
  if (ids.isEmpty()) return;
  const std::string key = tracking::labelKey(label.toStdString());
  for (qint64 id : ids) m_model->setTagLocally(id, key, std::nullopt);
  m_control->removeTag(m_session->databasePath(), ids, QString::fromStdString(key));
  refreshLabelFilter();
}

void RunsPage::setSelectionArchived(bool archived) {
  const QList<qint64> ids = selectedIdList();
  if (ids.isEmpty()) return;
  for (qint64 id : ids)
    m_model->setTagLocally(id, tracking::kArchivedTag, archived ? std::optional<std::string>("1") : std::nullopt);
  if (archived)
    m_control->setTag(m_session->databasePath(), ids, QLatin1String(tracking::kArchivedTag), QStringLiteral("1"));
  else
    m_control->removeTag(m_session->databasePath(), ids, QLatin1String(tracking::kArchivedTag));
}

void RunsPage::setNote(int64_t runId, const QString &note) {
  const QString trimmed = note.trimmed();
  m_model->setTagLocally(runId, tracking::kNoteTag,
                         trimmed.isEmpty() ? std::nullopt : std::optional(trimmed.toStdString()));
  if (trimmed.isEmpty())
    m_control->removeTag(m_session->databasePath(), {runId}, QLatin1String(tracking::kNoteTag));
  else
    m_control->setTag(m_session->databasePath(), {runId}, QLatin1String(tracking::kNoteTag), trimmed);
}

void RunsPage::askLabelForSelection() {
  if (selectedRunIds().empty()) return;
  bool ok = false;
  const QString label = QInputDialog::getItem(this, tr("Add Tag"), tr("Tag for the selected runs:"),
                                              m_model->knownLabels(), -1, true, &ok);
  if (ok) addLabelToSelection(label);
}

void RunsPage::editCurrentNote() {
  auto snapshot = m_model->snapshot(selectedRunId());
  if (!snapshot) return;
  bool ok = false;
  const QString note = QInputDialog::getMultiLineText(this, tr("Note"), tr("Note on %1:").arg(QString::fromStdString(snapshot->run.name)),
                                                      QString::fromStdString(tracking::noteOf(snapshot->tags)), &ok);
  if (ok) setNote(snapshot->run.id, note);
}

void RunsPage::refreshLabelFilter() {
  const QString current = m_filterLabel->currentIndex() > 0 ? m_filterLabel->currentText() : QString();
  const QStringList labels = m_model->knownLabels();
  QSignalBlocker quiet(m_filterLabel);
  while (m_filterLabel->count() > 1) m_filterLabel->removeItem(1);
  m_filterLabel->addItems(labels);
  const int index = current.isEmpty() ? 0 : m_filterLabel->findText(current);
  m_filterLabel->setCurrentIndex(std::max(0, index));
  // The label filtered on is gone from every run: the filter goes with it.
  if (index < 0 && !current.isEmpty()) m_proxy->setLabel(QString());
}

void RunsPage::showRunMenu(const QPoint &position) {
  const std::vector<int64_t> ids = selectedRunIds();
  if (ids.empty()) return;
  QMenu menu(this);
  menu.setToolTipsVisible(true);
  menu.addAction(tr("Add Tag..."), this, &RunsPage::askLabelForSelection);
  // The labels the selected runs carry, to take off again.
  std::set<std::string> labels;
  bool anyArchived = false, anyActive = false;
  for (int64_t id : ids) {
    auto snapshot = m_model->snapshot(id);
    if (!snapshot) continue;
    for (auto &label : tracking::labelsOf(snapshot->tags)) labels.insert(std::move(label));
    (tracking::isArchived(snapshot->tags) ? anyArchived : anyActive) = true;
  }
  if (!labels.empty()) {
    QMenu *remove = menu.addMenu(tr("Remove Tag"));
    for (const auto &label : labels) {
      const QString text = QString::fromStdString(label);
      remove->addAction(text, this, [this, text] { removeLabelFromSelection(text); });
    }
  }
  QAction *note = menu.addAction(tr("Edit Note..."), this, &RunsPage::editCurrentNote);
  note->setEnabled(selectedRunId() != 0);
  QAction *exportRun = menu.addAction(tr("Export..."), this, [this] { openExportDialog(selectedRunId()); });
  menu.addAction(tr("Export Report..."), this, &RunsPage::chooseReportFile)
      ->setToolTip(tr("One HTML page about the selected runs, to open in any browser"));
  exportRun->setEnabled(ids.size() == 1);
  QAction *resume = menu.addAction(tr("Resume"), this, [this] { resumeRun(selectedRunId()); });
  {
    auto snapshot = ids.size() == 1 ? m_model->snapshot(ids.front()) : std::nullopt;
    resume->setEnabled(snapshot && (snapshot->run.status == tracking::RunStatus::Killed ||
                                    snapshot->run.status == tracking::RunStatus::Failed));
  }
  QAction *reproduce = menu.addAction(tr("Reproduce"), this, [this] { reproduceRun(selectedRunId()); });
  {
    auto snapshot = ids.size() == 1 ? m_model->snapshot(ids.front()) : std::nullopt;
    reproduce->setEnabled(snapshot && !snapshot->run.configYaml.empty());
    reproduce->setToolTip(tr("Train the run again from its recorded configuration and report whether its "
                             "metrics match"));
  }
  QAction *clone = menu.addAction(tr("Clone into Launch"), this, [this] {
    if (auto snapshot = m_model->snapshot(selectedRunId()))
      Q_EMIT cloneRequested(QString::fromStdString(snapshot->run.configYaml));
  });
  clone->setEnabled(ids.size() == 1);
  menu.addSeparator();
  if (anyActive) menu.addAction(tr("Archive"), this, [this] { setSelectionArchived(true); });
  if (anyArchived) menu.addAction(tr("Unarchive"), this, [this] { setSelectionArchived(false); });
  menu.addSeparator();
  for (QPushButton *button : {m_compare, m_stop, m_checkpoint, m_delete}) {
    QAction *action = menu.addAction(button->text(), button, &QPushButton::click);
    action->setEnabled(button->isEnabled());
  }
  menu.exec(m_table->viewport()->mapToGlobal(position));
}

bool RunsPage::exportReport(const QString &file) {
  const std::vector<int64_t> ids = selectedRunIds();
  if (ids.empty() || file.isEmpty()) return false;
  m_report->write(m_session->databasePath(), ids, file);
  return true;
}

void RunsPage::chooseReportFile() {
  const std::vector<int64_t> ids = selectedRunIds();
  if (ids.empty()) {
    Q_EMIT reportFinished(false, tr("select the runs to report on the Runs page first"));
    return;
  }
  const auto first = m_model->snapshot(ids.front());
  const QString name = first ? QString::fromStdString(first->run.name) + QStringLiteral("-report.html") : QStringLiteral("report.html");
  const QString file = QFileDialog::getSaveFileName(this, tr("Export Report"), QDir::home().filePath(name),
                                                    tr("HTML pages (*.html)"));
  if (!file.isEmpty()) exportReport(file);
}

bool RunsPage::resumeRun(int64_t runId) {
  auto snapshot = m_model->snapshot(runId);
  if (!snapshot) return false;
  return runCli(m_resumeCommand,
                {"launch", "--resume", QString::fromStdString(snapshot->run.uuid), "--detach", "--workspace",
                 m_session->workspaceDir()},
                &RunsPage::resumeFinished);
}

bool RunsPage::reproduceRun(int64_t runId) {
  auto snapshot = m_model->snapshot(runId);
  if (!snapshot) return false;
  return runCli(m_reproduceCommand,
                {"reproduce", QString::fromStdString(snapshot->run.uuid), "--detach", "--workspace",
                 m_session->workspaceDir()},
                &RunsPage::reproduceFinished);
}

bool RunsPage::runCli(CliCommand *&command, const QStringList &arguments,
                      void (RunsPage::*done)(int, const QString &)) {
  if (!command) {
    command = new CliCommand(this);
    connect(command, &CliCommand::finished, this, [this, done](int code, const QString &out, const QString &err) {
      Q_EMIT(this->*done)(code, code == 0 ? out.trimmed() : err);
    });
    connect(command, &CliCommand::failedToStart, this,
            [this, done](const QString &message) { Q_EMIT(this->*done)(127, message); });
  }
  if (!m_cliPath.isEmpty()) command->setCliPath(m_cliPath);
  return command->run(arguments);
}

ExportDialog *RunsPage::openExportDialog(int64_t runId) {
  auto snapshot = m_model->snapshot(runId);
  if (!snapshot) return nullptr;
  auto *dialog = new ExportDialog(m_session->workspaceDir(), QString::fromStdString(snapshot->run.uuid),
                                  QString::fromStdString(snapshot->run.name), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (!m_cliPath.isEmpty()) dialog->setCliPath(m_cliPath);
  // A listing of a few names: the run folder's checkpoints, not a read of them.
  const std::string runDir = snapshot->run.runDir.empty()
                                 ? config::runDir(m_session->workspaceDir().toStdString(), snapshot->run.uuid)
                                 : snapshot->run.runDir;
  dialog->setKeptEpochs(config::keptEpochs(runDir + "/checkpoints"));
  dialog->show();
  return dialog;
}

void RunsPage::setColumnVisible(int column, bool visible) {
  m_table->horizontalHeader()->setSectionHidden(column, !visible);
}

void RunsPage::setExtraColumnShown(const ExtraColumn &column, bool shown) {
  if (shown) {
    m_model->addExtraColumn(column);
    m_table->horizontalHeader()->resizeSection(m_model->columnOf(column), 110);
  } else {
    m_model->removeExtraColumn(column);
  }
}

void RunsPage::showHeaderMenu(const QPoint &position) {
  QMenu menu(this);
  QHeaderView *header = m_table->horizontalHeader();
  // The name identifies a row: it always stays.
  for (int column = RunsTableModel::Experiment; column < RunsTableModel::FixedColumnCount; ++column) {
    QAction *action = menu.addAction(m_model->headerData(column, Qt::Horizontal).toString());
    action->setCheckable(true);
    action->setChecked(!header->isSectionHidden(column));
    connect(action, &QAction::toggled, this, [this, column](bool on) { setColumnVisible(column, on); });
  }
  menu.addSeparator();
  auto addKeys = [&](const QString &title, const QStringList &keys, ExtraColumn::Kind kind) {
    QMenu *sub = menu.addMenu(title);
    sub->setEnabled(!keys.isEmpty());
    for (const QString &key : keys) {
      const ExtraColumn column{kind, key.toStdString()};
      QAction *action = sub->addAction(key);
      action->setCheckable(true);
      action->setChecked(m_model->columnOf(column) >= 0);
      connect(action, &QAction::toggled, this, [this, column](bool on) { setExtraColumnShown(column, on); });
    }
  };
  addKeys(tr("Metrics"), m_model->knownMetricKeys(), ExtraColumn::Kind::Metric);
  addKeys(tr("Parameters"), m_model->knownParamKeys(), ExtraColumn::Kind::Param);
  menu.exec(header->mapToGlobal(position));
}

}  // namespace tw::ui
