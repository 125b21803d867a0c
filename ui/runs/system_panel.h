#pragma once
// A run's machine side: progress with an estimate of the time left, each rank's CPU, memory and
// threads and its GPU (utilisation, memory, temperature, power) as the launcher recorded them,
// a clear "no NVIDIA GPU" state when there is none, and the tail of the run's log, which follows
// its end while the run is live (unless the user scrolled up) and shows the last line once it
// ended. Everything is read off the UI thread (StoreCall), every two seconds while a live run is
// shown; "Loading…" until the first reading arrives, and a store that cannot be read is said.

#include <QWidget>

#include <cstdint>

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTableWidget;
class QTimer;

namespace tw::ui {

class StoreCall;
struct RunSnapshot;

// What the panel says when this machine has no usable NVIDIA GPU, from NVML's reason ("no NVIDIA
// GPU (the driver reports none)"), saying "no NVIDIA GPU" once.
QString noGpuText(const QString &why);

class SystemPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SystemPanel(QWidget *parent = nullptr);

  void setDatabasePath(const QString &path) { m_dbPath = path; }
  void showRun(const RunSnapshot &snapshot);
  void clearRun();
  void refresh();  // what the timer does

  QProgressBar *progress() const { return m_progress; }
  QLabel *eta() const { return m_eta; }
  QTableWidget *ranks() const { return m_ranks; }
  QLabel *gpuState() const { return m_gpuState; }
  QPlainTextEdit *log() const { return m_log; }
  QLabel *status() const { return m_status; }

 Q_SIGNALS:
  void refreshed();

 public:
  struct Reading;  // what one refresh read

 private:
  void showReading(const Reading &reading);

  QString m_dbPath;
  int64_t m_runId = 0;
  QString m_runDir;
  int64_t m_epochs = 0;
  double m_epochsDone = 0;
  int64_t m_startMs = 0, m_endMs = 0;
  bool m_running = false;
  bool m_followLog = true;  // the next log read scrolls to the end whatever the user's position
  QProgressBar *m_progress;
  QLabel *m_eta;
  QTableWidget *m_ranks;
  QLabel *m_gpuState;
  QPlainTextEdit *m_log;
  QLabel *m_status;  // loading, or why the store could not be read
  QTimer *m_timer;
  StoreCall *m_reader;
};

}  // namespace tw::ui
