// Studio's Launch form against the config table: every combo box offers exactly the key's
// choices, every spin box spans exactly the key's range (within what the widget can hold), and
// starts at RunConfig's default, so the form cannot drift from what `torchwright check` accepts.

#include "studio_fixture.h"

#include "core/config/config_fields.h"
#include "ui/design/model_document.h"
#include "ui/launch/config_widgets.h"
#include "ui/launch/launch_page.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QtTest>

#include <climits>
#include <set>

using tw::config::ConfigField;

namespace {

const ConfigField &fieldOf(const QWidget *widget) {
  const QString key = widget->property(tw::ui::kConfigKeyProperty).toString();
  const ConfigField *field = tw::config::findConfigField(key.toStdString());
  if (!field) qFatal("'%s' is no config table key", qPrintable(key));
  return *field;
}

QString keyOf(const QWidget *widget) { return widget->property(tw::ui::kConfigKeyProperty).toString(); }

// The form's initial values are RunConfig's defaults, except Studio's suggestions for a first run.
const std::set<QString> kSuggested = {QStringLiteral("train.epochs"), QStringLiteral("train.schedule")};

}  // namespace

class TestLaunchForm : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void everyFieldFollowsTheConfigTable() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    tw::config::RunConfig defaults;
    std::set<QString> keys;

    for (const QComboBox *box : page.findChildren<QComboBox *>()) {
      // The CSV target lists the table's columns once Preview Data has read them: no table choices.
      if (box == page.csvTarget()) continue;
      QVERIFY2(!keyOf(box).isEmpty(), qPrintable(box->objectName() + " has no config key"));
      const ConfigField &field = fieldOf(box);
      keys.insert(keyOf(box));
      QStringList items;
      for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
      QStringList choices;
      for (const std::string &choice : field.choices) choices << QString::fromStdString(choice);
      QVERIFY2(!choices.isEmpty(), qPrintable(keyOf(box)));
      QCOMPARE(items, choices);
      if (!kSuggested.count(keyOf(box)))
        QCOMPARE(box->currentText(), QString::fromStdString(field.stringRef(defaults)));
    }

    for (const QSpinBox *box : page.findChildren<QSpinBox *>()) {
      QVERIFY2(!keyOf(box).isEmpty(), "a spin box without a config key");
      const ConfigField &field = fieldOf(box);
      keys.insert(keyOf(box));
      QVERIFY2(field.kind == tw::config::FieldKind::Int, qPrintable(keyOf(box)));
      // A QSpinBox holds an int: an open or wider upper end is INT_MAX; the lower ends all fit.
      QVERIFY2(field.min.has_value(), qPrintable(keyOf(box)));
      QCOMPARE(double(box->minimum()), *field.min);
      QCOMPARE(box->maximum(), field.max && *field.max < INT_MAX ? int(*field.max) : INT_MAX);
      if (!kSuggested.count(keyOf(box))) QCOMPARE(int64_t(box->value()), field.intRef(defaults));
    }

    for (const QDoubleSpinBox *box : page.findChildren<QDoubleSpinBox *>()) {
      QVERIFY2(!keyOf(box).isEmpty(), "a double spin box without a config key");
      const ConfigField &field = fieldOf(box);
      keys.insert(keyOf(box));
      QVERIFY2(field.kind == tw::config::FieldKind::Float && field.min && field.max, qPrintable(keyOf(box)));
      QCOMPARE(box->minimum(), *field.min);
      QCOMPARE(box->maximum(), *field.max);
      QCOMPARE(box->value(), field.floatRef(defaults));
    }

    // The fields the form shows, each walked above (a widget made outside the helpers fails above).
    for (const char *key : {"data.dataset", "data.train_limit", "data.batch_size", "data.task", "data.missing",
                            "data.samples", "data.classes", "data.noise", "train.optimizer", "train.lr",
                            "train.schedule", "train.epochs", "train.precision", "train.checkpoint_every",
                            "distributed.nproc_per_node"})
      QVERIFY2(keys.count(QString::fromLatin1(key)), key);
    QCOMPARE(page.learningRate()->maximum(), 1e3);  // the table's, not the form's old 10
  }

  void studioSuggestsAFirstRun() {
    // Studio's suggestions for a first run stay inside the table.
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    QCOMPARE(page.schedule()->currentText(), QStringLiteral("cosine"));
    QCOMPARE(page.epochs()->value(), 10);
    QVERIFY(page.runYaml().contains(QStringLiteral("schedule: cosine")));
  }
};

QTEST_MAIN(TestLaunchForm)
#include "test_launch_form.moc"
