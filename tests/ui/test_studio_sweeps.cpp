// The Sweeps page: the form offers the config table's keys and the model's fields with their
// ranges and writes a sweep file that `torchwright sweep` reads back to the same space; a study
// written into a workspace through the tracking store fills the study list, trial table and
// every plot; trials open in Runs and on the Launch page; a real sweep started from the page.

#include "studio_fixture.h"

#include "core/search/catalog.h"
#include "core/spec/model_spec.h"
#include "core/sweep/sweep_file.h"
#include "core/sweep/sweep_writer.h"
#include "ui/charts/bar_chart.h"
#include "ui/charts/contour_plot.h"
#include "ui/charts/metric_chart.h"
#include "ui/charts/parallel_coordinates.h"
#include "ui/charts/scatter_chart.h"
#include "ui/design/design_page.h"
#include "ui/design/model_document.h"
#include "ui/launch/launch_page.h"
#include "ui/main_window.h"
#include "ui/runs/runs_page.h"
#include "core/config/config_fields.h"
#include "ui/common/number_item.h"
#include "ui/common/state_labels.h"
#include "ui/sweeps/base_run_box.h"
#include "ui/sweeps/option_editor.h"
#include "ui/sweeps/searchable_keys.h"
#include "ui/sweeps/study_phase.h"
#include "ui/sweeps/space_table.h"
#include "ui/sweeps/study_plots.h"
#include "ui/models/export_dialog.h"
#include "ui/sweeps/study_view.h"
#include "ui/sweeps/sweep_form.h"
#include "ui/sweeps/sweep_launcher.h"
#include "ui/sweeps/sweeps_page.h"

#include <QApplication>
#include <QFontMetrics>
#include <QLabel>
#include <QLocale>
#include <QChartView>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QValueAxis>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>

#include <cmath>

using namespace tw;

namespace {

const char *const kModel =
    "name: spiral\n"
    "nodes:\n"
    "  - {id: x, op: Input, shape: [2]}\n"
    "  - {id: fc1, op: Linear, out_features: 16}\n"
    "  - {id: act, op: ReLU}\n"
    "  - {id: logits, op: Linear, out_features: 3}\n";

std::string baseRun() {
  std::string yaml = "model:\n";
  for (const QString &line : QString::fromLatin1(kModel).split('\n', Qt::SkipEmptyParts))
    yaml += "  " + line.toStdString() + "\n";
  return yaml +
         "data: {dataset: spirals, samples: 300, classes: 3, batch_size: 32}\n"
         "train: {optimizer: sgd, lr: 0.05, epochs: 2, device: cpu}\n"
         "tracking: {experiment: sweeps-test}\n";
}

void saveShot(QWidget *widget, const QString &name) {
  tw::test::settleEvents();  // Qt Charts lays out titles and legends on the next turn of the event loop
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots");
  QDir().mkpath(dir);
  widget->grab().save(dir + QLatin1Char('/') + name);
}

const ui::SearchableKey *offered(const ui::SpaceTable *table, const char *key) {
  return table->findKey(QString::fromLatin1(key));
}

void setRow(ui::SpaceTable *table, int row, const QString &low, const QString &high, bool log, const QString &step,
            const QString &when = {}) {
  table->item(row, ui::SpaceTable::LowColumn)->setText(low);
  table->item(row, ui::SpaceTable::HighColumn)->setText(high);
  table->item(row, ui::SpaceTable::LogColumn)->setCheckState(log ? Qt::Checked : Qt::Unchecked);
  table->item(row, ui::SpaceTable::StepColumn)->setText(step);
  table->item(row, ui::SpaceTable::WhenColumn)->setText(when);
}

// Studio shown on a fresh workspace, for a real sweep started from its page.
struct LiveStudio {
  static QString cli() { return QStringLiteral(TW_BIN_DIR "/torchwright"); }
  static bool canSweep() { return QFile::exists(cli()) && QFile::exists(QStringLiteral(TW_BIN_DIR "/torchwright-worker")); }
  LiveStudio() {
    window.resize(1400, 900);
    window.show();
  }
  tw::test::Workspace ws;
  ui::MainWindow window;
};

// The model on Design, spirals on Launch, a random search over train.lr (and `more` keys with
// their offered ranges) on the Sweeps form, started with `cli`.
ui::SweepsPage *startSweep(ui::MainWindow &window, const QString &cli, const QString &study, int epochs, int trials,
                           const QStringList &more = {}) {
  window.designPage()->document()->newModel(spec::parseModelYaml(kModel));
  ui::LaunchPage *launch = window.launchPage();
  launch->dataset()->setCurrentText("spirals");
  launch->samples()->setValue(300);
  launch->epochs()->setValue(epochs);
  launch->schedule()->setCurrentText("constant");
  ui::SweepsPage *page = window.sweepsPage();
  page->launcher()->setCliPath(cli);
  window.pages()->setCurrentWidget(page);
  ui::SweepForm *form = page->form();
  const int row = form->space()->addParam(QStringLiteral("train.lr"));
  setRow(form->space(), row, "0.001", "0.5", true, {});
  for (const QString &key : more) form->space()->addParam(key);
  form->studyName()->setText(study);
  form->sampler()->setCurrentText("random");
  form->trials()->setValue(trials);
  form->minutes()->setValue(0);
  QTest::mouseClick(form->startButton(), Qt::LeftButton);
  return page;
}

// A study with two objectives (accuracy up, parameter count down) over lr, optimizer and width.
sweep::SweepFile studySweep() {
  sweep::SweepFile s;
  s.studyName = "written";
  s.baseYaml = baseRun();
  s.objectives = {{"val/accuracy", search::Direction::Maximize}, {"params", search::Direction::Minimize}};
  search::ParamSpec lr;
  lr.key = "train.lr";
  lr.low = 1e-3;
  lr.high = 1.0;
  lr.log = true;
  search::ParamSpec optimizer;
  optimizer.key = "train.optimizer";
  optimizer.type = search::ParamType::Categorical;
  optimizer.choices = {"sgd", "adam"};
  search::ParamSpec width;
  width.key = "model.fc1.out_features";
  width.type = search::ParamType::Int;
  width.low = 4;
  width.high = 64;
  s.space.params = {lr, optimizer, width};
  s.sampler = "random";
  s.budget.trials = 12;
  return s;
}

// A single-objective random search over train.lr with a budget of `budget` trials, recorded with
// `complete` COMPLETE trials (accuracy `values[i]`, lr `lrs[i]`), as a finished or stopped
// `torchwright sweep` leaves it.
tracking::StudyRecord recordStudy(tw::test::Workspace &ws, const std::string &name, int budget,
                                  const std::vector<double> &values, const std::vector<std::string> &lrs) {
  sweep::SweepFile s;
  s.studyName = name;
  s.baseYaml = baseRun();
  s.objectives = {{"val/accuracy", search::Direction::Maximize}};
  search::ParamSpec lr;
  lr.key = "train.lr";
  lr.low = 1e-4;
  lr.high = 1.0;
  lr.log = true;
  s.space.params = {lr};
  s.sampler = "random";
  s.budget.trials = budget;
  tracking::NewStudy record;
  record.name = name;
  record.sweepYaml = sweep::sweepYaml(s);
  record.directions = "maximize";
  record.metrics = "val/accuracy";
  const tracking::StudyRecord study = ws.store->createStudy(record);
  for (size_t i = 0; i < values.size(); ++i) {
    const auto trial = ws.store->addTrial(study.id, {{"train.lr", lrs[i]}});
    auto run = ws.createRun(name + "-trial-" + std::to_string(i), "sweeps-test");
    ws.store->linkTrialRun(study.id, trial.number, run.id);
    std::vector<tracking::MetricRow> rows;
    for (int epoch = 1; epoch <= 2; ++epoch)
      rows.push_back({"val/accuracy", epoch, values[i] - 0.1 * (2 - epoch), tracking::nowMs()});
    ws.store->writeMetrics(run.id, rows);
    ws.store->setTrialState(study.id, trial.number, "COMPLETE", {values[i]});
  }
  return study;
}

// Studio on `ws`, the Sweeps page's Studies tab showing the study named `name`.
ui::StudyView *showStudy(ui::MainWindow &window, const tw::test::Workspace &ws, const QString &name) {
  window.resize(1400, 900);
  window.show();
  if (!window.openWorkspace(ws.dir)) return nullptr;
  ui::SweepsPage *page = window.sweepsPage();
  window.pages()->setCurrentWidget(page);
  page->tabs()->setCurrentWidget(page->studies());
  ui::StudyView *view = page->studies();
  if (!QTest::qWaitFor([&] { return view->studies()->rowCount() > 0; }, 10000)) return nullptr;
  for (int row = 0; row < view->studies()->rowCount(); ++row)
    if (view->studies()->item(row, 0)->text() == name) view->studies()->selectRow(row);
  return view;
}

QString studyStatus(const ui::StudyView *view, const QString &name) {
  for (int row = 0; row < view->studies()->rowCount(); ++row)
    if (view->studies()->item(row, 0)->text() == name) return view->studies()->item(row, 1)->text();
  return {};
}

}  // namespace

