// Run files into and out of the Launch form: every bundled example opens into the whole form
// (each key of the config table shows the file's value, the model picker names the file's model),
// saving the form writes a run file that parses to the same configuration, a malformed file is
// refused with its file, line and key and leaves the form as it was, and the File menu offers
// Open Run File…, the examples and Save Run File… with shortcuts no other action has.

#include "studio_fixture.h"

#include "core/config/config_fields.h"
#include "core/config/run_config.h"
#include "core/spec/model_spec.h"
#include "ui/design/model_document.h"
#include "ui/launch/config_field_widget.h"
#include "ui/launch/example_run_files.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/model_source.h"
#include "ui/main_window.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <fstream>

namespace {

// A run-file value as text that compares across spellings: lists joined with ",", quotes gone,
// "auto" threads as 0, numbers in their shortest form.
QString normalized(const std::string &key, const QString &yamlText) {
  QString text = yamlText;
  try {
    const YAML::Node node = YAML::Load(yamlText.toStdString());
    if (node.IsSequence()) {
      QStringList items;
      for (const YAML::Node &item : node) items << QString::fromStdString(item.Scalar());
      text = items.join(QLatin1Char(','));
    } else if (node.IsScalar()) {
      text = QString::fromStdString(node.Scalar());
    } else if (node.IsNull()) {
      text.clear();
    }
  } catch (const YAML::Exception &) {
  }
  if (key == "train.threads" && text == QLatin1String("auto")) text = QStringLiteral("0");
  const tw::config::ConfigField *field = tw::config::findConfigField(key);
  bool number = false;
  const double value = text.toDouble(&number);
  if (field && field->kind == tw::config::FieldKind::Float && number) text = QString::number(value, 'g', 12);
  if (field && field->kind == tw::config::FieldKind::StringList) text.remove(QLatin1Char(' '));
  return text;
}

// What the form shows for a key: its widget, or the value it keeps for the run file where the
// widget cannot show it exactly.
QString shown(const tw::ui::LaunchPage &page, const std::string &key) {
  if (auto it = page.extraSettings().find(key); it != page.extraSettings().end())
    return normalized(key, QString::fromStdString(it->second));
  QWidget *widget = page.configField(QString::fromStdString(key));
  return widget ? normalized(key, tw::ui::configWidgetYaml(widget)) : QStringLiteral("<no field>");
}

std::string canonicalModel(const std::string &yaml) { return tw::spec::toYaml(tw::spec::parseModelYaml(yaml, "model")); }

bool openInto(tw::ui::LaunchPage &page, const QString &path, QString *error) {
  QSignalSpy opened(&page, &tw::ui::LaunchPage::runFileOpened);
  page.openRunFile(path);
  if (!opened.wait(20000)) return false;
  *error = opened.at(0).at(1).toString();
  return opened.at(0).at(0).toString() == path;
}

}  // namespace

