#include "ui/runs/system_panel.h"

#include "ui/common/number_format.h"

#include "core/config/metric_keys.h"
#include "core/config/run_config.h"
#include "core/sysmon/nvml.h"
#include "tracking/store.h"
#include "ui/common/store_call.h"
#include "ui/workspace/poll_results.h"

#include <QDateTime>
#include <QFile>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <map>

namespace tw::ui {

namespace {

constexpr int kLogLines = 40;
constexpr qint64 kLogTailBytes = 16 * 1024;  // the end of the log only: it may be large

const char *const kColumns[] = {"cpu_percent", "rss_mb", "threads", "gpu_util_percent", "gpu_memory_mb",
                                "gpu_temperature_c", "gpu_power_w"};

QString formatDuration(qint64 seconds) {
  if (seconds < 0) return QStringLiteral("–");
  return QStringLiteral("%1:%2:%3")
      .arg(seconds / 3600)
      .arg((seconds / 60) % 60, 2, 10, QLatin1Char('0'))
      .arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

}  // namespace

QString noGpuText(const QString &why) {
  // NVML's reasons mostly start with the same words as the panel's sentence: keep only the cause.
  static const QRegularExpression repeated(QStringLiteral("^no NVIDIA GPU \\((.*)\\)$"),
                                           QRegularExpression::CaseInsensitiveOption);
  const QRegularExpressionMatch match = repeated.match(why.trimmed());
  return SystemPanel::tr("No NVIDIA GPU: %1").arg(match.hasMatch() ? match.captured(1) : why.trimmed());
}

struct SystemPanel::Reading {
  std::map<int, std::map<std::string, double>> latest;  // rank -> key -> value
  QString logTail;
};

namespace {

// On the pool: the latest samples of every rank, and the end of the run's log.
SystemPanel::Reading readSystem(tracking::Store &store, int64_t runId, const QString &runDir) {
  SystemPanel::Reading reading;
  // The last minute is enough for the latest value of every key and rank.
  const int64_t since = QDateTime::currentMSecsSinceEpoch() - 60000;
  for (const auto &row : store.systemMetrics(runId, since)) reading.latest[row.rank][row.key] = row.value;
  QFile log(runDir + QStringLiteral("/artifacts/worker.log"));
  if (log.open(QIODevice::ReadOnly)) {
    if (log.size() > kLogTailBytes) log.seek(log.size() - kLogTailBytes);
    const QStringList lines = QString::fromUtf8(log.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    reading.logTail = lines.mid(std::max<qsizetype>(0, lines.size() - kLogLines)).join(QLatin1Char('\n'));
  }
  return reading;
}

}  // namespace

SystemPanel::SystemPanel(QWidget *parent)
    : QWidget(parent), m_progress(new QProgressBar(this)), m_eta(new QLabel(this)), m_ranks(new QTableWidget(this)),
      m_gpuState(new QLabel(this)), m_log(new QPlainTextEdit(this)), m_status(new QLabel(this)), m_timer(new QTimer(this)),
      m_reader(new StoreCall(this)) {
  m_ranks->setColumnCount(8);
  m_ranks->setHorizontalHeaderLabels({tr("Rank"), tr("CPU %"), tr("Memory MB"), tr("Threads"), tr("GPU %"),
                                      tr("GPU memory MB"), tr("GPU °C"), tr("GPU W")});
  m_ranks->verticalHeader()->hide();
  m_ranks->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_ranks->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_ranks->setMaximumHeight(160);
  m_log->setReadOnly(true);
  m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_gpuState->setWordWrap(true);

  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_progress);
  layout->addWidget(m_eta);
  layout->addWidget(m_ranks);
  layout->addWidget(m_gpuState);
  layout->addWidget(m_status);
  layout->addWidget(new QLabel(tr("Log (last lines)"), this));
  layout->addWidget(m_log, 1);