class TestStudioSweeps : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir m_settings;

 private Q_SLOTS:
  void initTestCase() { tw::test::isolateSettings(m_settings.path()); }

  void formOffersKeysAndWritesWhatParsesBack() {
    tw::test::Workspace ws;
    ui::SweepForm form;
    form.resize(1200, 800);
    form.show();
    form.setModel(QString::fromLatin1(kModel));
    form.setBaseYaml(QString::fromStdString(baseRun()));
    ui::SpaceTable *table = form.space();

    // The config table's keys with their kinds and ranges, and the model's fields from the registry.
    const ui::SearchableKey *lr = offered(table, "train.lr");
    QVERIFY(lr);
    QVERIFY(lr->type == search::ParamType::Float);
    QCOMPARE(lr->min.value_or(-1), 0.0);
    QCOMPARE(lr->max.value_or(-1), 1000.0);
    const ui::SearchableKey *optimizer = offered(table, "train.optimizer");
    QVERIFY(optimizer && optimizer->type == search::ParamType::Categorical);
    QVERIFY(std::find(optimizer->choices.begin(), optimizer->choices.end(), "adam") != optimizer->choices.end());
    const ui::SearchableKey *width = offered(table, "model.fc1.out_features");
    QVERIFY(width);
    QVERIFY(width->type == search::ParamType::Int);
    QCOMPARE(width->current, std::string("16"));
    QVERIFY(width->min.has_value());
    QVERIFY(!offered(table, "model.fc1.in_features"));  // inferred from the shapes: not searchable
    QVERIFY(!offered(table, "data.path"));              // a free string has no distribution

    // Picking a key suggests a distribution inside its range.
    const int lrRow = table->addParam(QStringLiteral("train.lr"));
    QCOMPARE(table->typeBox(lrRow)->currentText(), QStringLiteral("float"));
    QVERIFY(table->item(lrRow, ui::SpaceTable::AllowedColumn)->text().contains(ui::formatNumber(1000)));
    setRow(table, lrRow, "0.0001", "0.3", true, {});
    const int optRow = table->addParam(QStringLiteral("train.optimizer"));
    table->item(optRow, ui::SpaceTable::ChoicesColumn)->setText("sgd, adam");
    const int momentumRow = table->addParam(QStringLiteral("train.momentum"));
    setRow(table, momentumRow, "0", "0.95", false, {}, "train.optimizer=sgd");
    const int batchRow = table->addParam(QStringLiteral("data.batch_size"));
    QCOMPARE(table->typeBox(batchRow)->currentText(), QStringLiteral("int"));
    setRow(table, batchRow, "16", "256", true, {});
    const int widthRow = table->addParam(QStringLiteral("model.fc1.out_features"));
    setRow(table, widthRow, "32", "512", false, "32");

    // Option editors come from the catalog's OptionSpecs, whatever samplers it holds.
    for (const search::SamplerEntry &entry : search::samplerCatalog()) {
      form.sampler()->setCurrentText(QString::fromStdString(entry.name));
      int expected = 0;
      for (const auto &option : entry.options) expected += option.key != "seed";
      QCOMPARE(form.samplerOptions()->editorCount(), expected);
    }
    for (const search::PrunerEntry &entry : search::prunerCatalog()) {
      form.pruner()->setCurrentText(QString::fromStdString(entry.name));
      QCOMPARE(form.prunerOptions()->editorCount(), static_cast<int>(entry.options.size()));
    }
    form.sampler()->setCurrentText("random");
    form.pruner()->setCurrentText("none");
    form.studyName()->setText("lr-search");
    form.metric()->setCurrentText("val/accuracy");
    QCOMPARE(form.direction()->currentData().toString(), QStringLiteral("maximize"));
    form.trials()->setValue(7);
    form.minutes()->setValue(30);
    form.parallel()->setValue(2);
    form.seed()->setValue(5);
    saveShot(&form, "studio_sweep_form.png");

    QString path, error;
    QVERIFY2(form.save(ws.dir, &path, &error), qPrintable(error));
    QCOMPARE(path, QDir(ws.dir).filePath("studies/lr-search.sweep.yaml"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const std::string text = file.readAll().toStdString();
    const sweep::SweepFile read = sweep::parseSweepFile(text, path.toStdString());

    QStringList problems;
    const sweep::SweepFile shown = form.sweep(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QCOMPARE(read.space.params.size(), size_t(5));
    for (size_t i = 0; i < shown.space.params.size(); ++i) {
      const search::ParamSpec &want = shown.space.params[i];
      const search::ParamSpec *got = read.space.find(want.key);
      QVERIFY2(got, want.key.c_str());
      QVERIFY(got->type == want.type);
      QCOMPARE(got->low, want.low);
      QCOMPARE(got->high, want.high);
      QCOMPARE(got->log, want.log);
      QCOMPARE(got->step, want.step);
      QVERIFY(got->choices == want.choices);
      QCOMPARE(got->when.size(), want.when.size());
    }
    const search::ParamSpec *momentum = read.space.find("train.momentum");
    QCOMPARE(momentum->when.front().key, std::string("train.optimizer"));
    QVERIFY(momentum->when.front().values == std::vector<std::string>{"sgd"});
    QCOMPARE(read.studyName, std::string("lr-search"));
    QCOMPARE(read.objectives.size(), size_t(1));
    QCOMPARE(read.objectives[0].metric, std::string("val/accuracy"));
    QCOMPARE(read.sampler, std::string("random"));
    QCOMPARE(read.seed, uint64_t(5));
    QCOMPARE(read.pruner, std::string("none"));
    QCOMPARE(read.budget.trials, 7);
    QCOMPARE(read.budget.minutes, 30.0);
    QCOMPARE(read.parallel, 2);
    QVERIFY(read.baseYaml.find("spirals") != std::string::npos);

    // What the parser refuses is said before a file exists: a range outside the key's.
    setRow(table, lrRow, "0.0001", "2000", true, {});
    form.studyName()->setText("too-wide");
    QVERIFY(!form.save(ws.dir, &path, &error));
    QVERIFY2(error.contains("train.lr"), qPrintable(error));
    QVERIFY(!QFile::exists(QDir(ws.dir).filePath("studies/too-wide.sweep.yaml")));
    // The same name again: the first study's file stays as it was.
    setRow(table, lrRow, "0.0001", "0.3", true, {});
    form.studyName()->setText("lr-search");
    QVERIFY(!form.save(ws.dir, &path, &error));
    QVERIFY2(error.contains("exists already"), qPrintable(error));
  }

  // The study's name becomes a file name by the sweep file's own rule, and the file stays in the
  // workspace: a name that climbs out, or a `studies` folder that is a link elsewhere, is refused
  // and nothing is written outside.
  void studyFileStaysInTheWorkspace() {
    tw::test::Workspace ws;
    QTemporaryDir outside;
    ui::SweepForm form;
    form.setModel(QString::fromLatin1(kModel));
    form.setBaseYaml(QString::fromStdString(baseRun()));
    setRow(form.space(), form.space()->addParam(QStringLiteral("train.lr")), "0.0001", "0.3", true, {});
    form.sampler()->setCurrentText("random");
    form.metric()->setCurrentText("val/accuracy");
    form.trials()->setValue(3);

    QString path, error;
    for (const char *name : {"../escape", "/tmp/escape", "2nd-search"}) {
      form.studyName()->setText(name);
      QVERIFY2(!form.save(ws.dir, &path, &error), name);
      QVERIFY2(error.contains("must start with a letter"), qPrintable(error));  // core's spec::portableNameProblem
    }
    QVERIFY(!QFile::exists(QDir(ws.dir).filePath("escape.sweep.yaml")));

    QVERIFY(QFile::link(outside.path(), QDir(ws.dir).filePath("studies")));
    form.studyName()->setText("linked");
    QVERIFY(!form.save(ws.dir, &path, &error));
    QVERIFY2(error.contains("symbolic link"), qPrintable(error));
    QVERIFY(QDir(outside.path()).isEmpty());

    QVERIFY(QFile::remove(QDir(ws.dir).filePath("studies")));
    QVERIFY2(form.save(ws.dir, &path, &error), qPrintable(error));
    QCOMPARE(QFileInfo(path).fileName(), QStringLiteral("linked.sweep.yaml"));
  }

  void studyInTheDatabaseFillsTheViews() {
    tw::test::Workspace ws;
    tracking::NewStudy newStudy;
    const sweep::SweepFile sweepFile = studySweep();
    newStudy.name = sweepFile.studyName;
    newStudy.sweepYaml = sweep::sweepYaml(sweepFile);
    newStudy.directions = "maximize,minimize";
    newStudy.metrics = "val/accuracy,params";
    const tracking::StudyRecord study = ws.store->createStudy(newStudy);

    // Twelve trials: accuracy follows the learning rate, the parameter count the width; two are
    // pruned after two epochs, one failed.
    std::map<int, int64_t> runOf;
    std::map<int, double> lrOf;
    int complete = 0;
    double best = 0.0;
    for (int i = 0; i < 12; ++i) {
      const double lr = std::pow(10.0, -3.0 + 3.0 * i / 11.0);
      const int width = 4 + 5 * ((i * 7) % 12);  // shuffled: it does not follow the learning rate
      lrOf[i] = lr;
      const auto trial = ws.store->addTrial(study.id, {{"train.lr", QString::number(lr, 'g', 10).toStdString()},
                                                      {"train.optimizer", i % 2 ? "adam" : "sgd"},
                                                      {"model.fc1.out_features", std::to_string(width)}});
      auto run = ws.createRun("trial-" + std::to_string(i), "sweeps-test");
      ws.store->linkTrialRun(study.id, trial.number, run.id);
      runOf[trial.number] = run.id;
      const double accuracy = 0.95 - 0.1 * std::abs(std::log10(lr) + 1.5);
      const bool pruned = i == 3 || i == 7, failed = i == 10;
      const int epochs = pruned ? 2 : 3;
      std::vector<tracking::MetricRow> rows;
      for (int epoch = 1; epoch <= epochs; ++epoch) {
        const double value = accuracy - 0.1 * (3 - epoch);
        rows.push_back({"val/accuracy", epoch, value, tracking::nowMs()});
        ws.store->reportIntermediate(study.id, trial.number, epoch, value);
      }
      ws.store->writeMetrics(run.id, rows);
      if (pruned) {
        ws.store->setTrialState(study.id, trial.number, "PRUNED", {}, "below the median at epoch 2");
      } else if (failed) {
        ws.store->setTrialState(study.id, trial.number, "FAILED", {}, "the worker died");
      } else {
        ws.store->setTrialState(study.id, trial.number, "COMPLETE", {accuracy, 6.0 * width + 3});
        best = std::max(best, accuracy);
        ++complete;
      }
    }

    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    window.designPage()->document()->newModel(spec::parseModelYaml(kModel));
    ui::SweepsPage *page = window.sweepsPage();
    window.pages()->setCurrentWidget(page);
    page->tabs()->setCurrentWidget(page->studies());
    ui::StudyView *view = page->studies();
    QTRY_COMPARE(view->studies()->rowCount(), 1);
    QCOMPARE(view->studies()->item(0, 0)->text(), QStringLiteral("written"));
    QCOMPARE(view->studies()->item(0, 2)->data(ui::NumberItem::SortRole).toInt(), 12);
    QCOMPARE(view->studies()->item(0, 3)->data(ui::NumberItem::SortRole).toDouble(), best);
    view->studies()->selectRow(0);
    QCOMPARE(view->selectedStudyId(), study.id);

    QTRY_COMPARE(view->trials()->rowCount(), 12);
    QTableWidget *trials = view->trials();
    QStringList headers;
    for (int c = 0; c < trials->columnCount(); ++c) headers << trials->horizontalHeaderItem(c)->text();
    QVERIFY(headers.contains("train.lr") && headers.contains("model.fc1.out_features"));
    QCOMPARE(trials->item(view->trialRow(10), ui::StudyView::StateColumn)->text(), ui::trialStateText("FAILED"));
    QCOMPARE(trials->item(view->trialRow(3), ui::StudyView::StateColumn)->text(), ui::trialStateText("PRUNED"));
    QCOMPARE(trials->item(view->trialRow(3), ui::StudyView::PrunedAtColumn)->data(ui::NumberItem::SortRole).toInt(), 2);

    ui::StudyPlots *plots = view->plots();
    QTRY_COMPARE(plots->history()->drawnPoints().size(), complete);
    QCOMPARE(plots->history()->drawnLine().size(), complete);
    // The best so far never gets worse.
    const QList<QPointF> bestSoFar = plots->history()->drawnLine();
    for (int i = 1; i < bestSoFar.size(); ++i) QVERIFY(bestSoFar[i].y() >= bestSoFar[i - 1].y());
    // Accuracy follows the learning rate alone: the most important parameter.
    QVERIFY(!plots->importance()->drawnLabels().isEmpty());
    QCOMPARE(plots->importance()->drawnLabels().front(), QStringLiteral("train.lr"));
    QCOMPARE(plots->parallel()->lineCount(), complete);
    QCOMPARE(plots->parallel()->axisCount(), 4);
    plots->sliceParam()->setCurrentText("train.lr");
    QCOMPARE(plots->slice()->drawnPoints().size(), complete);
    QVERIFY(plots->contour()->grid().size > 0);
    QCOMPARE(plots->contour()->trialCount(), complete);
    // Learning curves from the trial runs' metrics, pruned ones included.
    QTRY_COMPARE(plots->curves()->rawPointCount("trial 0"), 3);
    QTRY_COMPARE(plots->curves()->rawPointCount("trial 3"), 2);
    // Two objectives: the Pareto front.
    QVERIFY(plots->isTabVisible(plots->indexOf(plots->paretoTab())));
    QCOMPARE(plots->pareto()->drawnPoints().size(), complete);
    QVERIFY(!plots->pareto()->drawnLine().isEmpty());
    for (int tab = 0; tab < plots->count(); ++tab) {
      if (!plots->isTabVisible(tab)) continue;
      plots->setCurrentIndex(tab);
      saveShot(&window, QStringLiteral("studio_sweeps_%1.png").arg(tab));
    }

    // A trial opens in Runs, and its configuration goes to the Launch page.
    trials->selectRow(view->trialRow(4));
    QVERIFY(view->openRunButton()->isEnabled());
    QTest::mouseClick(view->openRunButton(), Qt::LeftButton);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(window.runsPage()));
    QTRY_COMPARE(window.runsPage()->selectedRunId(), runOf[4]);

    window.pages()->setCurrentWidget(page);
    trials->selectRow(view->trialRow(5));
    QTest::mouseClick(view->launchTrialButton(), Qt::LeftButton);
    ui::LaunchPage *launch = window.launchPage();
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(launch));
    QCOMPARE(launch->optimizer()->currentText(), QStringLiteral("adam"));
    const QString yaml = launch->runYaml();
    QVERIFY2(yaml.contains("out_features: 59"), qPrintable(yaml));  // 4 + 5 * (35 % 12), in the model
    const double lr = launch->extraSettings().count("train.lr") ? std::stod(launch->extraSettings().at("train.lr"))
                                                                : launch->learningRate()->value();
    QVERIFY(std::abs(lr - lrOf[5]) < 1e-9);

    // The best trial's model goes to the Export dialog, on the Runs page with its run selected.
    window.pages()->setCurrentWidget(page);
    const int64_t bestRun = view->bestTrialRunId();
    QVERIFY(bestRun != 0);
    QVERIFY(view->exportBestButton()->isEnabled());
    QTest::mouseClick(view->exportBestButton(), Qt::LeftButton);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(window.runsPage()));
    QTRY_COMPARE(window.runsPage()->selectedRunId(), bestRun);
    auto *dialog = window.runsPage()->findChild<ui::ExportDialog *>();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(dialog->arguments().contains(QString::fromStdString(ws.store->run(bestRun)->uuid)));
    dialog->close();
  }

  // A base run `torchwright launch` would refuse (a device this machine lacks) is refused with
  // the reason, checked off the UI thread, and no sweep file is written or started.
  void refusesABadBaseRun() {
    LiveStudio studio;
    QVERIFY(studio.window.openWorkspace(studio.ws.dir));
    studio.window.launchPage()->device()->setText(QStringLiteral("cuda:3"));
    ui::SweepsPage *page = startSweep(studio.window, QStringLiteral("/nonexistent/torchwright"), "refused", 1, 2);
    QTRY_VERIFY(page->statusText().startsWith(QStringLiteral("Not started")));
    QVERIFY2(page->statusText().contains(QStringLiteral("cuda")), qPrintable(page->statusText()));
    QVERIFY(page->form()->startButton()->isEnabled());
    const QDir studies(QDir(studio.ws.dir).filePath(QStringLiteral("studies")));
    QVERIFY(studies.entryList({QStringLiteral("*.sweep.yaml")}, QDir::Files).isEmpty());
  }

  // The page says which model and data every trial trains (the Launch page's) before Start, and
  // follows the Launch page when it changes; its button goes there.
  void newSweepNamesTheModelAndData() {
    tw::test::Workspace ws;
    ui::MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(window.openWorkspace(ws.dir));
    window.designPage()->document()->newModel(spec::parseModelYaml(kModel));
    window.launchPage()->dataset()->setCurrentText("spirals");
    ui::SweepsPage *page = window.sweepsPage();
    window.pages()->setCurrentWidget(page);
    ui::BaseRunBox *base = page->baseRun();
    QTRY_VERIFY(base->isVisible());
    QVERIFY2(base->label()->text().contains(QStringLiteral("“spiral”")), qPrintable(base->label()->text()));
    QVERIFY2(base->label()->text().contains(QStringLiteral("Data: spirals.")), qPrintable(base->label()->text()));
    saveShot(&window, "studio_sweeps_base_run.png");

    window.pages()->setCurrentWidget(window.launchPage());
    window.launchPage()->dataset()->setCurrentText("blobs");
    window.pages()->setCurrentWidget(page);
    QTRY_VERIFY2(base->label()->text().contains(QStringLiteral("Data: blobs.")), qPrintable(base->label()->text()));
    QTest::mouseClick(base->changeButton(), Qt::LeftButton);
    QCOMPARE(window.pages()->currentWidget(), static_cast<QWidget *>(window.launchPage()));
    // Reading studies, the box is out of the way.
    window.pages()->setCurrentWidget(page);
    page->tabs()->setCurrentWidget(page->studies());
    QVERIFY(!base->isVisible());
  }

  // "Add Parameter" starts at the optimiser's first numeric key in the config table (the learning
  // rate), then the next one; never at the table's first key (data.dataset).
  void addParameterStartsWhereSearchesStart() {
    std::vector<std::string> optimiserNumbers;
    for (const config::ConfigField &field : config::configFields())
      if (field.section == "optimiser" && (field.kind == config::FieldKind::Float || field.kind == config::FieldKind::Int))
        optimiserNumbers.push_back(field.key);
    QVERIFY(optimiserNumbers.size() >= 2);
    QCOMPARE(optimiserNumbers.front(), std::string("train.lr"));

    ui::SweepForm form;
    form.setModel(QString::fromLatin1(kModel));
    QTest::mouseClick(form.addButton(), Qt::LeftButton);
    QCOMPARE(form.space()->rowCount(), 1);
    QCOMPARE(form.space()->keyBox(0)->currentText(), QStringLiteral("train.lr"));
    QCOMPARE(form.space()->typeBox(0)->currentText(), QStringLiteral("float"));
    QTest::mouseClick(form.addButton(), Qt::LeftButton);
    QCOMPARE(form.space()->keyBox(1)->currentText().toStdString(), optimiserNumbers[1]);
  }

  // A study whose budget is spent reads "finished" with the reason and cannot be resumed; one
  // stopped early reads "stopped" and can. The "runs in the background (pid ...)" line goes once
  // the driver lets its study go.
  void finishedStudySaysSoAndTheDriverLineGoes() {
    tw::test::Workspace ws;
    const auto done = recordStudy(ws, "done", 3, {0.7, 0.8, 0.75}, {"0.01", "0.1", "0.001"});
    const auto half = recordStudy(ws, "half", 3, {0.6}, {"0.02"});
    ui::MainWindow window;
    ui::StudyView *view = showStudy(window, ws, QStringLiteral("done"));
    QVERIFY(view);
    QTRY_COMPARE(view->selectedStudyId(), done.id);
    QTRY_COMPARE(studyStatus(view, "done"), ui::studyPhaseText(ui::StudyPhase::Finished));
    QTRY_COMPARE(studyStatus(view, "half"), ui::studyPhaseText(ui::StudyPhase::Stopped));
    QVERIFY(!view->resumeButton()->isEnabled());
    QVERIFY2(view->phaseLabel()->text().contains(QStringLiteral("budget")), qPrintable(view->phaseLabel()->text()));
    view->selectStudy(half.id);
    QTRY_VERIFY(view->resumeButton()->isEnabled());
    QVERIFY2(view->phaseLabel()->text().contains(QStringLiteral("1 of 3")), qPrintable(view->phaseLabel()->text()));

    // The driver of "half" in the background: the CLI's line with its pid, until the study is let go.
    ui::SweepsPage *page = window.sweepsPage();
    const QString line = QStringLiteral("study half runs in the background (pid 4242); follow it with `torchwright "
                                        "study show half`");
    Q_EMIT page->launcher()->started(QString::fromStdString(half.uuid), line);
    QCOMPARE(page->statusText(), line);
    ws.store->setStudyStatus(half.id, "RUNNING");
    QTRY_COMPARE(studyStatus(view, "half"), ui::studyPhaseText(ui::StudyPhase::Running));
    QCOMPARE(page->statusText(), line);
    QVERIFY(!view->resumeButton()->isEnabled());
    ws.store->setStudyStatus(half.id, "IDLE");
    QTRY_VERIFY2(!page->statusText().contains(QStringLiteral("pid")), qPrintable(page->statusText()));
    QVERIFY2(page->statusText().contains(QStringLiteral("half")), qPrintable(page->statusText()));
    QCOMPARE(studyStatus(view, "half"), ui::studyPhaseText(ui::StudyPhase::Stopped));
  }

  // A driver killed before it could let its study go leaves it RUNNING without heartbeats: past
  // the silence allowed, the study reads interrupted (Resume takes it on) and the pid line goes.
  void silentDriverIsGone() {
    tw::test::Workspace ws;
    const auto orphan = recordStudy(ws, "orphan", 3, {0.6}, {"0.02"});
    ui::MainWindow window;
    ui::StudyView *view = showStudy(window, ws, QStringLiteral("orphan"));
    QVERIFY(view);
    QTRY_COMPARE(view->selectedStudyId(), orphan.id);
    view->setDriverSilenceMs(2000);
    ui::SweepsPage *page = window.sweepsPage();
    const QString line = QStringLiteral("study orphan runs in the background (pid 4243)");
    Q_EMIT page->launcher()->started(QString::fromStdString(orphan.uuid), line);
    ws.store->setStudyStatus(orphan.id, "RUNNING");  // and then nothing more: the driver died
    QTRY_COMPARE(studyStatus(view, "orphan"), ui::studyPhaseText(ui::StudyPhase::Running));
    QVERIFY(!view->resumeButton()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(studyStatus(view, "orphan"), ui::studyPhaseText(ui::StudyPhase::Interrupted), 10000);
    QCOMPARE(studyStatus(view, "orphan"), QStringLiteral("interrupted"));
    QTRY_VERIFY(view->resumeButton()->isEnabled());
    QVERIFY2(view->phaseLabel()->text().contains(QStringLiteral("stopped answering")),
             qPrintable(view->phaseLabel()->text()));
    QTRY_VERIFY2(!page->statusText().contains(QStringLiteral("pid")), qPrintable(page->statusText()));
  }

  // Trial numbers are whole on the history's axis even for three trials; the learning curves
  // have a legend naming the best trials; long parameter names in the importance chart stay whole.
  void smallStudyPlotsReadWell() {
    tw::test::Workspace ws;
    const auto study = recordStudy(ws, "small", 3, {0.7, 0.9, 0.8}, {"0.01", "0.1", "0.001"});
    ui::MainWindow window;
    ui::StudyView *view = showStudy(window, ws, QStringLiteral("small"));
    QVERIFY(view);
    QTRY_COMPARE(view->selectedStudyId(), study.id);
    ui::StudyPlots *plots = view->plots();
    QTRY_COMPARE(plots->history()->drawnPoints().size(), 3);
    auto *axis = qobject_cast<QValueAxis *>(plots->history()->drawnAxis(Qt::Horizontal));
    QVERIFY(axis);
    QVERIFY2(axis->tickInterval() >= 1.0 && axis->tickInterval() == std::round(axis->tickInterval()),
             qPrintable(QString::number(axis->tickInterval())));
    QCOMPARE(axis->tickAnchor(), std::round(axis->tickAnchor()));
    plots->setCurrentIndex(0);
    // The labels as drawn: whole trial numbers, none in between (a "%d" format once drew none).
    auto *chartView = plots->history()->findChild<QChartView *>();
    QVERIFY(chartView);
    const auto drawnTexts = [chartView] {
      QStringList texts;
      for (QGraphicsItem *item : chartView->scene()->items())
        if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible())
          texts << text->toPlainText();
      return texts;
    };
    QTRY_VERIFY2(drawnTexts().contains(QStringLiteral("1")) && drawnTexts().contains(QStringLiteral("2")),
                 qPrintable(drawnTexts().join(QLatin1Char('|'))));
    QVERIFY2(!drawnTexts().contains(QStringLiteral("0.5")) && !drawnTexts().contains(QStringLiteral("1.5")),
             qPrintable(drawnTexts().join(QLatin1Char('|'))));
    saveShot(&window, "studio_sweeps_small_history.png");

    QCOMPARE(plots->bestTrials(), (std::vector<int>{1, 2, 0}));
    const QString legend = plots->curvesLegend()->text();
    QVERIFY2(legend.contains(QStringLiteral("Trial 1 (0.9)")), qPrintable(legend));
    QVERIFY(legend.indexOf(QStringLiteral("Trial 1")) < legend.indexOf(QStringLiteral("Trial 2")));
    QVERIFY2(legend.contains(QStringLiteral("pruned")), qPrintable(legend));
    plots->setCurrentIndex(1);
    QTRY_VERIFY(plots->curvesLegend()->isVisible());
    saveShot(&window, "studio_sweeps_small_curves.png");

    // A model field's long name on a small window: elided in the middle to fit, whole in the tooltip.
    const std::string longKey = "model.a_rather_long_encoder_block_name.attention_projection.out_features";
    auto analysis = std::make_shared<ui::StudyAnalysis>(*plots->analysis());
    analysis->importance = {{longKey, 0.6, 0.0}, {"train.lr", 0.4, 0.0}};
    window.resize(1024, 640);
    plots->setCurrentWidget(plots->importance()->parentWidget());
    plots->setAnalysis(analysis);
    QTRY_VERIFY(plots->importance()->isVisible());
    const QFontMetrics metrics(plots->importance()->font());
    const int room = std::max(ui::StudyPlots::kMinImportanceLabelPx,
                              static_cast<int>(plots->importance()->width() * ui::StudyPlots::kImportanceLabelShare));
    QTRY_COMPARE(plots->importance()->drawnLabels().size(), 2);
    const QStringList labels = plots->importance()->drawnLabels();
    for (const QString &label : labels) QVERIFY2(metrics.horizontalAdvance(label) <= room, qPrintable(label));
    QVERIFY2(labels.front().startsWith(QStringLiteral("model.")) && labels.front().endsWith(QStringLiteral("features")),
             qPrintable(labels.front()));
    QCOMPARE(labels.back(), QStringLiteral("train.lr"));
    QVERIFY(plots->importance()->toolTip().contains(QString::fromStdString(longKey)));
    saveShot(&window, "studio_sweeps_small_importance.png");
  }

  // Every number in the Sweeps tables goes through number_format.h (the locale's separators, the
  // digits that matter) and sorts as a number.
  void tablesFormatNumbersByTheLocale() {
    struct GermanLocale {  // back to the locale before, even when a comparison fails
      QLocale before;
      GermanLocale() { QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany)); }
      ~GermanLocale() { QLocale::setDefault(before); }
    } german;
    tw::test::Workspace ws;
    const auto study = recordStudy(ws, "german", 12, {0.7912345, 0.9, 0.85},
                                   {"0.002915586427666988", "0.0125", "0.5"});
    ui::MainWindow window;
    ui::StudyView *view = showStudy(window, ws, QStringLiteral("german"));
    QVERIFY(view);
    QTRY_COMPARE(view->selectedStudyId(), study.id);
    QTRY_COMPARE(view->trials()->rowCount(), 3);
    QTableWidget *trials = view->trials();
    int lrColumn = -1;
    for (int c = 0; c < trials->columnCount(); ++c)
      if (trials->horizontalHeaderItem(c)->text() == QStringLiteral("train.lr")) lrColumn = c;
    QVERIFY(lrColumn >= 0);
    const int first = view->trialRow(0);
    QCOMPARE(trials->item(first, lrColumn)->text(), QStringLiteral("0,002916"));
    QCOMPARE(trials->item(first, lrColumn)->toolTip(), QStringLiteral("0.002915586427666988"));  // every digit kept
    QCOMPARE(trials->item(first, ui::StudyView::ValueColumn)->text(), QStringLiteral("0,7912"));
    QCOMPARE(trials->item(first, ui::StudyView::StateColumn)->text(), ui::trialStateText(QStringLiteral("COMPLETE")));
    QCOMPARE(view->studies()->item(0, 3)->text(), QStringLiteral("0,9"));  // the best value
    // Sorted by value as numbers: 0,7912 < 0,85 < 0,9.
    trials->sortItems(ui::StudyView::ValueColumn, Qt::AscendingOrder);
    QCOMPARE(trials->item(0, ui::StudyView::ValueColumn)->text(), QStringLiteral("0,7912"));
    QCOMPARE(trials->item(2, ui::StudyView::ValueColumn)->text(), QStringLiteral("0,9"));
    trials->sortItems(lrColumn, Qt::DescendingOrder);
    QCOMPARE(trials->item(0, lrColumn)->text(), QStringLiteral("0,5"));
    QCOMPARE(trials->item(2, lrColumn)->text(), QStringLiteral("0,002916"));

    // The New Sweep form's bounds in the locale, read back in it or in the sweep file's C form.
    ui::SweepForm form;
    form.setModel(QString::fromLatin1(kModel));
    form.setBaseYaml(QString::fromStdString(baseRun()));
    const int row = form.space()->addParam(QStringLiteral("train.lr"));
    QVERIFY2(form.space()->item(row, ui::SpaceTable::LowColumn)->text().contains(QLatin1Char(',')),
             qPrintable(form.space()->item(row, ui::SpaceTable::LowColumn)->text()));
    QCOMPARE(form.space()->item(row, ui::SpaceTable::AllowedColumn)->text(), QStringLiteral("0 – 1.000"));
    setRow(form.space(), row, "0,0005", "0.25", true, {});
    QStringList problems;
    const sweep::SweepFile read = form.sweep(&problems);
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    QCOMPARE(read.space.params.front().low, 0.0005);
    QCOMPARE(read.space.params.front().high, 0.25);
  }

  void realSweepFromThePage() {
    if (!LiveStudio::canSweep()) QSKIP("build torchwright and torchwright-worker for the real sweep");
    LiveStudio studio;
    QVERIFY(studio.window.openWorkspace(studio.ws.dir));
    ui::MainWindow &window = studio.window;
    ui::SweepsPage *page = startSweep(window, LiveStudio::cli(), "real", 2, 3, {"model.fc1.out_features"});
    QTRY_VERIFY_WITH_TIMEOUT(page->tabs()->currentWidget() == page->studies(), 60000);
    ui::StudyView *view = page->studies();
    QTRY_VERIFY_WITH_TIMEOUT(view->selectedStudyId() != 0, 20000);
    QTRY_COMPARE_WITH_TIMEOUT(view->trials()->rowCount(), 3, 240000);
    auto finished = [view] {
      for (int r = 0; r < view->trials()->rowCount(); ++r)
        if (view->trials()->item(r, ui::StudyView::StateColumn)->text() != ui::trialStateText("COMPLETE")) return false;
      return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(finished(), 240000);
    QTRY_COMPARE_WITH_TIMEOUT(view->plots()->history()->drawnPoints().size(), 3, 20000);
    // The driver spent the budget and let the study go: finished, nothing to resume, and the
    // line naming its pid gone.
    QTRY_COMPARE_WITH_TIMEOUT(view->studies()->item(0, 1)->text(), ui::studyPhaseText(ui::StudyPhase::Finished), 60000);
    QVERIFY(!view->resumeButton()->isEnabled());
    QTRY_VERIFY2(!page->statusText().contains(QStringLiteral("pid")), qPrintable(page->statusText()));
    saveShot(&window, "studio_sweeps_real.png");
  }

  // Stop on a live study: the driver starts no new trial, stops the running one after a
  // checkpoint and lets the study go; nothing is left RUNNING.
  void stopEndsALiveSweep() {
    if (!LiveStudio::canSweep()) QSKIP("build torchwright and torchwright-worker for the real sweep");
    LiveStudio studio;
    QVERIFY(studio.window.openWorkspace(studio.ws.dir));
    tw::test::Workspace &ws = studio.ws;
    // 5,000 epochs: minutes a trial, so the Stop comes long before any ends.
    ui::SweepsPage *page = startSweep(studio.window, LiveStudio::cli(), "stopped", 5000, 20);
    ui::StudyView *view = page->studies();
    QTRY_VERIFY_WITH_TIMEOUT(view->selectedStudyId() != 0, 60000);
    auto running = [view] {
      for (int r = 0; r < view->trials()->rowCount(); ++r)
        if (view->trials()->item(r, ui::StudyView::StateColumn)->text() == ui::trialStateText("RUNNING")) return true;
      return false;
    };
    QTRY_VERIFY_WITH_TIMEOUT(running(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(view->stopButton()->isEnabled(), 10000);
    QTest::mouseClick(view->stopButton(), Qt::LeftButton);
    QVERIFY(!view->stopButton()->isEnabled());

    auto idle = [&ws] {
      const auto study = ws.store->findStudy("stopped");
      return study && study->status == "IDLE";
    };
    QTRY_VERIFY_WITH_TIMEOUT(idle(), 60000);
    const auto study = ws.store->findStudy("stopped");
    const auto trials = ws.store->trials(study->id);
    QVERIFY(!trials.empty() && trials.size() < 20);
    for (const auto &t : trials) {
      QVERIFY2(t.state == "FAILED", t.state.c_str());
      QVERIFY2(QString::fromStdString(t.message).contains("stopped with the sweep"), t.message.c_str());
      QCOMPARE(ws.store->run(t.runId)->status, tracking::RunStatus::Killed);
    }
    QVERIFY(!study->stopRequested);  // cleared with the study's release
  }
};

QTEST_MAIN(TestStudioSweeps)
#include "test_studio_sweeps.moc"
