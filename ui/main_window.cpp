#include "ui/main_window.h"
#include "ui/launch/pack_dialog.h"

#include "ui/common/file_dialogs.h"
#include "ui/common/status_colors.h"
#include "ui/common/studio_icons.h"
#include "ui/compare/compare_page.h"
#include "ui/design/design_page.h"
#include "ui/help/shortcuts_dialog.h"
#include "ui/help/user_guide.h"
#include "ui/i18n/translations.h"
#include "ui/launch/example_run_files.h"
#include "ui/launch/launch_page.h"
#include "ui/models/models_page.h"
#include "ui/runs/runs_page.h"
#include "ui/studio_log.h"
#include "ui/sweeps/sweeps_page.h"
#include "ui/workspace/store_settings_dialog.h"
#include "ui/workspace/workspace_session.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>

namespace tw::ui {

namespace {
const char *const kGeometryKey = "mainWindow/geometry";
const char *const kWindowStateKey = "mainWindow/state";
const char *const kRunsPageKey = "mainWindow/runsPage";
const char *const kDesignPageKey = "mainWindow/designPage";
const char *const kCurrentPageKey = "mainWindow/currentPage";
}  // namespace

MainWindow::MainWindow(QWidget *parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(tr("Torchwright Studio"));
  m_session = new WorkspaceSession(this);
  m_runsPage = new RunsPage(m_session, this);
  m_designPage = new DesignPage(this);
  m_launchPage = new LaunchPage(m_designPage->document(), this);
  m_pages = new QTabWidget(this);
  m_pages->setDocumentMode(true);
  m_pages->addTab(m_designPage, tr("Design"));
  m_pages->addTab(m_launchPage, tr("Launch"));
  m_pages->addTab(m_runsPage, tr("Runs"));
  m_comparePage = new ComparePage(this);
  m_pages->addTab(m_comparePage, tr("Compare"));
  m_sweepsPage = new SweepsPage(m_designPage->document(), m_launchPage, this);
  m_pages->addTab(m_sweepsPage, tr("Sweeps"));
  m_modelsPage = new ModelsPage(this);
  m_pages->addTab(m_modelsPage, tr("Models"));
  connect(m_modelsPage, &ModelsPage::openRunRequested, this, [this](qint64 runId) {
    m_pages->setCurrentWidget(m_runsPage);
    m_runsPage->selectRun(runId);
  });
  // A trial is a run: it opens where runs are, and its configuration goes to the Launch page.
  connect(m_sweepsPage, &SweepsPage::openRunRequested, this, [this](qint64 runId) {
    m_pages->setCurrentWidget(m_runsPage);
    m_runsPage->selectRun(runId);
  });
  connect(m_sweepsPage, &SweepsPage::launchPageRequested, this, [this] { m_pages->setCurrentWidget(m_launchPage); });
  connect(m_sweepsPage, &SweepsPage::exportRunRequested, this, [this](qint64 runId) {
    m_pages->setCurrentWidget(m_runsPage);
    m_runsPage->selectRun(runId);
    m_runsPage->openExportDialog(runId);
  });
  connect(m_sweepsPage, &SweepsPage::launchConfigurationRequested, this,
          [this](const std::map<std::string, std::string> &params) {
            const QStringList skipped = m_launchPage->applySettings(params);
            m_pages->setCurrentWidget(m_launchPage);
            if (!skipped.isEmpty())
              statusBar()->showMessage(tr("Not applied to the Launch page: %1").arg(skipped.join(QStringLiteral(", "))), 10000);
          });
  connect(m_runsPage, &RunsPage::resumeFinished, this, [this](int code, const QString &message) {
    statusBar()->showMessage(code == 0 ? tr("Resuming: %1").arg(message) : tr("Cannot resume: %1").arg(message), 10000);
  });
  connect(m_runsPage, &RunsPage::reportFinished, this, [this](bool ok, const QString &message) {
    statusBar()->showMessage(ok ? tr("Report written to %1").arg(message) : tr("Cannot write the report: %1").arg(message),
                             10000);
  });
  connect(m_runsPage, &RunsPage::reproduceFinished, this, [this](int code, const QString &message) {
    statusBar()->showMessage(code == 0 ? tr("Reproducing: %1").arg(message) : tr("Cannot reproduce: %1").arg(message),
                             10000);
  });
  connect(m_runsPage, &RunsPage::cloneRequested, this, [this](const QString &configYaml) {
    QString error;
    const QStringList skipped = m_launchPage->applyRunConfig(configYaml, &error);
    if (!error.isEmpty()) {
      statusBar()->showMessage(tr("Cannot clone the run: %1").arg(error), 10000);
      return;
    }
    m_pages->setCurrentWidget(m_launchPage);
    if (!skipped.isEmpty())
      statusBar()->showMessage(tr("Not applied to the Launch page: %1").arg(skipped.join(QStringLiteral(", "))), 10000);
  });
  connect(m_runsPage, &RunsPage::compareRequested, this, [this](const std::vector<int64_t> &ids) {
    m_comparePage->compareRuns(m_session->databasePath(), ids);
    m_pages->setCurrentWidget(m_comparePage);
  });
  // A launched run is watched where runs are: the Runs page, with the new run selected.
  connect(m_launchPage, &LaunchPage::runLaunched, this, [this](const QString &uuid) {
    m_pages->setCurrentWidget(m_runsPage);
    m_runsPage->selectRunWhenListed(uuid);
  });
  connect(m_session, &WorkspaceSession::opened, m_launchPage, &LaunchPage::setWorkspace);
  // The Launch page's status line follows its run's recorded state through the same poller.
  connect(m_session, &WorkspaceSession::runsUpdated, m_launchPage, &LaunchPage::followRuns);
  connect(m_session, &WorkspaceSession::opened, m_sweepsPage, &SweepsPage::setWorkspace);
  connect(m_session, &WorkspaceSession::opened, m_modelsPage, &ModelsPage::setWorkspace);
  connect(m_session, &WorkspaceSession::opened, m_designPage, &DesignPage::setWorkspace);
  // Replace Head… on the Design page offers the class count the Launch page's data was found to have.
  connect(m_launchPage, &LaunchPage::datasetClassesKnown, m_designPage, &DesignPage::setDatasetClassCount);
  m_pages->setCurrentWidget(m_runsPage);  // a first start shows the example training
  setCentralWidget(m_pages);
  createMenus();

  m_workspaceLabel = new QLabel(this);
  m_runCountLabel = new QLabel(this);
  m_stateLabel = new QLabel(this);
  m_stateLabel->setObjectName(QStringLiteral("databaseState"));
  statusBar()->addWidget(m_workspaceLabel, 1);
  statusBar()->addPermanentWidget(m_runCountLabel);
  statusBar()->addPermanentWidget(m_stateLabel);
  updateRunCount(0);

  connect(m_session, &WorkspaceSession::databaseStateChanged, this, &MainWindow::onDatabaseState);
  // Said, not hidden: the runs on screen were missing what the orphaned files hid until now.
  connect(m_session, &WorkspaceSession::reopened, this, [this](const QString &reason) {
    statusBar()->showMessage(tr("Reopened the tracking database (%1); the runs were read again.").arg(reason), 10000);
  });
  connect(m_runsPage, &RunsPage::runCountChanged, this, &MainWindow::updateRunCount);
  resize(1280, 800);
  restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus() {
  QMenu *file = menuBar()->addMenu(tr("&File"));
  // The Design page's own Open action (Ctrl+O): one action, one key, in the menu and the toolbar.
  file->addAction(m_designPage->openAction());
  connect(m_designPage, &DesignPage::showRequested, this, [this] { m_pages->setCurrentWidget(m_designPage); });
  // An ONNX network through `torchwright import`, opened on the Design page.
  file->addAction(m_designPage->importAction());
  // Run files open into the Launch page, which is where a person then sees them.
  QAction *openRun = file->addAction(tr("Open &Run File…"), this, [this] {
    m_pages->setCurrentWidget(m_launchPage);
    m_launchPage->chooseRunFileToOpen();
  });
  openRun->setObjectName(QStringLiteral("openRunFileAction"));
  openRun->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
  QMenu *examples = file->addMenu(tr("&Examples"));
  examples->setObjectName(QStringLiteral("examplesMenu"));
  for (const QString &path : exampleRunFiles()) {
    QAction *example = examples->addAction(exampleName(path), this, [this, path] {
      m_pages->setCurrentWidget(m_launchPage);
      m_launchPage->openRunFile(path);
    });
    example->setData(path);
    example->setStatusTip(QDir::toNativeSeparators(path));
  }
  if (examples->isEmpty()) examples->addAction(tr("No example run files found"))->setEnabled(false);
  QAction *saveRun = file->addAction(tr("&Save Run File…"), this, [this] {
    m_pages->setCurrentWidget(m_launchPage);
    m_launchPage->chooseRunFileToSave();
  });
  saveRun->setObjectName(QStringLiteral("saveRunFileAction"));
  saveRun->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
  file->addSeparator();
  // `torchwright pack` with a progress bar; the finished set can go straight into Launch.
  QAction *pack = file->addAction(tr("&Pack Dataset…"), this, [this] {
    auto *dialog = new PackDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PackDialog::useRequested, this, [this](const QString &shardSet) {
      m_pages->setCurrentWidget(m_launchPage);
      m_launchPage->applySettings({{"data.dataset", "shards"}, {"data.path", shardSet.toStdString()}});
    });
    dialog->open();
  });
  pack->setObjectName(QStringLiteral("packDatasetAction"));
  QAction *report = file->addAction(tr("Export &Report…"), this, [this] {
    m_pages->setCurrentWidget(m_runsPage);
    m_runsPage->chooseReportFile();
  });
  report->setObjectName(QStringLiteral("exportReportAction"));
  report->setToolTip(tr("One self-contained HTML page about the runs selected on the Runs page"));
  file->addSeparator();
  QAction *open = file->addAction(tr("&Open Workspace…"), this, &MainWindow::chooseWorkspace);
  open->setObjectName(QStringLiteral("openWorkspaceAction"));
  open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  QAction *store = file->addAction(tr("Tracking &Store…"), this, [this] {
    if (m_session->workspaceDir().isEmpty()) return;
    StoreSettingsDialog dialog(m_session->workspaceDir(), this);
    if (dialog.exec() == QDialog::Accepted) openWorkspace(m_session->workspaceDir());  // on the new store
  });
  store->setObjectName(QStringLiteral("storeSettingsAction"));
  store->setToolTip(tr("Record this workspace's runs in its own tracking.db or in a shared PostgreSQL database"));
  file->addSeparator();
  QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  // Edits of the whole model that are not on the Design toolbar.
  QMenu *model = menuBar()->addMenu(tr("&Model"));
  model->setObjectName(QStringLiteral("modelMenu"));
  model->addAction(m_designPage->replaceHeadAction());

  QMenu *view = menuBar()->addMenu(tr("&View"));
  QAction *design = view->addAction(tr("&Design"), this, [this] { m_pages->setCurrentWidget(m_designPage); });
  design->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
  QAction *launch = view->addAction(tr("&Launch"), this, [this] { m_pages->setCurrentWidget(m_launchPage); });
  launch->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
  QAction *runs = view->addAction(tr("&Runs"), this, [this] { m_pages->setCurrentWidget(m_runsPage); });
  runs->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
  QAction *compare = view->addAction(tr("&Compare"), this, [this] { m_pages->setCurrentWidget(m_comparePage); });
  compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_4));
  QAction *sweeps = view->addAction(tr("S&weeps"), this, [this] { m_pages->setCurrentWidget(m_sweepsPage); });
  sweeps->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_5));
  QAction *models = view->addAction(tr("&Models"), this, [this] { m_pages->setCurrentWidget(m_modelsPage); });
  models->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_6));
  view->addSeparator();
  // Language names in their own language: a user who cannot read the current one finds theirs.
  QMenu *language = view->addMenu(tr("&Language"));
  language->setObjectName(QStringLiteral("languageMenu"));
  auto *languages = new QActionGroup(language);
  const QString saved = savedLanguage();
  for (const auto &[code, name] : {std::pair{QString(), tr("System Language")},
                                   std::pair{QStringLiteral("en"), QStringLiteral("English")},
                                   std::pair{QStringLiteral("de"), QStringLiteral("Deutsch")}}) {
    QAction *action = language->addAction(name);
    action->setCheckable(true);
    action->setChecked(code == saved);
    action->setData(code);
    languages->addAction(action);
    connect(action, &QAction::triggered, this, [this, code] {
      saveLanguage(code);
      statusBar()->showMessage(tr("The language changes when Studio starts again."), 10000);
    });
  }

  QMenu *help = menuBar()->addMenu(tr("&Help"));
  QAction *guide = help->addAction(studioIcon("help-contents"), tr("&User Guide"), this, &MainWindow::showUserGuide);
  guide->setObjectName(QStringLiteral("userGuideAction"));
  guide->setShortcut(QKeySequence::HelpContents);
  QAction *keys = help->addAction(studioIcon("preferences-desktop-keyboard"), tr("&Keyboard Shortcuts"), this,
                                  &MainWindow::showShortcuts);
  keys->setObjectName(QStringLiteral("keyboardShortcutsAction"));
  help->addSeparator();
  QAction *about = help->addAction(tr("&About Torchwright Studio"), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
}

