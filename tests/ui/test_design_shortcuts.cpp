// Open Model and Open Workspace each have their own key, bound once: Ctrl+O opens the model
// dialog (from the Design page, and from any other page, which then shows Design), Ctrl+Shift+O
// the workspace one. The keys are pressed as a person would, the dialog that comes up is found and
// cancelled; the menu, the toolbar's tooltip and Help > Keyboard Shortcuts say the same keys.

#include "studio_fixture.h"

#include "ui/design/design_page.h"
#include "ui/design/graph_view.h"
#include "ui/help/shortcut_list.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"

#include <QAction>
#include <QFileDialog>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QtTest>

namespace {

struct SeenDialog {
  QString title;
  QFileDialog::FileMode mode = QFileDialog::AnyFile;
  bool seen = false;
};

// Presses `key` in the window and cancels the file dialog it brings up; what that dialog was.
SeenDialog pressAndCancel(tw::ui::MainWindow &window, QKeyCombination key) {
  SeenDialog seen;
  QTimer driver;
  driver.setInterval(20);
  QObject::connect(&driver, &QTimer::timeout, [&] {
    auto *dialog = qobject_cast<QFileDialog *>(QApplication::activeModalWidget());
    if (!dialog || seen.seen) return;
    seen = {dialog->windowTitle(), dialog->fileMode(), true};
    dialog->reject();
  });
  driver.start();
  QWidget *target = QApplication::focusWidget() ? QApplication::focusWidget() : &window;
  QTest::keyClick(target, key.key(), key.keyboardModifiers());  // returns once the dialog is gone
  driver.stop();
  return seen;
}

QAction *menuAction(QMenuBar *bar, const QString &menuTitle, const QString &text) {
  for (QAction *top : bar->actions()) {
    if (!top->menu() || top->text().remove(QLatin1Char('&')) != menuTitle) continue;
    for (QAction *action : top->menu()->actions())
      if (action->text().remove(QLatin1Char('&')) == text) return action;
  }
  return nullptr;
}

}  // namespace

class TestDesignShortcuts : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;

 private Q_SLOTS:
  void init() {
    m_settingsDir = tw::test::freshSettings();
    QVERIFY(m_settingsDir);
    // Two actions sharing a key make Qt drop the key with this warning: fail on it.
    QTest::failOnWarning(QRegularExpression(QStringLiteral("Ambiguous shortcut")));
  }
  void cleanup() { m_settingsDir.reset(); }

  void ctrlOOpensTheModelDialog_data() {
    QTest::addColumn<bool>("fromDesign");
    QTest::newRow("on Design") << true;
    QTest::newRow("on Runs") << false;
  }
  void ctrlOOpensTheModelDialog() {
    QFETCH(bool, fromDesign);
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    tw::ui::DesignPage *design = window.designPage();
    if (fromDesign) {
      window.pages()->setCurrentWidget(design);
      design->view()->setFocus();
    } else {
      window.pages()->setCurrentWidget(window.runsPage());
    }
    const SeenDialog seen = pressAndCancel(window, QKeyCombination(Qt::CTRL | Qt::Key_O));
    QVERIFY(seen.seen);
    QCOMPARE(seen.title, QStringLiteral("Open Model"));
    QCOMPARE(seen.mode, QFileDialog::ExistingFile);
    // The model the dialog replaces is on screen when it asks.
    QCOMPARE(window.pages()->currentWidget(), design);
  }

  void ctrlShiftOOpensTheWorkspaceDialog() {
    tw::ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.pages()->setCurrentWidget(window.designPage());
    window.designPage()->view()->setFocus();
    const SeenDialog seen = pressAndCancel(window, QKeyCombination(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QVERIFY(seen.seen);
    QCOMPARE(seen.title, QStringLiteral("Open Workspace"));
    QCOMPARE(seen.mode, QFileDialog::Directory);
    QCOMPARE(window.pages()->currentWidget(), window.designPage());
  }

  // The menu shows each key beside its entry, the toolbar's Open is the menu's action with the key
  // in its tooltip, and Help > Keyboard Shortcuts lists both as the window's, each key once.
  void menusToolbarAndHelpSayTheKeys() {
    tw::ui::MainWindow window;
    const QKeySequence open(QKeySequence::Open), workspace(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    QAction *model = menuAction(window.menuBar(), QStringLiteral("File"), QStringLiteral("Open Model…"));
    QAction *folder = menuAction(window.menuBar(), QStringLiteral("File"), QStringLiteral("Open Workspace…"));
    QVERIFY(model);
    QVERIFY(folder);
    QCOMPARE(model->shortcut(), open);
    QCOMPARE(folder->shortcut(), workspace);
    QToolBar *bar = window.designPage()->toolBar();
    auto *button = qobject_cast<QToolButton *>(bar->widgetForAction(model));
    QVERIFY2(button, "the toolbar's Open is the File menu's Open Model");
    QCOMPARE(button->text(), QStringLiteral("Open…"));
    QVERIFY2(button->toolTip().contains(open.toString(QKeySequence::NativeText)), qPrintable(button->toolTip()));

    const auto entries = tw::ui::collectShortcuts(&window, window.pages());
    QStringList windowKeys;
    QString modelKeys, workspaceKeys;
    for (const auto &e : entries) {
      if (e.where != QStringLiteral("Window")) continue;
      windowKeys << e.keys;
      if (e.action == QStringLiteral("Open Model")) modelKeys = e.keys;
      if (e.action == QStringLiteral("Open Workspace")) workspaceKeys = e.keys;
    }
    QCOMPARE(modelKeys, open.toString(QKeySequence::NativeText));
    QCOMPARE(workspaceKeys, workspace.toString(QKeySequence::NativeText));
    QCOMPARE(windowKeys.count(modelKeys), 1);
    QCOMPARE(windowKeys.count(workspaceKeys), 1);
    for (const auto &e : entries)  // not listed a second time under the page
      QVERIFY2(!(e.where == QStringLiteral("Design") && e.keys == modelKeys), qPrintable(e.action));
  }
};

QTEST_MAIN(TestDesignShortcuts)
#include "test_design_shortcuts.moc"
