// Every page of the real MainWindow at 1024x640 (a small laptop screen) and at 1600x1000: the
// window keeps the size asked for, no visible control is squeezed below what its text needs, and
// every visible table or tree shows at least 8 rows. Keeps a screenshot of each page at each size
// in build/screenshots (page_<name>_<w>x<h>.png).

#include "layout_check.h"
#include "studio_fixture.h"

#include "ui/compare/compare_page.h"
#include "ui/design/design_page.h"
#include "ui/launch/launch_page.h"
#include "ui/models/models_page.h"
#include "ui/main_window.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/sweeps/study_view.h"
#include "ui/sweeps/sweeps_page.h"
#include "ui/workspace/workspace_session.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QtTest>

using tw::tracking::RunStatus;


class TestStudioLayout : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    m_settingsDir = tw::test::freshSettings();
    QVERIFY(m_settingsDir);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    m_ws = std::make_unique<tw::test::Workspace>();
    // Enough runs that the runs table could fill its 8 rows, one with curves to draw.
    for (int i = 0; i < 12; ++i) {
      auto run = m_ws->createRun("run-" + std::to_string(i));
      m_ws->store->setStatus(run.id, RunStatus::Running);
      m_ws->store->writeMetrics(run.id, tw::test::trainLossRows(1, 50));
      m_ws->store->writeMetrics(run.id, tw::test::validationRows(1, 50, 10));
      m_ws->store->setStatus(run.id, i % 4 == 3 ? RunStatus::Failed : RunStatus::Finished);
    }
  }
  void cleanup() {
    m_ws.reset();
    m_settingsDir.reset();
  }

  void everyPageFits_data() {
    QTest::addColumn<QString>("page");
    QTest::addColumn<QSize>("size");
    for (const QSize size : {QSize(1024, 640), QSize(1600, 1000)})
      for (const char *page : {"design", "launch", "runs", "runs_training", "runs_layer_norms", "runs_evaluation",
                               "runs_system", "runs_parameters", "runs_artifacts", "compare", "sweeps_new",
                               "sweeps_studies", "models"})
        QTest::addRow("%s %dx%d", page, size.width(), size.height()) << QString::fromLatin1(page) << size;
  }

  void everyPageFits() {
    QFETCH(QString, page);
    QFETCH(QSize, size);
    tw::ui::MainWindow window;
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_COMPARE(window.runsPage()->model()->rowCount(), 12);

    QWidget *shown = nullptr;
    if (page == QLatin1String("design")) shown = window.designPage();
    if (page == QLatin1String("launch")) shown = window.launchPage();
    if (page.startsWith(QLatin1String("runs"))) {
      shown = window.runsPage();
      window.runsPage()->table()->selectRow(0);
      // The run's detail tabs in their order: Curves, Training, Layer Norms, Evaluation, ...
      const QStringList tabs{QStringLiteral("runs"), QStringLiteral("runs_training"), QStringLiteral("runs_layer_norms"),
                             QStringLiteral("runs_evaluation"), QStringLiteral("runs_system"),
                             QStringLiteral("runs_parameters"), QStringLiteral("runs_artifacts")};
      window.runsPage()->detail()->tabs()->setCurrentIndex(int(tabs.indexOf(page)));
    }
    if (page == QLatin1String("compare")) {
      shown = window.comparePage();
      window.comparePage()->compareRuns(QString::fromStdString(m_ws->dbPath()), {1, 2, 3});
    }
    if (page.startsWith(QLatin1String("sweeps"))) {
      shown = window.sweepsPage();
      tw::ui::SweepsPage *sweeps = window.sweepsPage();
      if (page == QLatin1String("sweeps_studies")) sweeps->tabs()->setCurrentWidget(sweeps->studies());
      else sweeps->tabs()->setCurrentIndex(0);
    }
    if (page == QLatin1String("models")) shown = window.modelsPage();
    QVERIFY(shown);
    window.pages()->setCurrentWidget(shown);
    // Two polls: whatever the pages read from the workspace is on screen and laid out.
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 2));
    QCoreApplication::processEvents();

    QStringList problems = tw::test::layoutProblems(&window);
    // No page may force the window wider or taller than the screen it was sized for.
    if (window.size() != size)
      problems << QStringLiteral("the window is %1x%2").arg(window.width()).arg(window.height());
    QVERIFY(window.grab().save(
        tw::test::screenshotPath(QStringLiteral("page_%1_%2x%3.png").arg(page).arg(size.width()).arg(size.height()))));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  }

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;
  std::unique_ptr<tw::test::Workspace> m_ws;
};

QTEST_MAIN(TestStudioLayout)
#include "test_studio_layout.moc"