bool MainWindow::openWorkspace(const QString &dir) {
  QString error;
  if (!m_session->open(dir, &error)) {
    QMessageBox::warning(this, tr("Open Workspace"),
                         tr("Cannot open the workspace %1:\n%2\n\nChoose a folder you can write to.")
                             .arg(QDir::toNativeSeparators(dir), error));
    return false;
  }
  const QString shown = QDir::toNativeSeparators(m_session->workspaceDir());
  setWindowTitle(tr("%1 — Torchwright Studio").arg(shown));
  m_workspaceLabel->setText(tr("Workspace: %1").arg(shown));
  m_stateLabel->setText(tr("Connecting…"));
  return true;
}

void MainWindow::chooseWorkspace() {
  const QString dir = chooseDirectory(this, tr("Open Workspace"), m_session->workspaceDir());
  if (!dir.isEmpty()) openWorkspace(dir);
}

// Both help windows stay open beside the window (not modal): one reads while one works. A second
// request raises the one already open.
void MainWindow::showShortcuts() {
  auto *dialog = findChild<ShortcutsDialog *>();
  if (!dialog) {
    dialog = new ShortcutsDialog(this, m_pages);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
  }
  dialog->show();
  dialog->raise();
}

void MainWindow::showUserGuide() {
  auto *dialog = findChild<UserGuideDialog *>();
  if (!dialog) {
    dialog = new UserGuideDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
  }
  dialog->show();
  dialog->raise();
}

