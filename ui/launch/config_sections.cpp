#include "ui/launch/config_sections.h"

#include "core/config/config_fields.h"
#include "ui/launch/collapsible_section.h"
#include "ui/launch/config_field_widget.h"

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
    QWidget *widget = configFieldWidget(field, section);
    // Labelled with the key's own name, as the run file and `torchwright config --keys` spell it.
    section->form()->addRow(key.section(QLatin1Char('.'), 1), widget);
    m_fields.insert(key, widget);
  }
  layout->addStretch(1);
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
  QMap<CollapsibleSection *, bool> anyShown;
  for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
    const bool applies = config::appliesToSource(it.key().toStdString(), dataset.toStdString());
    if (!applies) resetConfigWidget(it.value());
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
