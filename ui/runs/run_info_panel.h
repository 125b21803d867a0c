#pragma once
// What explains a run: status, when it ran, and what it needs to be reproduced (config hash,
// seed, the weights it started from, data fingerprint, host, hardware, library versions).
// Read-only, selectable text.

#include "ui/workspace/poll_results.h"

#include <QWidget>

class QFormLayout;
class QLabel;

namespace tw::ui {

class RunInfoPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RunInfoPanel(QWidget *parent = nullptr);

  void showRun(const RunSnapshot &snapshot);
  void clear();
  // The status as shown, for tests.
  QString statusText() const;
  // Where the run's weights started (train.init_from and how many tensors it gave), for tests.
  QString startedFromText() const;

 private:
  QLabel *addRow(QFormLayout *form, const QString &label);

  QLabel *m_title = nullptr;
  QLabel *m_status = nullptr;
  QLabel *m_experiment = nullptr;
  QLabel *m_started = nullptr;
  QLabel *m_ended = nullptr;
  QLabel *m_configHash = nullptr;
  QLabel *m_seed = nullptr;
  QLabel *m_data = nullptr;
  QLabel *m_host = nullptr;
  QLabel *m_hardware = nullptr;
  QLabel *m_libraries = nullptr;
  QLabel *m_startedFrom = nullptr;
  QString m_statusText;
};

}  // namespace tw::ui