void MainWindow::showAbout() {
  QMessageBox::about(this, tr("About Torchwright Studio"),
                     tr("<h3>Torchwright Studio %1</h3>"
                        "<p>A workbench for deep-learning experiments: design models, train them, "
                        "watch them learn and compare runs.</p>"
                        "<p>Built with Qt %2.</p>")
                         .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

void MainWindow::onDatabaseState(DbState state, const QString &detail) {
  switch (state) {
    case DbState::Connecting:
      m_stateLabel->setText(tr("Connecting…"));
      m_stateLabel->setToolTip(detail);  // after a reopen: what changed under the old connection
      break;
    case DbState::Ok:
      m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> ").arg(statusColor(QStringLiteral("FINISHED")).name()) +
                            tr("Live").toHtmlEscaped());
      m_stateLabel->setToolTip(tr("Following %1 as training processes write to it")
                                   .arg(QDir::toNativeSeparators(m_session->shownDatabase())));
      break;
    case DbState::Stalled:
      m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> ").arg(statusColor(QStringLiteral("KILLED")).name()) +
                            tr("Not updating").toHtmlEscaped());
      m_stateLabel->setToolTip(detail);
      statusBar()->showMessage(detail, 10000);
      break;
    case DbState::Unavailable:
      m_stateLabel->setText(QStringLiteral("<span style=\"color:%1\">&#9679;</span> ").arg(statusColor(QStringLiteral("FAILED")).name()) +
                            tr("Database unavailable — retrying").toHtmlEscaped());
      m_stateLabel->setToolTip(detail);
      statusBar()->showMessage(tr("Cannot read the tracking database: %1. Studio keeps retrying; check that "
                                  "the workspace folder is readable.")
                                   .arg(detail),
                               10000);
      break;
  }
}

