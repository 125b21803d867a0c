// Studio's visual language: every op category in the palette and every toolbar action has an
// icon (drawn from resources/icons when the machine has no icon theme, as here), a status has
// one colour in every table, and a dark system palette turns the charts and the canvas dark.

#include "studio_fixture.h"

#include "ui/common/status_colors.h"
#include "ui/common/theme.h"
#include "ui/design/design_page.h"
#include "ui/design/edge_item.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/op_palette.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/sweeps/study_view.h"
#include "ui/sweeps/sweeps_page.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QPushButton>
#include <QTableWidget>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>
#include <QtTest>

using tw::tracking::RunStatus;

namespace {

// An icon that draws something: a null icon, or an SVG that failed to load, draws nothing.
bool drawsSomething(const QIcon &icon) {
  if (icon.isNull()) return false;
  const QImage image = icon.pixmap(24, 24).toImage().convertToFormat(QImage::Format_ARGB32);
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
      if (qAlpha(image.pixel(x, y)) > 0) return true;
  return false;
}

QImage imageOf(const QIcon &icon) { return icon.pixmap(16, 16).toImage().convertToFormat(QImage::Format_ARGB32); }

QPalette darkPalette() {
  QPalette dark;
  dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
  dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
  dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
  dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
  dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
  dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
  return dark;
}

}  // namespace

