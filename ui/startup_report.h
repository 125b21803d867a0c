#pragma once
// `torchwright-studio --report-startup`: how fast Studio becomes usable, measured from main() on
// the real window with the real workspace. Prints one JSON line and quits:
//
//   {"window_shown_ms": 180, "runs_listed_ms": 420, "runs": 5000, "longest_stall_ms": 35}
//
// window_shown_ms: the window is shown and the event loop turns (it takes input); runs_listed_ms:
// the runs table holds the workspace's runs; longest_stall_ms: the longest the event loop went
// without turning in between (what a user clicking during start-up would feel).

#include <QElapsedTimer>
#include <QObject>

namespace tw::ui {

class MainWindow;

class StartupReport : public QObject {
  Q_OBJECT

 public:
  // started: running since main() began. Call right after window.show().
  StartupReport(MainWindow *window, QElapsedTimer started, QObject *parent = nullptr);

 private:
  void finish(int runs);

  QElapsedTimer m_started;
  qint64 m_shownMs = -1;
  qint64 m_lastTickMs = 0;
  qint64 m_longestStallMs = 0;
  bool m_done = false;
};

}  // namespace tw::ui