void MainWindow::updateRunCount(int count) { m_runCountLabel->setText(tr("Runs: %1").arg(count)); }

void MainWindow::closeEvent(QCloseEvent *event) {
  saveSettings();
  m_session->close();
  QMainWindow::closeEvent(event);
}

void MainWindow::saveSettings() const {
  QSettings settings;
  settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
  settings.setValue(QLatin1String(kWindowStateKey), saveState());
  settings.setValue(QLatin1String(kRunsPageKey), m_runsPage->saveState());
  settings.setValue(QLatin1String(kDesignPageKey), m_designPage->saveState());
  settings.setValue(QLatin1String(kCurrentPageKey), m_pages->currentIndex());
}

void MainWindow::restoreSettings() {
  QSettings settings;
  restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
  restoreState(settings.value(QLatin1String(kWindowStateKey)).toByteArray());
  const QByteArray page = settings.value(QLatin1String(kRunsPageKey)).toByteArray();
  if (!page.isEmpty() && !m_runsPage->restoreState(page))
    studioLog()->info("ignoring saved Runs page layout from another version");
  const QByteArray design = settings.value(QLatin1String(kDesignPageKey)).toByteArray();
  if (!design.isEmpty()) m_designPage->restoreState(design);
  const int current = settings.value(QLatin1String(kCurrentPageKey), m_pages->indexOf(m_runsPage)).toInt();
  if (current >= 0 && current < m_pages->count()) m_pages->setCurrentIndex(current);
}

}  // namespace tw::ui