  m_timer->setInterval(2000);
  connect(m_timer, &QTimer::timeout, this, &SystemPanel::refresh);
  // Said only while nothing of the run shows yet: the live refresh every 2 s would blink.
  connect(m_reader, &StoreCall::busyChanged, this, [this](bool busy) {
    if (busy && m_ranks->rowCount() == 0 && m_log->toPlainText().isEmpty()) m_status->setText(tr("Loading…"));
  });
  clearRun();
}

void SystemPanel::clearRun() {
  m_runId = 0;
  m_running = false;
  m_followLog = true;
  m_timer->stop();
  m_reader->cancel();  // an answer on its way is for a run no longer shown
  m_status->clear();
  m_progress->setValue(0);
  m_eta->clear();
  m_ranks->setRowCount(0);
  m_gpuState->clear();
  m_log->clear();
}

void SystemPanel::showRun(const RunSnapshot &snapshot) {
  const bool newRun = snapshot.run.id != m_runId;
  m_runId = snapshot.run.id;
  m_runDir = QString::fromStdString(snapshot.run.runDir);
  m_startMs = snapshot.run.startMs;
  m_endMs = snapshot.run.endMs;
  const bool wasRunning = m_running && !newRun;
  m_running = snapshot.run.status == tracking::RunStatus::Running || snapshot.run.status == tracking::RunStatus::Created;
  // A new run's log opens at its end; an ended run's last lines are read once more and shown.
  const bool ended = wasRunning && !m_running;
  if (newRun || ended) m_followLog = true;
  if (newRun) {
    m_epochs = 0;
    try {
      m_epochs = config::parseRunConfig(snapshot.run.configYaml, {}).train.epochs;
    } catch (const std::exception &) {
      // an old or foreign configuration: no progress bar, the rest still shows
    }
  }
  const tracking::LatestMetric *epoch = snapshot.latestMetric(config::metrics::kEpoch);
  m_epochsDone = epoch ? epoch->value : 0.0;
  m_progress->setRange(0, m_epochs > 0 ? static_cast<int>(m_epochs) : 1);
  m_progress->setValue(static_cast<int>(m_epochsDone));
  m_progress->setFormat(tr("Epoch %1 of %2").arg(static_cast<int>(m_epochsDone)).arg(m_epochs));
  const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
  const qint64 elapsed = ((m_endMs > 0 ? m_endMs : nowMs) - m_startMs) / 1000;
  QString eta = tr("Elapsed %1").arg(formatDuration(m_startMs > 0 ? elapsed : -1));
  if (m_running && m_epochsDone > 0 && m_epochs > m_epochsDone)
    eta += QStringLiteral(" · ") +
           tr("about %1 left").arg(formatDuration(static_cast<qint64>(elapsed * (m_epochs - m_epochsDone) / m_epochsDone)));
  m_eta->setText(eta);
  if (newRun || ended) refresh();
  if (m_running && !m_timer->isActive()) m_timer->start();
  if (!m_running) m_timer->stop();
}

void SystemPanel::refresh() {
  if (m_runId == 0 || m_dbPath.isEmpty()) return;
  m_reader->run<Reading>(
      m_dbPath, [runId = m_runId, runDir = m_runDir](tracking::Store &store) { return readSystem(store, runId, runDir); },
      [this](const Reading &reading) { showReading(reading); },
      [this](const QString &error) {
        m_status->setText(tr("Could not read the run's system metrics: %1").arg(error));
        Q_EMIT refreshed();
      });
}

void SystemPanel::showReading(const Reading &reading) {
  m_status->clear();
  m_ranks->setRowCount(static_cast<int>(reading.latest.size()));
  int row = 0;
  bool anyGpu = false;
  for (const auto &[rank, values] : reading.latest) {
    m_ranks->setItem(row, 0, new QTableWidgetItem(QString::number(rank)));
    for (int c = 0; c < 7; ++c) {
      auto it = values.find(kColumns[c]);
      const QString text = it == values.end() ? QStringLiteral("–") : formatNumber(it->second);
      m_ranks->setItem(row, c + 1, new QTableWidgetItem(text));
      anyGpu = anyGpu || (c >= 3 && it != values.end());
    }
    ++row;
  }
  if (anyGpu) {
    m_gpuState->clear();
  } else {
    // Studio asks this machine's driver too: "none recorded" alone would not say why.
    static const sysmon::Nvml localNvml;
    m_gpuState->setText(localNvml.available() ? tr("No GPU readings recorded for this run.")
                                              : noGpuText(QString::fromStdString(localNvml.why())));
  }
  if (!reading.logTail.isEmpty()) {
    // Follow the end unless the user scrolled up to read something: then stay where they are.
    QScrollBar *bar = m_log->verticalScrollBar();
    const bool follow = m_followLog || bar->value() >= bar->maximum();
    if (reading.logTail != m_log->toPlainText()) {
      const int kept = bar->value();
      m_log->setPlainText(reading.logTail);
      if (!follow) bar->setValue(kept);
    }
    if (follow) {
      m_log->moveCursor(QTextCursor::End);
      bar->setValue(bar->maximum());
    }
    m_followLog = false;
  }
  Q_EMIT refreshed();
}

}  // namespace tw::ui
