#pragma once
// The Launch form's folding sections: one per config-table section (the table's `section`
// column: schedule, regularisation, loss, augmentation, early stopping, checkpoints, precision,
// seed, splits, ...), each with a widget for every key of that section that the page does not
// show up front, labelled in words (config_labels.h). Keys that mean nothing for the chosen data
// source are hidden and reset; keys of another learning-rate schedule than the chosen one are
// hidden (the table's `schedules` column). The early-stopping monitor is a list of the metrics the
// run records.
//
//   ConfigSections sections({"train.lr", "train.epochs"}, this);   // keys shown elsewhere
//   sections.showForSource("csv");
//   yaml += sections.yamlLines("train", "csv");   // "  gamma: 0.5\n" for what the user changed

#include <QMap>
#include <QString>
#include <QWidget>

#include <set>
#include <string>

namespace tw::config { struct ConfigField; }

namespace tw::ui {

class CollapsibleSection;

class ConfigSections : public QWidget {
  Q_OBJECT

 public:
  ConfigSections(const std::set<std::string> &shownElsewhere, QWidget *parent = nullptr);

  // The widget of a run-file key ("train.gamma"), or nullptr when the key is shown elsewhere.
  QWidget *field(const QString &key) const { return m_fields.value(key); }
  // A section by its table id ("schedule"), or nullptr when all its keys are shown elsewhere.
  CollapsibleSection *section(const QString &id) const { return m_sections.value(id); }
  // The title a section id shows.
  static QString sectionTitle(const QString &id);

  // Run-file lines ("  gamma: 0.5\n") of the group's keys ("train" for train.*) that the user
  // changed and that apply to the data source `dataset`.
  QString yamlLines(const QString &group, const QString &dataset) const;
  // Shows the keys that apply to the data source; hides the others and resets them, so nothing
  // of the previous source reaches the run file.
  void showForSource(const QString &dataset);
  // Shows the keys the schedule (a train.schedule value) reads; the schedule box calls it.
  void showForSchedule(const QString &schedule);
  // The metrics train.monitor may name for the run as set up (config/run_task.h's monitorKeys).
  void setMonitorChoices(const QStringList &choices);

 private:
  static QWidget *monitorBox(const config::ConfigField &field, QWidget *parent);
  void showApplyingRows();

  QString m_dataset, m_schedule;
  QMap<QString, QWidget *> m_fields;
  QMap<QString, CollapsibleSection *> m_sections;
};

}  // namespace tw::ui
