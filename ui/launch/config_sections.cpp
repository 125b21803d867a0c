#include "ui/launch/config_sections.h"

#include "core/config/config_fields.h"
#include "core/config/run_task.h"
#include "ui/launch/collapsible_section.h"
#include "ui/launch/config_field_widget.h"
#include "ui/launch/config_labels.h"
#include "ui/launch/config_widgets.h"

#include <QComboBox>
#include <QFormLayout>
#include <QVBoxLayout>

namespace tw::ui {

ConfigSections::ConfigSections(const std::set<std::string> &shownElsewhere, QWidget *parent) : QWidget(parent) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // Sections in the order the table first names them; keys in table order within a section.
  for (const config::ConfigField &field : config::configFields()) {
    if (shownElsewhere.count(field.key)) continue;
    const QString id = QString::fromStdString(field.section);
    CollapsibleSection *section = m_sections.value(id);
    if (!section) {
      section = new CollapsibleSection(sectionTitle(id), this);
      section->setObjectName(QStringLiteral("section:") + id);
      m_sections.insert(id, section);
      layout->addWidget(section);
    }
    const QString key = QString::fromStdString(field.key);
    QWidget *widget = field.key == "train.monitor" ? monitorBox(field, section) : configFieldWidget(field, section);
    // A person's word for the key; the tooltip spells the key as the run file does.
    section->form()->addRow(configLabel(key), widget);
    m_fields.insert(key, widget);
  }
  layout->addStretch(1);
  if (auto *schedule = qobject_cast<QComboBox *>(field(QStringLiteral("train.schedule")))) {
    connect(schedule, &QComboBox::currentTextChanged, this, &ConfigSections::showForSchedule);
    showForSchedule(schedule->currentText());
  }
}

// The monitor names a metric the run records, so it is chosen from them rather than typed: the
// table cannot list them, since they depend on the task and top_k (setMonitorChoices).
QWidget *ConfigSections::monitorBox(const config::ConfigField &field, QWidget *parent) {
  auto *box = new QComboBox(parent);
  box->setProperty(kConfigKeyProperty, QString::fromStdString(field.key));
  box->setToolTip(configToolTip(field));
  const config::RunConfig defaults;
  QStringList choices;
  for (const std::string &key : config::monitorKeys(defaults.data, defaults.train.topK)) choices << QString::fromStdString(key);
  box->addItems(choices);
  box->setCurrentText(QString::fromStdString(defaults.train.monitor));
  rememberConfigDefault(box);
  return box;
}

void ConfigSections::setMonitorChoices(const QStringList &choices) {
  auto *box = qobject_cast<QComboBox *>(field(QStringLiteral("train.monitor")));
  if (!box) return;
  QStringList current;
  for (int i = 0; i < box->count(); ++i) current << box->itemText(i);
  if (current == choices) return;
  // A metric the new task still records stays chosen; otherwise the table's default, val/loss.
  const QString kept = choices.contains(box->currentText()) ? box->currentText()
                                                            : QString::fromStdString(config::TrainOptions().monitor);
  box->clear();
  box->addItems(choices);
  box->setCurrentText(kept);
}

QString ConfigSections::sectionTitle(const QString &id) {
  static const QMap<QString, const char *> titles = {
      {QStringLiteral("data"), QT_TR_NOOP("More data options")},
      {QStringLiteral("splits"), QT_TR_NOOP("Splits")},
      {QStringLiteral("augmentation"), QT_TR_NOOP("Augmentation")},
      {QStringLiteral("resources"), QT_TR_NOOP("Resources")},
      {QStringLiteral("optimiser"), QT_TR_NOOP("Optimiser")},
      {QStringLiteral("regularisation"), QT_TR_NOOP("Regularisation")},
      {QStringLiteral("schedule"), QT_TR_NOOP("Schedule")},
      {QStringLiteral("loss"), QT_TR_NOOP("Loss")},
      {QStringLiteral("precision"), QT_TR_NOOP("Precision")},
      {QStringLiteral("training"), QT_TR_NOOP("Training")},
      {QStringLiteral("seed"), QT_TR_NOOP("Seed")},
      {QStringLiteral("metrics"), QT_TR_NOOP("Metrics and logging")},
      {QStringLiteral("early stopping"), QT_TR_NOOP("Early stopping")},
      {QStringLiteral("checkpoints"), QT_TR_NOOP("Checkpoints")},
      {QStringLiteral("distributed"), QT_TR_NOOP("Distributed")},
      {QStringLiteral("tracking"), QT_TR_NOOP("Tracking")},
  };
  // A section the table gains before this list does still shows, under its id.
  const char *title = titles.value(id);
  return title ? tr(title) : id;
}

QString ConfigSections::yamlLines(const QString &group, const QString &dataset) const {
  QString lines;
  const QString prefix = group + QLatin1Char('.');
  for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
    if (!it.key().startsWith(prefix) || !configWidgetChanged(it.value())) continue;
    if (!config::appliesToSource(it.key().toStdString(), dataset.toStdString())) continue;
    lines += QStringLiteral("  %1: %2\n").arg(it.key().mid(prefix.size()), configWidgetYaml(it.value()));
  }
  return lines;
}

void ConfigSections::showForSource(const QString &dataset) {
  m_dataset = dataset;
  for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
    if (!config::appliesToSource(it.key().toStdString(), dataset.toStdString())) resetConfigWidget(it.value());
  showApplyingRows();
}

// A schedule's keys keep their values while hidden: choosing the schedule again brings them back.
void ConfigSections::showForSchedule(const QString &schedule) {
  m_schedule = schedule;
  showApplyingRows();
}

void ConfigSections::showApplyingRows() {
  QMap<CollapsibleSection *, bool> anyShown;
  for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
    const std::string key = it.key().toStdString();
    const bool applies = config::appliesToSource(key, m_dataset.toStdString()) &&
                         config::appliesToSchedule(key, m_schedule.toStdString());
    for (CollapsibleSection *section : m_sections) {
      if (!section->isAncestorOf(it.value())) continue;
      section->form()->setRowVisible(it.value(), applies);
      anyShown[section] = anyShown.value(section) || applies;
    }
  }
  // A section with nothing for this source (augmentation for a CSV table) goes altogether.
  for (CollapsibleSection *section : m_sections) section->setVisible(anyShown.value(section));
}

}  // namespace tw::ui
