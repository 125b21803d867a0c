#pragma once
// Every keyboard shortcut a window offers, read from its actions and buttons as they are, so
// that Help > Keyboard Shortcuts never drifts from what the keys do (no hand-kept list).
//
//   for (const ShortcutEntry &e : collectShortcuts(mainWindow, pages)) ...

#include <QString>

#include <vector>

class QTabWidget;
class QWidget;

namespace tw::ui {

struct ShortcutEntry {
  QString action;  // the action's text without mnemonics and ellipses: "Arrange"
  QString keys;    // in the platform's words: "Ctrl+L" (several joined with ", ")
  QString where;   // the page ("Design") or "Window" for the menus
};

// The window's own actions (its menus) first, then each page's in the tabs' order.
std::vector<ShortcutEntry> collectShortcuts(QWidget *window, QTabWidget *pages);

}  // namespace tw::ui
