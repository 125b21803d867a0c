#include "ui/help/shortcut_list.h"

#include <QAbstractButton>
#include <QAction>
#include <QCoreApplication>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTabWidget>

namespace tw::ui {

namespace {

QString plainText(QString text) {
  text.remove(QLatin1Char('&'));  // mnemonics ("&Design"); menus write a literal & as &&, none do
  text.remove(QChar(0x2026));     // "Open…": the ellipsis says a dialog follows, not part of the name
  text.remove(QStringLiteral("..."));
  return text.trimmed();
}

QString nativeKeys(const QList<QKeySequence> &keys) {
  QStringList out;
  for (const QKeySequence &key : keys)
    if (!key.isEmpty()) out << key.toString(QKeySequence::NativeText);
  return out.join(QStringLiteral(", "));
}

// Whether the window's menu bar offers the action (in a menu, or a menu within one): such an
// action works from every page, even when a page owns it (Design's Open Model in the File menu).
bool inMenuBar(const QAction *action) {
  for (const QObject *object : action->associatedObjects()) {
    if (qobject_cast<const QMenuBar *>(object)) return true;
    if (const auto *menu = qobject_cast<const QMenu *>(object))
      if (menu->menuAction() != action && inMenuBar(menu->menuAction())) return true;
  }
  return false;
}

void collect(QWidget *root, const QString &where, bool skipMenuBar, QSet<const QObject *> *seen,
             std::vector<ShortcutEntry> *out) {
  QList<QAction *> actions = root->actions();
  actions += root->findChildren<QAction *>();
  for (QAction *action : actions) {
    if (seen->contains(action) || action->shortcuts().isEmpty() || action->text().isEmpty()) continue;
    if (skipMenuBar && inMenuBar(action)) continue;
    seen->insert(action);
    out->push_back({plainText(action->text()), nativeKeys(action->shortcuts()), where});
  }
  for (QAbstractButton *button : root->findChildren<QAbstractButton *>()) {
    if (seen->contains(button) || button->shortcut().isEmpty() || button->text().isEmpty()) continue;
    seen->insert(button);
    out->push_back({plainText(button->text()), nativeKeys({button->shortcut()}), where});
  }
}

}  // namespace

std::vector<ShortcutEntry> collectShortcuts(QWidget *window, QTabWidget *pages) {
  std::vector<ShortcutEntry> out;
  QSet<const QObject *> seen;
  // Pages first into `seen`, so that a page's action is listed under its page, not the window.
  std::vector<ShortcutEntry> pageEntries;
  // A page's action that the menu bar also offers is the window's: it is listed there.
  for (int i = 0; pages && i < pages->count(); ++i)
    collect(pages->widget(i), plainText(pages->tabText(i)), true, &seen, &pageEntries);
  collect(window, QCoreApplication::translate("tw::ui::ShortcutList", "Window"), false, &seen, &out);
  out.insert(out.end(), pageEntries.begin(), pageEntries.end());
  return out;
}

}  // namespace tw::ui
