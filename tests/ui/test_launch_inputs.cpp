// What the Launch page says about its inputs stays true of them: a number outside the config
// table's range is refused with that range (never clamped in silence), a batch larger than the
// training split is refused by the validator before anything starts, the preview's split counts
// and a refusal go when the inputs they describe change, the Schedule section shows only the
// chosen schedule's keys under readable labels, and the early-stopping monitor is chosen from the
// metrics the run records.

#include "studio_fixture.h"

#include "core/config/config_fields.h"
#include "core/config/run_task.h"
#include "ui/design/model_document.h"
#include "ui/launch/collapsible_section.h"
#include "ui/launch/config_labels.h"
#include "ui/launch/config_sections.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/range_spin_box.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QtTest>

#include <climits>

namespace {

QStringList itemsOf(const QComboBox *box) {
  QStringList items;
  for (int i = 0; i < box->count(); ++i) items << box->itemText(i);
  return items;
}

QStringList monitorsFor(const std::string &dataset, const std::string &task, int64_t topK) {
  tw::config::DataOptions data;
  data.dataset = dataset;
  data.task = task;
  QStringList out;
  for (const std::string &key : tw::config::monitorKeys(data, topK)) out << QString::fromStdString(key);
  return out;
}

}  // namespace

class TestLaunchInputs : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  // Typing 99999999 into the batch size: the whole number stays visible, editing ends with the
  // table's range in the status line and the previous value kept, and Launch refuses rather than
  // train with a value the person did not see change.
  void aNumberOutOfRangeIsRefusedWithTheRange() {
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    QSpinBox *batch = page.batchSize();
    QCOMPARE(batch->maximum(), 1 << 20);  // the config table's range
    batch->setFocus();
    batch->selectAll();
    QTest::keyClicks(batch, QStringLiteral("99999999"));
    QCOMPARE(batch->text().remove(QLocale().groupSeparator()), QStringLiteral("99999999"));
    QVERIFY2(tw::ui::rangeInputProblem(batch).contains(QStringLiteral("[1, 1048576]")),
             qPrintable(tw::ui::rangeInputProblem(batch)));
    // Launch while the number is still being typed: refused, nothing started.
    QTest::mouseClick(page.launchButton(), Qt::LeftButton);
    QVERIFY2(page.statusText().contains(QStringLiteral("Not launched: data.batch_size: 99999999 is outside [1, 1048576]")),
             qPrintable(page.statusText()));
    QCOMPARE(batch->value(), 128);

    // Editing ends: the box goes back to 128 and says why.
    batch->setFocus();
    batch->selectAll();
    QTest::keyClicks(batch, QStringLiteral("5000000"));
    QTest::keyClick(batch, Qt::Key_Return);
    QCOMPARE(batch->value(), 128);
    QVERIFY2(page.statusText().contains(QStringLiteral("data.batch_size: 5000000 is outside [1, 1048576]; it stays 128")),
             qPrintable(page.statusText()));
    QTest::mouseClick(page.launchButton(), Qt::LeftButton);
    QVERIFY2(page.statusText().startsWith(QStringLiteral("Not launched: data.batch_size: 5000000")), qPrintable(page.statusText()));

    // A decimal key the same way: the learning rate's table range is [0, 1000].
    QDoubleSpinBox *lr = page.learningRate();
    lr->setFocus();
    lr->selectAll();
    QTest::keyClicks(lr, QStringLiteral("5000"));
    QTest::keyClick(lr, Qt::Key_Return);
    QCOMPARE(lr->value(), 1e-3);
    QVERIFY2(page.statusText().contains(QStringLiteral("train.lr: 5000 is outside [0, 1000]")), qPrintable(page.statusText()));

    // A key open upwards (seed >= 0) in a box that holds an int: the box's own bounds are said.
    auto *seed = qobject_cast<QSpinBox *>(page.configField(QStringLiteral("train.seed")));
    seed->setFocus();
    seed->selectAll();
    QTest::keyClicks(seed, QStringLiteral("9999999999"));
    QTest::keyClick(seed, Qt::Key_Return);
    QCOMPARE(seed->value(), 42);
    QVERIFY2(page.statusText().contains(QStringLiteral("train.seed: 9999999999 is outside [0, ")) &&
                 page.statusText().contains(QLocale().toString(INT_MAX)),
             qPrintable(page.statusText()));
  }

  // The validator's rule, shown by the page: a batch larger than the training split.
  void aBatchLargerThanTheTrainingSplitIsRefused() {
    QTemporaryDir workspace;
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.setWorkspace(workspace.path());
    page.dataset()->setCurrentText(QStringLiteral("spirals"));
    page.samples()->setValue(500);  // 50 validation, 100 test: 350 for training
    page.batchSize()->setValue(400);
    QTest::mouseClick(page.launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().startsWith(QStringLiteral("Not launched")), 20000);
    QVERIFY2(page.statusText().contains(QStringLiteral("field 'data.batch_size': 400 is larger than the training split "
                                                       "(350 examples)")),
             qPrintable(page.statusText()));
    QVERIFY(QDir(workspace.filePath(QStringLiteral("studio-runs"))).isEmpty());
  }

  // The preview's split counts and a refusal describe the inputs they were made for: an edit of
  // those inputs clears them, an edit of anything else leaves the preview.
  void staleSplitCountsAndRefusalsGo() {
    QTemporaryDir workspace;
    tw::ui::ModelDocument model;
    QVERIFY(model.loadTemplate(QStringLiteral("mlp"), nullptr));
    tw::ui::LaunchPage page(&model);
    page.setWorkspace(workspace.path());
    page.dataset()->setCurrentText(QStringLiteral("spirals"));
    page.samples()->setValue(400);
    tw::ui::DataPreview *preview = page.dataPreview();
    auto previewNow = [&] {
      QSignalSpy previewed(preview, &tw::ui::DataPreview::previewed);
      QTest::mouseClick(page.previewButton(), Qt::LeftButton);
      return previewed.wait(20000) && preview->result().error.isEmpty() && !preview->splitText().isEmpty();
    };
    QVERIFY(previewNow());
    // The split the run will have (core/data's sizes): 40 validation and 80 test of 400.
    QVERIFY2(preview->splitText().contains(QStringLiteral("train 280 · validation 40 · test 80")),
             qPrintable(preview->splitText()));
    page.epochs()->setValue(7);  // not an input of the preview
    QVERIFY(!preview->splitText().isEmpty());

    page.samples()->setValue(500);
    QVERIFY2(preview->splitText().isEmpty(), qPrintable(preview->splitText()));
    QCOMPARE(preview->result().train, int64_t(0));

    for (const char *key : {"train.seed", "data.val_fraction", "data.test_fraction"}) {
      QVERIFY(previewNow());
      QWidget *field = page.configField(QString::fromLatin1(key));
      if (auto *box = qobject_cast<QSpinBox *>(field)) box->setValue(box->value() + 1);
      if (auto *box = qobject_cast<QDoubleSpinBox *>(field)) box->setValue(box->value() + 0.05);
      QVERIFY2(preview->splitText().isEmpty(), key);
    }

    // A refusal goes with the inputs it answered.
    page.batchSize()->setValue(400);
    QTest::mouseClick(page.launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().contains(QStringLiteral("larger than the training split")), 20000);
    page.batchSize()->setValue(64);
    QCOMPARE(page.statusText(), QString());
    page.batchSize()->setValue(400);
    QTest::mouseClick(page.launchButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(page.statusText().contains(QStringLiteral("larger than the training split")), 20000);
    page.samples()->setValue(3000);  // the split grows: the refusal no longer holds
    QCOMPARE(page.statusText(), QString());
  }

  // Only the chosen schedule's keys, each under a label a person reads; the key in the tooltip.
  void theScheduleShowsItsOwnKeys_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<QStringList>("shown");
    const QStringList every{QStringLiteral("train.schedule"), QStringLiteral("train.warmup_steps")};
    QTest::newRow("none") << "none" << every;
    QTest::newRow("cosine") << "cosine" << every + QStringList{QStringLiteral("train.min_lr")};
    QTest::newRow("step") << "step" << every + QStringList{QStringLiteral("train.step_size"), QStringLiteral("train.gamma")};
    QTest::newRow("multistep") << "multistep"
                               << every + QStringList{QStringLiteral("train.milestones"), QStringLiteral("train.gamma")};
    QTest::newRow("exponential") << "exponential" << every + QStringList{QStringLiteral("train.gamma")};
    QTest::newRow("onecycle") << "onecycle" << every + QStringList{QStringLiteral("train.pct_start")};
    QTest::newRow("plateau") << "plateau"
                             << every + QStringList{QStringLiteral("train.gamma"), QStringLiteral("train.min_lr"),
                                                    QStringLiteral("train.plateau_patience")};
  }

  void theScheduleShowsItsOwnKeys() {
    QFETCH(QString, schedule);
    QFETCH(QStringList, shown);
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.schedule()->setCurrentText(schedule);
    tw::ui::CollapsibleSection *section = page.sections()->section(QStringLiteral("schedule"));
    QStringList visible;
    for (const tw::config::ConfigField &field : tw::config::configFields()) {
      if (field.section != "schedule") continue;
      const QString key = QString::fromStdString(field.key);
      QWidget *widget = page.configField(key);
      if (!widget->isHidden()) visible << key;
      auto *label = qobject_cast<QLabel *>(section->form()->labelForField(widget));
      QVERIFY2(label && label->text() == tw::ui::configLabel(key) && !label->text().contains(QLatin1Char('_')),
               qPrintable(key));
      QVERIFY2(widget->toolTip().startsWith(key), qPrintable(widget->toolTip()));
    }
    visible.sort();
    shown.sort();
    QCOMPARE(visible, shown);
    QCOMPARE(tw::ui::configLabel(QStringLiteral("train.step_size")), QStringLiteral("Step size"));
    QCOMPARE(tw::ui::configLabel(QStringLiteral("train.milestones")), QStringLiteral("Milestones"));
  }

  // A hidden schedule key keeps its value: choosing its schedule again brings it back.
  void aHiddenScheduleKeyKeepsItsValue() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    page.schedule()->setCurrentText(QStringLiteral("step"));
    auto *gamma = qobject_cast<QDoubleSpinBox *>(page.configField(QStringLiteral("train.gamma")));
    gamma->setValue(0.5);
    page.schedule()->setCurrentText(QStringLiteral("cosine"));
    QVERIFY(gamma->isHidden());
    page.schedule()->setCurrentText(QStringLiteral("step"));
    QVERIFY(!gamma->isHidden());
    QCOMPARE(gamma->value(), 0.5);
  }

  // Every key of the table has a label of its own.
  void everyKeyHasALabel() {
    for (const tw::config::ConfigField &field : tw::config::configFields())
      QVERIFY2(tw::ui::hasConfigLabel(QString::fromStdString(field.key)), field.key.c_str());
  }

  // The monitor is one of the metrics the run records, as the validator decides them.
  void theMonitorIsAMetricTheRunRecords() {
    tw::ui::ModelDocument model;
    tw::ui::LaunchPage page(&model);
    auto *monitor = qobject_cast<QComboBox *>(page.configField(QStringLiteral("train.monitor")));
    QVERIFY(monitor && !monitor->isEditable());
    QCOMPARE(itemsOf(monitor), monitorsFor("fashion-mnist", "classification", 5));
    QCOMPARE(monitor->currentText(), QStringLiteral("val/loss"));
    monitor->setCurrentText(QStringLiteral("val/accuracy"));
    QVERIFY(page.runYaml().contains(QStringLiteral("monitor: 'val/accuracy'")));

    qobject_cast<QSpinBox *>(page.configField(QStringLiteral("train.top_k")))->setValue(3);
    QCOMPARE(itemsOf(monitor), monitorsFor("fashion-mnist", "classification", 3));
    QVERIFY(itemsOf(monitor).contains(QStringLiteral("val/top3_accuracy")));
    QCOMPARE(monitor->currentText(), QStringLiteral("val/accuracy"));  // still recorded: kept

    page.dataset()->setCurrentText(QStringLiteral("csv"));
    page.csvTask()->setCurrentText(QStringLiteral("regression"));
    QCOMPARE(itemsOf(monitor), monitorsFor("csv", "regression", 3));
    QVERIFY(itemsOf(monitor).contains(QStringLiteral("val/r2")) && !itemsOf(monitor).contains(QStringLiteral("val/accuracy")));
    QCOMPARE(monitor->currentText(), QStringLiteral("val/loss"));  // accuracy is not recorded: the default
  }
};

QTEST_MAIN(TestLaunchInputs)
#include "test_launch_inputs.moc"
