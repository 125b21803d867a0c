// Help: Keyboard Shortcuts lists the shortcuts the window's and pages' actions really have, in
// the platform's words; User Guide shows the README's Studio section from inside the binary.

#include "studio_fixture.h"

#include "ui/help/shortcuts_dialog.h"
#include "ui/help/user_guide.h"
#include "ui/main_window.h"

#include <QAction>
#include <QTableWidget>
#include <QTextBrowser>
#include <QtTest>

namespace {

// The shortcut the dialog lists for `action` on `where`, or empty.
QString listed(const QTableWidget *table, const QString &action, const QString &where) {
  for (int row = 0; row < table->rowCount(); ++row)
    if (table->item(row, 0)->text() == action && table->item(row, 2)->text() == where) return table->item(row, 1)->text();
  return {};
}

}  // namespace

class TestStudioHelp : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    m_settingsDir = tw::test::freshSettings();
    QVERIFY(m_settingsDir);
  }
  void cleanup() { m_settingsDir.reset(); }

  void shortcutsListTheActionsOwnKeys() {
    tw::ui::MainWindow window;
    window.show();
    auto *open = window.findChild<QAction *>(QStringLiteral("keyboardShortcutsAction"));
    QVERIFY(open);
    open->trigger();
    auto *dialog = window.findChild<tw::ui::ShortcutsDialog *>();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    const QTableWidget *table = dialog->table();
    const auto native = [](QKeySequence key) { return key.toString(QKeySequence::NativeText); };
    QCOMPARE(listed(table, QStringLiteral("Arrange"), QStringLiteral("Design")), native(QKeySequence(Qt::CTRL | Qt::Key_L)));
    QCOMPARE(listed(table, QStringLiteral("Models"), QStringLiteral("Window")), native(QKeySequence(Qt::CTRL | Qt::Key_6)));
    QCOMPARE(listed(table, QStringLiteral("Undo"), QStringLiteral("Design")), native(QKeySequence(QKeySequence::Undo)));
    QCOMPARE(listed(table, QStringLiteral("Stop Run"), QStringLiteral("Runs")), native(QKeySequence(Qt::CTRL | Qt::Key_Period)));
    QCOMPARE(listed(table, QStringLiteral("User Guide"), QStringLiteral("Window")),
             native(QKeySequence(QKeySequence::HelpContents)));
    // Read from the actions: a shortcut changed at run time is what the list says.
    auto *arrange = [&]() -> QAction * {
      for (QAction *action : window.findChildren<QAction *>())
        if (action->text() == QLatin1String("Arrange")) return action;
      return nullptr;
    }();
    QVERIFY(arrange);
    arrange->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    dialog->close();
    QTRY_VERIFY(!window.findChild<tw::ui::ShortcutsDialog *>());  // deleted on close
    open->trigger();
    dialog = window.findChild<tw::ui::ShortcutsDialog *>();
    QVERIFY(dialog);
    QCOMPARE(listed(dialog->table(), QStringLiteral("Arrange"), QStringLiteral("Design")),
             native(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A)));
    QVERIFY(dialog->grab().save(tw::test::screenshotPath(QStringLiteral("help_shortcuts.png"))));
  }

  void guideShowsTheReadmesStudioSection() {
    tw::ui::MainWindow window;
    window.show();
    auto *open = window.findChild<QAction *>(QStringLiteral("userGuideAction"));
    QVERIFY(open);
    open->trigger();
    auto *dialog = window.findChild<tw::ui::UserGuideDialog *>();
    QVERIFY(dialog);
    const QString text = dialog->browser()->toPlainText();
    QVERIFY2(text.contains(QStringLiteral("a node-graph canvas")), qPrintable(text.left(300)));
    QVERIFY(text.startsWith(QStringLiteral("Studio")));
    QVERIFY(!text.contains(QStringLiteral("Distributed training")));  // the next sections stay out
    QVERIFY(dialog->grab().save(tw::test::screenshotPath(QStringLiteral("help_user_guide.png"))));
  }

  void sectionFallsBackToTheWholeText() {
    const QString markdown = QStringLiteral("# Title\n\n## Studio\n\nPages.\n\n## Search\n\nSweeps.\n");
    QCOMPARE(tw::ui::markdownSection(markdown, QStringLiteral("Studio")), QStringLiteral("## Studio\n\nPages."));
    QCOMPARE(tw::ui::markdownSection(markdown, QStringLiteral("Search")), QStringLiteral("## Search\n\nSweeps."));
    QCOMPARE(tw::ui::markdownSection(markdown, QStringLiteral("Studio Guide")), markdown);
  }

 private:
  std::unique_ptr<QTemporaryDir> m_settingsDir;
};

QTEST_MAIN(TestStudioHelp)
#include "test_studio_help.moc"
