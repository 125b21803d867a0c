// Studio's Launch form against the config table: every run-file key has a field made from its
// row (the widget its kind asks for, exactly the key's choices or range, RunConfig's default, the
// doc as tooltip), the common keys up front and the rest in the section the table names; keys of
// other data sources are hidden and reset; the model comes from the open design or a file; and
// the status line follows the launched run's recorded state.

#include "studio_fixture.h"

#include "core/config/config_fields.h"
#include "core/config/run_task.h"
#include "core/data/pack_dataset.h"
#include "ui/design/model_document.h"
#include "ui/launch/collapsible_section.h"
#include "ui/launch/config_sections.h"
#include "ui/launch/config_widgets.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/model_source.h"
#include "ui/launch/run_launcher.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <climits>
#include <set>

using tw::config::ConfigField;
using tw::config::FieldKind;

namespace {

// The form's initial values are RunConfig's defaults, except Studio's suggestions for a first run
// (and its experiment for the runs it starts).
const std::set<std::string> kSuggested = {"train.epochs", "train.schedule", "tracking.experiment"};
// The keys a first run is set up with, shown up front rather than in a section.
const std::vector<std::string> kCommon = {"data.dataset", "train.optimizer", "train.lr", "data.batch_size",
                                          "train.epochs", "train.device", "distributed.nproc_per_node"};

tw::ui::RunsUpdate updateOf(const QString &uuid, tw::tracking::RunStatus status, const std::string &message) {
  tw::ui::RunSnapshot snapshot;
  snapshot.run.uuid = uuid.toStdString();
  snapshot.run.status = status;
  snapshot.run.statusMessage = message;
  return tw::ui::RunsUpdate{{snapshot}};
}

}  // namespace

