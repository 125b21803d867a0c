#include "ui/runs/run_info_panel.h"

#include "ui/runs/run_status.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

QString orDash(const std::string &text) {
  return text.empty() ? QStringLiteral("–") : QString::fromStdString(text);
}

}  // namespace

RunInfoPanel::RunInfoPanel(QWidget *parent) : QWidget(parent) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 8, 8, 8);
  m_title = new QLabel(this);
  QFont titleFont = font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(font().pointSizeF() * 1.15);
  m_title->setFont(titleFont);
  m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_title->setWordWrap(true);
  layout->addWidget(m_title);

  auto *form = new QFormLayout();
  form->setLabelAlignment(Qt::AlignLeft);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::DontWrapRows);
  m_status = addRow(form, tr("Status:"));
  m_status->setTextFormat(Qt::RichText);
  m_experiment = addRow(form, tr("Experiment:"));
  m_started = addRow(form, tr("Started:"));
  m_ended = addRow(form, tr("Ended:"));
  m_configHash = addRow(form, tr("Config hash:"));
  m_seed = addRow(form, tr("Seed:"));
  m_startedFrom = addRow(form, tr("Started from:"));
  m_data = addRow(form, tr("Data:"));
  m_host = addRow(form, tr("Host:"));
  m_hardware = addRow(form, tr("Hardware:"));
  m_libraries = addRow(form, tr("Libraries:"));
  layout->addLayout(form);
  layout->addStretch(1);
  clear();
}

QLabel *RunInfoPanel::addRow(QFormLayout *form, const QString &label) {
  auto *value = new QLabel(this);
  value->setTextInteractionFlags(Qt::TextSelectableByMouse);
  value->setWordWrap(true);
  // Hashes and version lists are long words; let them wrap instead of widening the panel.
  value->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  auto *caption = new QLabel(label, this);
  // Wrapped values (hardware, libraries) read better with their caption on the first line.
  caption->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  form->addRow(caption, value);
  return value;
}

void RunInfoPanel::showRun(const RunSnapshot &snapshot) {
  const auto &run = snapshot.run;
  m_statusText = runStatusText(run.status);
  m_title->setText(QString::fromStdString(run.name.empty() ? run.uuid : run.name));
  m_title->setToolTip(QString::fromStdString(run.uuid));
  QString status = QStringLiteral("<span style=\"color:%1\">&#9679;</span>&nbsp;%2")
                       .arg(runStatusColor(run.status).name(), runStatusText(run.status).toHtmlEscaped());
  if (!run.statusMessage.empty())
    status += QStringLiteral(" — ") + QString::fromStdString(run.statusMessage).toHtmlEscaped();
  m_status->setText(status);
  m_experiment->setText(orDash(run.experiment));
  m_started->setText(run.startMs ? formatTimestamp(run.startMs) : QStringLiteral("–"));
  m_ended->setText(run.endMs ? formatTimestamp(run.endMs) : QStringLiteral("–"));
  m_configHash->setText(orDash(run.configHash.substr(0, 16)));
  m_configHash->setToolTip(QString::fromStdString(run.configHash));
  m_seed->setText(QString::number(run.seed));
  // The tags the worker writes from train.init_from; the whole table is the run's init_from.json.
  const auto from = snapshot.tags.find("init_from"), taken = snapshot.tags.find("init_from.taken");
  if (from == snapshot.tags.end()) {
    m_startedFrom->setText(tr("the seed"));
  } else {
    m_startedFrom->setText(taken == snapshot.tags.end()
                               ? QString::fromStdString(from->second)
                               : tr("%1 (%2 taken)").arg(QString::fromStdString(from->second), QString::fromStdString(taken->second)));
  }
  m_data->setText(orDash(run.dataFingerprint.substr(0, 16)));
  m_data->setToolTip(QString::fromStdString(run.dataFingerprint));
  m_host->setText(orDash(run.host));
  m_hardware->setText(orDash(run.hardware));
  m_libraries->setText(orDash(run.libraryVersions));
}

void RunInfoPanel::clear() {
  m_statusText.clear();
  m_title->setText(tr("No run selected"));
  m_title->setToolTip({});
  for (QLabel *label : {m_status, m_experiment, m_started, m_ended, m_configHash, m_seed, m_startedFrom, m_data, m_host,
                        m_hardware, m_libraries}) {
    label->setText(QStringLiteral("–"));
    label->setToolTip({});
  }
}

QString RunInfoPanel::statusText() const { return m_statusText; }

QString RunInfoPanel::startedFromText() const { return m_startedFrom->text(); }

}  // namespace tw::ui
