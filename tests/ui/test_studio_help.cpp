// Help: Keyboard Shortcuts lists the shortcuts the window's and pages' actions really have, in
// the platform's words; User Guide shows the README's tour and Studio sections from inside the
// binary with the page screenshots, and German Studio its German guide with the German ones.

#include "studio_fixture.h"

#include "ui/help/shortcuts_dialog.h"
#include "ui/help/user_guide.h"
#include "ui/i18n/translations.h"
#include "ui/main_window.h"

#include <QAction>
#include <QImage>
#include <QPushButton>
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

// Each image the guide's document names, as the dialog's browser loads it (null when it is not found).
QList<QImage> loadedImages(QTextBrowser *browser) {
  QList<QImage> images;
  for (const QString &name : tw::ui::documentImages(browser->document())) {
    const QVariant data = browser->loadResource(QTextDocument::ImageResource, QUrl(name));
    QImage image = data.value<QImage>();
    if (image.isNull()) image = QImage::fromData(data.toByteArray());
    images << image;
  }
  return images;
}

const char *const kPages[] = {"design", "launch", "runs", "compare", "sweeps", "models"};

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
    QVERIFY(text.startsWith(QStringLiteral("A tour of Studio")));
    QVERIFY(!text.contains(QStringLiteral("Distributed training")));  // the next sections stay out
    QVERIFY(!text.contains(QStringLiteral("torchwright check resources")));  // the command line's
    QCOMPARE(dialog->closeButton()->text(), QStringLiteral("Close"));
    QVERIFY(dialog->grab().save(tw::test::screenshotPath(QStringLiteral("help_user_guide.png"))));
  }

  // The six page screenshots are in the guide's document and load from inside the binary.
  void guideShowsEveryPagesScreenshot() {
    tw::ui::UserGuideDialog dialog;
    const QStringList names = tw::ui::documentImages(dialog.browser()->document());
    QCOMPARE(names.size(), 6);
    for (const char *page : kPages)
      QVERIFY2(names.contains(QStringLiteral("docs/studio/%1.png").arg(QLatin1String(page))), qPrintable(names.join(' ')));
    const QList<QImage> images = loadedImages(dialog.browser());
    for (int i = 0; i < images.size(); ++i) {
      QVERIFY2(!images[i].isNull(), qPrintable(names[i]));
      QVERIFY(images[i].width() >= 1000);  // the 1280x800 screenshots, not a placeholder
    }
  }

  // German Studio shows the German guide (its own text and the German screenshots) and a German
  // Close button; English comes back with the English guide.
  void germanStudioShowsTheGermanGuide() {
    tw::ui::TranslationResult result;
    QString error;
    QVERIFY2(tw::ui::installTranslations(QStringLiteral("de"), {QStringLiteral(TW_BINARY_DIR "/translations")}, &result,
                                         &error),
             qPrintable(error));
    QCOMPARE(tw::ui::guideLanguage(), QStringLiteral("de"));
    {
      tw::ui::UserGuideDialog dialog;
      dialog.show();
      const QString text = dialog.browser()->toPlainText();
      QVERIFY2(text.startsWith(QStringLiteral("Ein Rundgang durch Studio")), qPrintable(text.left(200)));
      QVERIFY(text.contains(QStringLiteral("Leinwand")));
      QVERIFY(!text.contains(QStringLiteral("a node-graph canvas")));
      QVERIFY(dialog.closeButton()->text() != QStringLiteral("Close"));
      QCOMPARE(dialog.closeButton()->text(), QStringLiteral("Schließen"));
      const QStringList names = tw::ui::documentImages(dialog.browser()->document());
      QCOMPARE(names.size(), 6);
      for (const char *page : kPages)
        QVERIFY2(names.contains(QStringLiteral("docs/studio/de/%1.png").arg(QLatin1String(page))),
                 qPrintable(names.join(' ')));
      for (const QImage &image : loadedImages(dialog.browser())) QVERIFY(!image.isNull());
      QVERIFY(dialog.grab().save(tw::test::screenshotPath(QStringLiteral("help_user_guide_de.png"))));
    }
    QVERIFY(tw::ui::installTranslations(QStringLiteral("en"), {}, &result, &error));
    QCOMPARE(tw::ui::guideLanguage(), QStringLiteral("en"));
    tw::ui::UserGuideDialog english;
    QVERIFY(english.browser()->toPlainText().startsWith(QStringLiteral("A tour of Studio")));
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