class TestLaunchForm : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  // The rule: every key of the table has a field, except the identity keys (the run's name and
  // experiment, where its files are), which the page may lay out in its own way. model.file is
  // no table row: the model picker writes it.
  void everyKeyHasAFieldFromTheTable() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    tw::config::RunConfig defaults;
    int walked = 0;
    for (const ConfigField &field : tw::config::configFields()) {
      const QString key = QString::fromStdString(field.key);
      QVERIFY2(!field.section.empty(), qPrintable(key + " has no section in the config table"));
      QWidget *widget = page.configField(key);
      if (tw::config::isIdentityKey(field.key) && !widget) continue;
      QVERIFY2(widget, qPrintable(key + " has no field on the Launch form"));
      QVERIFY2(widget->toolTip().contains(QString::fromStdString(field.doc)), qPrintable(key));
      ++walked;
      const bool suggested = kSuggested.count(field.key) > 0;
      switch (field.kind) {
        case FieldKind::String: {
          if (auto *box = qobject_cast<QComboBox *>(widget); box && !box->isEditable()) {
            QStringList items, choices;
            for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
            for (const std::string &choice : field.choices) choices << QString::fromStdString(choice);
            // The monitor's choices are the metrics the task records, which the table cannot list.
            if (field.key == "train.monitor")
              for (const std::string &metric : tw::config::monitorKeys(defaults.data, defaults.train.topK))
                choices << QString::fromStdString(metric);
            QVERIFY2(!choices.isEmpty(), qPrintable(key));
            QCOMPARE(items, choices);
            if (!suggested) QCOMPARE(box->currentText(), QString::fromStdString(field.stringRef(defaults)));
          } else {
            QVERIFY2(field.choices.empty(), qPrintable(key + ": choices, but no fixed list"));
            // Free text: a line edit, or the CSV target's box of the table's columns.
            auto *edit = qobject_cast<QLineEdit *>(widget);
            auto *columns = qobject_cast<QComboBox *>(widget);
            QVERIFY2(edit || columns, qPrintable(key));
            if (!suggested)
              QCOMPARE(edit ? edit->text() : columns->currentText(), QString::fromStdString(field.stringRef(defaults)));
          }
          break;
        }
        case FieldKind::Int:
        case FieldKind::Threads: {
          auto *box = qobject_cast<QSpinBox *>(widget);
          QVERIFY2(box, qPrintable(key));
          // A QSpinBox holds an int: an open or wider upper end is INT_MAX; the lower ends all fit.
          QVERIFY2(field.min.has_value(), qPrintable(key));
          QCOMPARE(double(box->minimum()), *field.min);
          QCOMPARE(box->maximum(), field.max && *field.max < INT_MAX ? int(*field.max) : INT_MAX);
          if (!suggested) QCOMPARE(int64_t(box->value()), field.intRef(defaults));
          if (field.kind == FieldKind::Threads) QCOMPARE(box->specialValueText(), QStringLiteral("auto"));
          break;
        }
        case FieldKind::Float: {
          auto *box = qobject_cast<QDoubleSpinBox *>(widget);
          QVERIFY2(box && field.min && field.max, qPrintable(key));
          QCOMPARE(box->minimum(), *field.min);
          QCOMPARE(box->maximum(), *field.max);
          QCOMPARE(box->value(), field.floatRef(defaults));  // Adam's eps (1e-8) too: no rounding to 0
          break;
        }
        case FieldKind::Bool: {
          auto *box = qobject_cast<QCheckBox *>(widget);
          QVERIFY2(box, qPrintable(key));
          QCOMPARE(box->isChecked(), field.boolRef(defaults));
          break;
        }
        case FieldKind::IntList:
        case FieldKind::StringList:
          QVERIFY2(qobject_cast<QLineEdit *>(widget), qPrintable(key));
          break;
      }
      // Up front, or in the section the table names.
      const bool common = std::find(kCommon.begin(), kCommon.end(), field.key) != kCommon.end();
      tw::ui::CollapsibleSection *section = page.sections()->section(QString::fromStdString(field.section));
      if (common) {
        QVERIFY2(!page.sections()->isAncestorOf(widget), qPrintable(key + " is common: up front"));
      } else if (page.sections()->isAncestorOf(widget)) {
        QVERIFY2(section && section->isAncestorOf(widget), qPrintable(key + " outside its section"));
      }
    }
    QVERIFY(walked >= int(tw::config::configFields().size()) - 4);
    for (const char *key : {"train.schedule", "train.gamma", "train.weight_decay", "train.loss", "data.crop_padding",
                            "train.patience", "train.checkpoint_every", "train.precision", "train.seed",
                            "data.val_fraction"})
      QVERIFY2(page.sections()->field(QString::fromLatin1(key)), key);
    QCOMPARE(page.learningRate()->maximum(), 1e3);  // the table's, not the form's old 10
    // The typed accessors reach the same fields.
    QCOMPARE(static_cast<QWidget *>(page.schedule()), page.configField(QStringLiteral("train.schedule")));
    QCOMPARE(static_cast<QWidget *>(page.checkpointEvery()), page.configField(QStringLiteral("train.checkpoint_every")));
  }

  // The sections start folded; a click on a header opens it (screenshot for the README).
  void sectionsFoldAndUnfold() {
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.resize(1400, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    tw::ui::CollapsibleSection *schedule = page.sections()->section(QStringLiteral("schedule"));
    // Studio's first schedule is cosine, whose floor is min_lr (gamma is another schedule's).
    QWidget *minLr = page.configField(QStringLiteral("train.min_lr"));
    QVERIFY(!schedule->isExpanded() && !minLr->isVisible());
    QTest::mouseClick(schedule->header(), Qt::LeftButton);
    QVERIFY(schedule->isExpanded() && minLr->isVisible());
    page.sections()->section(QStringLiteral("early stopping"))->setExpanded(true);
    tw::test::settleEvents();  // the opened sections laid out
    page.grab().save(tw::test::screenshotPath(QStringLiteral("studio_launch_sections.png")));
    QTest::mouseClick(schedule->header(), Qt::LeftButton);
    QVERIFY(!minLr->isVisible());
  }

  void studioSuggestsAFirstRun() {
    // Studio's suggestions for a first run stay inside the table.
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    QCOMPARE(page.schedule()->currentText(), QStringLiteral("cosine"));
    QCOMPARE(page.epochs()->value(), 10);
    QVERIFY(page.runYaml().contains(QStringLiteral("schedule: cosine")));
  }

  // A section's key reaches the run file when the user changes it, and the run file parses to
  // those values; untouched keys keep the table's defaults (eps is not written, so not rounded).
  void changedKeysReachTheRunFile() {
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.schedule()->setCurrentText(QStringLiteral("multistep"));
    qobject_cast<QLineEdit *>(page.configField(QStringLiteral("train.milestones")))->setText(QStringLiteral("3, 6"));
    qobject_cast<QDoubleSpinBox *>(page.configField(QStringLiteral("train.gamma")))->setValue(0.5);
    qobject_cast<QCheckBox *>(page.configField(QStringLiteral("data.shuffle")))->setChecked(false);
    qobject_cast<QComboBox *>(page.configField(QStringLiteral("distributed.backend")))->setCurrentText(QStringLiteral("gloo"));
    const QString yaml = page.runYaml();
    QVERIFY2(!yaml.contains(QStringLiteral("eps:")), qPrintable(yaml));
    const tw::config::RunConfig config = tw::config::parseRunConfig(yaml.toStdString(), "studio.run.yaml");
    QCOMPARE(config.train.schedule, std::string("multistep"));
    QCOMPARE(config.train.milestones, (std::vector<int64_t>{3, 6}));
    QCOMPARE(config.train.gamma, 0.5);
    QCOMPARE(config.data.shuffle, false);
    QCOMPARE(config.distributed.backend, std::string("gloo"));
    QCOMPARE(config.train.eps, tw::config::TrainOptions().eps);
  }

  // A packed shard set previews from its manifest and its first examples (read through the index):
  // the split counts the run will have, the classes, and pictures of the examples.
  void shardSetPreviews() {
    QTemporaryDir dir;
    const std::string out = dir.filePath(QStringLiteral("fm")).toStdString();
    const auto data = tw::config::parseRunConfig(
        "data: {dataset: fashion-mnist, path: '" TW_FASHION_MNIST_DIR "', train_limit: 500, test_limit: 100}\n",
        "pack.yaml", {}, false);
    tw::data::packDataset(data.data, out, {});
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.dataset()->setCurrentText(QStringLiteral("shards"));
    page.dataPath()->setText(QString::fromStdString(out));
    QSignalSpy previewed(page.dataPreview(), &tw::ui::DataPreview::previewed);
    QTest::mouseClick(page.previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    const tw::ui::DataPreviewResult &result = page.dataPreview()->result();
    QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
    QCOMPARE(result.train + result.validation, int64_t(500));
    QCOMPARE(result.test, int64_t(100));
    QCOMPARE(result.classNames.front(), QStringLiteral("T-shirt/top"));
    QVERIFY(!result.grid.isNull());
  }

  // Keys of other data sources are hidden, and reset when the source changes, so nothing of the
  // old source reaches the run file; the old source's path and preview go too.
  void switchingTheSourceClearsTheOldOne() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.dataset()->setCurrentText(QStringLiteral("spirals"));
    QWidget *crop = page.configField(QStringLiteral("data.crop_padding"));
    QVERIFY(!page.samples()->isHidden() && page.csvTarget()->isHidden() && crop->isHidden());
    page.samples()->setValue(400);
    QSignalSpy previewed(page.dataPreview(), &tw::ui::DataPreview::previewed);
    QTest::mouseClick(page.previewButton(), Qt::LeftButton);
    QVERIFY(previewed.wait(20000));
    QCOMPARE(page.dataPreview()->result().train + page.dataPreview()->result().validation +
                 page.dataPreview()->result().test,
             int64_t(400));

    page.dataset()->setCurrentText(QStringLiteral("csv"));
    QVERIFY(page.samples()->isHidden() && !page.csvTarget()->isHidden() && crop->isHidden());
    QVERIFY(page.dataPreview()->result().classCounts.empty());
    QVERIFY(page.dataPreview()->splitText().isEmpty());
    QVERIFY(!page.runYaml().contains(QStringLiteral("samples:")));
    page.dataPath()->setText(QStringLiteral("/data/houses.csv"));
    page.csvTarget()->setCurrentText(QStringLiteral("price"));

    page.dataset()->setCurrentText(QStringLiteral("fashion-mnist"));
    QVERIFY(!crop->isHidden() && page.csvTarget()->isHidden());
    QVERIFY(page.dataPath()->text().isEmpty());
    qobject_cast<QSpinBox *>(crop)->setValue(4);
    QVERIFY(page.runYaml().contains(QStringLiteral("crop_padding: 4")));

    page.dataset()->setCurrentText(QStringLiteral("spirals"));
    QCOMPARE(page.samples()->value(), int(tw::config::DataOptions().samples));  // reset, not 400
    QCOMPARE(qobject_cast<QSpinBox *>(crop)->value(), 0);
    QVERIFY(page.csvTarget()->currentText().isEmpty());
    const QString yaml = page.runYaml();
    QVERIFY2(!yaml.contains(QStringLiteral("crop_padding")) && !yaml.contains(QStringLiteral("price")), qPrintable(yaml));
  }

  // The page says which model it trains; a chosen model file is what the run file names.
  void trainsTheOpenDesignOrAModelFile() {
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    const QString name = QString::fromStdString(model.spec().name);
    QVERIFY2(page.modelSource()->summary().contains(QStringLiteral("the open design %1 (%2 nodes)")
                                                        .arg(name)
                                                        .arg(model.spec().nodes.size())),
             qPrintable(page.modelSource()->summary()));
    QVERIFY(page.runYaml().contains(QStringLiteral("nodes:")));

    const QString file = QStringLiteral(TW_SOURCE_DIR "/resources/examples/fashion_cnn.model.yaml");
    page.modelSource()->setModelFile(file);
    QVERIFY(page.modelSource()->summary().contains(file));
    QVERIFY(!page.modelSource()->fileField()->isHidden());
    const QString yaml = page.runYaml();
    QVERIFY2(yaml.contains(QStringLiteral("model: '%1'").arg(file)) && !yaml.contains(QStringLiteral("nodes:")),
             qPrintable(yaml));
    const tw::config::RunConfig config = tw::config::parseRunConfig(yaml.toStdString(), "studio.run.yaml");
    QCOMPARE(QString::fromStdString(config.modelFile), file);

    page.modelSource()->useOpenDesign();
    QVERIFY(page.runYaml().contains(QStringLiteral("nodes:")));
  }

  // The status line speaks of the launched run as the poller reports it, whichever comes first.
  void statusFollowsTheLaunchedRun() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    const QString uuid = QStringLiteral("0123456789abcdef0123456789abcdef");
    Q_EMIT page.launcher()->launched(uuid);
    QVERIFY2(page.statusText().contains(QStringLiteral("in the background")), qPrintable(page.statusText()));
    page.followRuns(updateOf(uuid, tw::tracking::RunStatus::Running, ""));
    QVERIFY(page.statusText().contains(QStringLiteral("in the background")));
    page.followRuns(updateOf(QStringLiteral("ffff456789abcdef0123456789abcdef"), tw::tracking::RunStatus::Failed, "other"));
    QVERIFY(page.statusText().contains(QStringLiteral("in the background")));
    page.followRuns(updateOf(uuid, tw::tracking::RunStatus::Failed, "loading data: no such file"));
    QVERIFY2(page.statusText().contains(QStringLiteral("Run 01234567 failed: loading data: no such file")),
             qPrintable(page.statusText()));

    // The poller saw the run finish before the launcher's answer arrived.
    const QString quick = QStringLiteral("abcdef0123456789abcdef0123456789");
    page.followRuns(updateOf(quick, tw::tracking::RunStatus::Finished, ""));
    Q_EMIT page.launcher()->launched(quick);
    QCOMPARE(page.statusText(), QStringLiteral("Run abcdef01 finished."));
  }
};

QTEST_MAIN(TestLaunchForm)
#include "test_launch_form.moc"