class TestStudioLook : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    m_settingsDir = tw::test::freshSettings();
    QVERIFY(m_settingsDir);
  }
  void cleanup() {
    QApplication::setPalette(QPalette());  // the platform's own again
    m_settingsDir.reset();
  }

  void everyPaletteCategoryHasAnIcon() {
    tw::ui::OpPalette palette;
    palette.setBlocks({QStringLiteral("residual")});
    QTreeWidget *tree = palette.tree();
    QStringList categories;
    for (int i = 0; i < tree->topLevelItemCount(); ++i) {
      QTreeWidgetItem *category = tree->topLevelItem(i);
      categories << category->text(0);
      QVERIFY2(drawsSomething(category->icon(0)), qPrintable(category->text(0)));
    }
    for (const char *name : {"Inputs", "Layers", "Activations", "Normalization", "Pooling", "Merge", "Reshape",
                             "Blocks", "My Blocks"})
      QVERIFY2(categories.contains(QString::fromLatin1(name)), name);
    // Each category its own icon.
    for (int i = 1; i < tree->topLevelItemCount(); ++i)
      QVERIFY(imageOf(tree->topLevelItem(i)->icon(0)) != imageOf(tree->topLevelItem(i - 1)->icon(0)));
  }

  void everyToolbarActionHasAnIcon() {
    tw::ui::MainWindow window;
    QStringList checked;
    for (QToolBar *bar : window.findChildren<QToolBar *>()) {
      for (QAction *action : bar->actions()) {
        if (action->isSeparator()) continue;
        // What the toolbar shows for the action: its button (the action's, or a widget's own).
        auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(action));
        QVERIFY2(button, qPrintable(action->text()));
        QVERIFY2(drawsSomething(button->icon()), qPrintable(button->text()));
        checked << button->text();
      }
    }
    for (const char *text : {"New", "Open…", "Save", "Undo", "Redo", "Delete", "Copy", "Paste", "Arrange", "Fit",
                             "Zoom In", "Zoom Out"})
      QVERIFY2(checked.contains(QString::fromUtf8(text)), text);
    // The other pages' main actions are buttons; they carry icons of the same set.
    tw::ui::RunsPage *runs = window.runsPage();
    for (QPushButton *button : {runs->stopButton(), runs->compareButton(), runs->checkpointButton(), runs->deleteButton()})
      QVERIFY2(drawsSomething(button->icon()), qPrintable(button->text()));
  }

  // A finished run in the runs table and a complete trial in the trials table wear the same
  // colour, and a failed one in each the same other colour.
  void statusColoursAreTheSameInEveryTable() {
    QCOMPARE(tw::ui::statusColor(QStringLiteral("FINISHED")), tw::ui::statusColor(QStringLiteral("COMPLETE")));
    QVERIFY(tw::ui::statusColor(QStringLiteral("FINISHED")) != tw::ui::statusColor(QStringLiteral("FAILED")));
    QVERIFY(tw::ui::statusColor(QStringLiteral("PRUNED")) != tw::ui::statusColor(QStringLiteral("KILLED")));

    tw::test::Workspace ws;
    auto done = ws.createRun("done");
    ws.store->setStatus(done.id, RunStatus::Running);
    ws.store->setStatus(done.id, RunStatus::Finished);
    auto broken = ws.createRun("broken");
    ws.store->setStatus(broken.id, RunStatus::Running);
    ws.store->setStatus(broken.id, RunStatus::Failed, "the worker died");
    tw::tracking::NewStudy newStudy;
    newStudy.name = "colours";
    newStudy.sweepYaml = "study: colours\n";
    newStudy.directions = "maximize";
    newStudy.metrics = "val/accuracy";
    const auto study = ws.store->createStudy(newStudy);
    const auto complete = ws.store->addTrial(study.id, {{"train.lr", "0.01"}});
    ws.store->setTrialState(study.id, complete.number, "COMPLETE", {0.9});
    const auto failed = ws.store->addTrial(study.id, {{"train.lr", "0.1"}});
    ws.store->setTrialState(study.id, failed.number, "FAILED", {}, "the worker died");

    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    QAbstractItemModel *runs = window.runsPage()->table()->model();
    QTRY_COMPARE(runs->rowCount(), 2);
    auto runIcon = [&](const QString &name) {
      const int row = tw::test::rowWithText(runs, tw::ui::RunsTableModel::Name, name);
      return imageOf(runs->index(row, tw::ui::RunsTableModel::Status).data(Qt::DecorationRole).value<QIcon>());
    };
    tw::ui::StudyView *view = window.sweepsPage()->studies();
    QTRY_COMPARE(view->studies()->rowCount(), 1);
    view->studies()->selectRow(0);
    QTRY_COMPARE(view->trials()->rowCount(), 2);
    auto trialIcon = [&](int number) {
      for (int row = 0; row < view->trials()->rowCount(); ++row)
        if (view->trials()->item(row, 0)->data(Qt::DisplayRole).toInt() == number)
          return imageOf(view->trials()->item(row, 1)->icon());
      return QImage();
    };
    QVERIFY(!runIcon(QStringLiteral("done")).isNull());
    QCOMPARE(trialIcon(complete.number), runIcon(QStringLiteral("done")));
    QCOMPARE(trialIcon(failed.number), runIcon(QStringLiteral("broken")));
    QVERIFY(trialIcon(complete.number) != trialIcon(failed.number));
    QCOMPARE(runIcon(QStringLiteral("done")), imageOf(tw::ui::statusIcon(QStringLiteral("FINISHED"))));
  }

  // The system turning dark (a dark application palette) turns every chart's theme and the
  // design canvas dark, and turning light again turns them back.
  void darkPaletteMakesChartsAndCanvasDark() {
    tw::ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.pages()->setCurrentWidget(window.designPage());
    const QList<QChartView *> charts = window.findChildren<QChartView *>();
    QVERIFY(charts.size() >= 4);
    tw::ui::GraphView *canvas = window.designPage()->view();
    auto canvasCorner = [&] { return canvas->viewport()->grab().toImage().pixelColor(2, 2); };
    QVERIFY(!tw::ui::isDarkPalette(QApplication::palette()));
    for (QChartView *chart : charts) QCOMPARE(chart->chart()->theme(), QChart::ChartThemeLight);
    QVERIFY(canvasCorner().lightness() > 128);

    QApplication::setPalette(darkPalette());
    QVERIFY(tw::ui::isDarkPalette(QApplication::palette()));
    for (QChartView *chart : charts) QTRY_COMPARE(chart->chart()->theme(), QChart::ChartThemeDark);
    QTRY_VERIFY(canvasCorner().lightness() < 128);
    // The edges already drawn take the dark palette's colours too.
    const QList<tw::ui::EdgeItem *> edges = window.designPage()->scene()->edges();
    QVERIFY(!edges.isEmpty());
    for (tw::ui::EdgeItem *edge : edges) QCOMPARE(edge->pen().color(), darkPalette().color(QPalette::Mid));

    QApplication::setPalette(QPalette());
    for (QChartView *chart : charts) QTRY_COMPARE(chart->chart()->theme(), QChart::ChartThemeLight);
    QTRY_VERIFY(canvasCorner().lightness() > 128);
  }

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;
};

QTEST_MAIN(TestStudioLook)
#include "test_studio_look.moc"