class TestLaunchRunFiles : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void examplesAreFound() {
    const QStringList examples = tw::ui::exampleRunFiles();
    QVERIFY2(examples.size() >= 5, qPrintable(examples.join(QLatin1Char(' '))));
    for (const QString &path : examples) QVERIFY2(QFileInfo(path).isAbsolute() && QFileInfo::exists(path), qPrintable(path));
    QVERIFY(examples.contains(QDir(QStringLiteral(TW_SOURCE_DIR "/resources/examples")).absoluteFilePath("fashion_mlp.run.yaml")));
    QCOMPARE(tw::ui::exampleName(examples.first()), QFileInfo(examples.first()).fileName().chopped(9));
  }

  void everyExampleFillsTheWholeFormAndSavesBack_data() {
    QTest::addColumn<QString>("path");
    for (const QString &path : tw::ui::exampleRunFiles()) QTest::newRow(qPrintable(tw::ui::exampleName(path))) << path;
  }

  void everyExampleFillsTheWholeFormAndSavesBack() {
    QFETCH(QString, path);
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    // Something of an earlier setup on the form, which the file must replace.
    page.dataset()->setCurrentText(QStringLiteral("blobs"));
    page.epochs()->setValue(3);
    page.runName()->setText(QStringLiteral("earlier"));

    QString error;
    QVERIFY(openInto(page, path, &error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(page.statusText().contains(QDir::toNativeSeparators(path)), qPrintable(page.statusText()));
    const tw::config::RunConfig file = tw::config::loadRunConfig(path.toStdString());
    const std::map<std::string, std::string> values = tw::config::flattenConfig(file);
    for (const tw::config::ConfigField &field : tw::config::configFields()) {
      const QString expected = normalized(field.key, QString::fromStdString(values.at(field.key)));
      QCOMPARE(shown(page, field.key), expected);
    }
    // The model the file names: its file in the picker, or its inline model as the open design.
    if (!file.modelFile.empty()) {
      QVERIFY(page.modelSource()->usesFile());
      QCOMPARE(page.modelSource()->modelFile(), QDir::toNativeSeparators(QString::fromStdString(file.modelFile)));
    } else {
      QVERIFY(!page.modelSource()->usesFile());
      QCOMPARE(canonicalModel(model.toYaml().toStdString()), canonicalModel(file.modelYaml));
    }

    // Saved, it is the same run.
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("saved.run.yaml"));
    QVERIFY2(page.saveRunFile(saved, &error), qPrintable(error));
    QFile text(saved);
    QVERIFY(text.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(text.readAll()), page.runYaml());
    const tw::config::RunConfig again = tw::config::loadRunConfig(saved.toStdString());
    std::map<std::string, std::string> savedValues = tw::config::flattenConfig(again);
    for (const auto &[key, value] : values) QCOMPARE(QString::fromStdString(savedValues.at(key)), QString::fromStdString(value));
    QCOMPARE(savedValues.size(), values.size());
    QCOMPARE(canonicalModel(again.modelYaml), canonicalModel(file.modelYaml));
  }

  // A file that does not load names the file, the line and the key, and changes nothing.
  void aMalformedFileLeavesTheFormAsItWas_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("said");
    QTest::newRow("a value of the wrong kind")
        << "model: {nodes: [{id: x, op: Input, shape: [2]}]}\ndata:\n  dataset: spirals\ntrain:\n  lr: fast\n"
        << ":5:7: key 'train.lr': expected a number, got 'fast'";
    QTest::newRow("out of the table's range")
        << "model: {nodes: [{id: x, op: Input, shape: [2]}]}\ndata:\n  batch_size: 99999999\n"
        << ":3:15: key 'data.batch_size': expected a value in [1, 1048576]";
    QTest::newRow("an unknown key") << "model: {nodes: [{id: x, op: Input, shape: [2]}]}\ntrain:\n  learning_rate: 0.1\n"
                                    << ":3:3: unknown key 'train.learning_rate'";
    QTest::newRow("a model file that is not there") << "model: nowhere.model.yaml\n"
                                                    << "nowhere.model.yaml";
    QTest::newRow("a broken inline model") << "model: {nodes: 5}\n" << "nodes";
  }

  void aMalformedFileLeavesTheFormAsItWas() {
    QFETCH(QString, text);
    QFETCH(QString, said);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.run.yaml"));
    std::ofstream(path.toStdString()) << text.toStdString();
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.dataset()->setCurrentText(QStringLiteral("blobs"));
    page.batchSize()->setValue(32);
    const QString before = page.runYaml();
    const QString design = model.toYaml();

    QString error;
    QVERIFY(openInto(page, path, &error));
    QVERIFY2(error.contains(said), qPrintable(error));
    QVERIFY2(page.statusText().contains(said) && page.statusText().contains(QStringLiteral("Cannot open the run file")),
             qPrintable(page.statusText()));
    if (!said.startsWith(QLatin1String("nowhere")) && said != QLatin1String("nodes"))
      QVERIFY2(page.statusText().contains(path + said), qPrintable(page.statusText()));
    QCOMPARE(page.runYaml(), before);
    QCOMPARE(model.toYaml(), design);
  }

  // The File menu: Open Run File…, the examples, Save Run File…, each shortcut its own.
  void theFileMenuOpensExamplesIntoLaunch() {
    tw::test::Workspace ws;
    tw::ui::MainWindow window;
    QVERIFY(window.openWorkspace(ws.dir));
    auto *openRun = window.findChild<QAction *>(QStringLiteral("openRunFileAction"));
    auto *saveRun = window.findChild<QAction *>(QStringLiteral("saveRunFileAction"));
    QVERIFY(openRun && saveRun);
    QCOMPARE(openRun->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    QCOMPARE(saveRun->shortcut(), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_S));
    QMap<QString, QString> taken;
    for (QAction *action : window.findChildren<QAction *>()) {
      for (const QKeySequence &key : action->shortcuts()) {
        const QString text = key.toString();
        QVERIFY2(!taken.contains(text) || taken.value(text) == action->text(),
                 qPrintable(text + ": " + taken.value(text) + " and " + action->text()));
        taken.insert(text, action->text());
      }
    }
    auto *examples = window.findChild<QMenu *>(QStringLiteral("examplesMenu"));
    QVERIFY(examples);
    QStringList names;
    QAction *houses = nullptr;
    for (QAction *action : examples->actions()) {
      names << action->text();
      if (action->text() == QLatin1String("houses_regression")) houses = action;
    }
    QCOMPARE(names.size(), tw::ui::exampleRunFiles().size());
    QVERIFY2(houses, qPrintable(names.join(QLatin1Char(' '))));

    tw::ui::LaunchPage *launch = window.launchPage();
    QSignalSpy opened(launch, &tw::ui::LaunchPage::runFileOpened);
    houses->trigger();
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(launch));
    QVERIFY(opened.wait(20000));
    QCOMPARE(opened.at(0).at(1).toString(), QString());
    QCOMPARE(launch->dataset()->currentText(), QStringLiteral("csv"));
    QCOMPARE(launch->csvTarget()->currentText(), QStringLiteral("price_keur"));
    QVERIFY(launch->dataPath()->text().endsWith(QStringLiteral("houses.csv")));
    QCOMPARE(launch->epochs()->value(), 150);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.grab().save(tw::test::screenshotPath(QStringLiteral("studio_launch_example_opened.png")));
  }
};

QTEST_MAIN(TestLaunchRunFiles)
#include "test_launch_run_files.moc"
