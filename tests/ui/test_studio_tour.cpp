// The tour the README and the user guide show: one workspace filled by the real CLI (three
// Fashion-MNIST runs, a study, an exported and registered model), every page of Studio at
// 1280x800 in English and in German. Each page must fit at that size in both languages (German
// words are longer), and its screenshot is kept as build/screenshots/tour_<lang>_<page>.png;
// packaging/screenshots.sh copies them to docs/studio/ and docs/studio/de/.

#include "layout_check.h"
#include "studio_fixture.h"

#include "core/data/dataset_presence.h"
#include "ui/compare/compare_page.h"
#include "ui/design/design_page.h"
#include "ui/i18n/translations.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/launch_page.h"
#include "ui/main_window.h"
#include "ui/models/models_page.h"
#include "ui/runs/run_detail_view.h"
#include "ui/runs/runs_page.h"
#include "ui/runs/runs_table_model.h"
#include "ui/sweeps/study_view.h"
#include "ui/sweeps/sweeps_page.h"
#include "ui/workspace/workspace_session.h"

#include <QImage>
#include <QPushButton>
#include <QProcess>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

namespace {

const QSize kDocsSize(1280, 800);
const QString kQmDir = QStringLiteral(TW_BINARY_DIR "/translations");
const QString kExamples = QStringLiteral(TW_SOURCE_DIR "/resources/examples");

// The tour's runs: the bundled MLP on a slice of Fashion-MNIST, small enough for CI.
const char *kBaseRun = R"(model: %1/fashion_mlp.model.yaml
data: {dataset: fashion-mnist, train_limit: 3000, test_limit: 500, val_fraction: 0.1, batch_size: 64, normalize: true}
train: {optimizer: adam, lr: 0.001, epochs: 4, seed: 42, threads: 1}
tracking: {experiment: fashion-mnist-tour}
)";

const char *kSweep = R"(base: base.run.yaml
objective: {metric: val/accuracy, direction: maximize}
space:
  train.lr: {type: float, low: 1.0e-4, high: 0.03, log: true}
  data.batch_size: {type: int, low: 32, high: 128, log: true}
sampler: {type: tpe, seed: 1}
budget: {trials: 6}
parallel: 1
)";

bool cli(const QStringList &args, QString *said) {
  QProcess p;
  p.setProcessChannelMode(QProcess::MergedChannels);
  p.start(QStringLiteral(TW_BIN_DIR "/torchwright"), args);
  const bool ok = p.waitForFinished(300000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
  *said = args.join(QLatin1Char(' ')) + QStringLiteral(":\n") + QString::fromUtf8(p.readAll());
  return ok;
}

bool write(const QString &path, const QByteArray &text) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

// Whether the picture shows more than one colour in most of its rows: a page drawn, not a blank.
bool looksDrawn(const QImage &image) {
  int varied = 0;
  for (int y = 0; y < image.height(); y += 8) {
    const QRgb first = image.pixel(0, y);
    for (int x = 0; x < image.width(); x += 4)
      if (image.pixel(x, y) != first) {
        ++varied;
        break;
      }
  }
  return varied * 8 > image.height() / 2;
}

}  // namespace

class TestStudioTour : public QObject {
  Q_OBJECT

  std::unique_ptr<QTemporaryDir> m_settings;
  std::unique_ptr<tw::test::Workspace> m_ws;
  std::vector<int64_t> m_runs;
  int64_t m_study = 0;

 private Q_SLOTS:
  void initTestCase() {
    if (!tw::data::datasetInstalled("fashion-mnist"))
      QSKIP("the tour trains on Fashion-MNIST: sudo apt-get install dataset-fashion-mnist");
    m_ws = std::make_unique<tw::test::Workspace>();
    const QString tmp = m_ws->tmp.path();
    const QString base = tmp + QStringLiteral("/base.run.yaml");
    QVERIFY(write(base, QString::fromLatin1(kBaseRun).arg(kExamples).toUtf8()));
    QVERIFY(write(tmp + QStringLiteral("/tour.sweep.yaml"), kSweep));
    QString said;
    const QStringList names{QStringLiteral("adam-lr1e-3"), QStringLiteral("adam-lr3e-3"), QStringLiteral("adam-lr1e-2")};
    const QStringList rates{QStringLiteral("0.001"), QStringLiteral("0.003"), QStringLiteral("0.01")};
    for (int i = 0; i < names.size(); ++i)
      QVERIFY2(cli({"train", base, "--set", "train.lr=" + rates[i], "--set", "tracking.run_name=" + names[i],
                    "--workspace", m_ws->dir},
                   &said),
               qPrintable(said));
    QVERIFY2(cli({"sweep", tmp + QStringLiteral("/tour.sweep.yaml"), "--workspace", m_ws->dir}, &said), qPrintable(said));
    const QString exported = tmp + QStringLiteral("/fashion-mlp.pt");
    QVERIFY2(cli({"export", names[1], "--format", "torchscript", "--out", exported, "--workspace", m_ws->dir}, &said),
             qPrintable(said));
    QVERIFY2(cli({"models", "register", "fashion-mlp", exported, "--description", "Fashion-MNIST MLP", "--workspace",
                  m_ws->dir},
                 &said),
             qPrintable(said));
    QVERIFY2(cli({"models", "promote", "fashion-mlp", "1", "--stage", "production", "--workspace", m_ws->dir}, &said),
             qPrintable(said));
    for (const QString &name : names) m_runs.push_back(m_ws->store->findRun(name.toStdString())->id);
    const auto studies = m_ws->store->listStudies();
    QCOMPARE(int(studies.size()), 1);
    m_study = studies.front().id;
  }

  void cleanup() {
    QString error;
    tw::ui::TranslationResult result;
    tw::ui::installTranslations(QStringLiteral("en"), {kQmDir}, &result, &error);
    m_settings.reset();
  }

  void cleanupTestCase() { m_ws.reset(); }

  void pageAtDocsSize_data() {
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("page");
    for (const char *language : {"en", "de"})
      for (const char *page : {"design", "launch", "runs", "compare", "sweeps", "models"})
        QTest::addRow("%s %s", language, page) << QString::fromLatin1(language) << QString::fromLatin1(page);
  }

  void pageAtDocsSize() {
    QFETCH(QString, language);
    QFETCH(QString, page);
    m_settings = tw::test::freshSettings();
    QVERIFY(m_settings);
    QString error;
    tw::ui::TranslationResult result;
    QVERIFY2(tw::ui::installTranslations(language, {kQmDir}, &result, &error), qPrintable(error));

    tw::ui::MainWindow window;
    window.resize(kDocsSize);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openWorkspace(m_ws->dir));
    QTRY_VERIFY_WITH_TIMEOUT(window.runsPage()->model()->rowCount() >= int(m_runs.size()), 10000);

    QWidget *shown = nullptr;
    if (page == QLatin1String("design")) {
      shown = window.designPage();
      QVERIFY2(window.designPage()->openFile(kExamples + QStringLiteral("/fashion_cnn.model.yaml"), &error),
               qPrintable(error));
    } else if (page == QLatin1String("launch")) {
      shown = window.launchPage();
      window.pages()->setCurrentWidget(shown);
      QSignalSpy previewed(window.launchPage()->dataPreview(), &tw::ui::DataPreview::previewed);
      QTest::mouseClick(window.launchPage()->previewButton(), Qt::LeftButton);
      QVERIFY(previewed.wait(30000));
    } else if (page == QLatin1String("runs")) {
      shown = window.runsPage();
      window.runsPage()->selectRun(m_runs[1]);
      QTRY_COMPARE(window.runsPage()->selectedRunId(), m_runs[1]);
    } else if (page == QLatin1String("compare")) {
      shown = window.comparePage();
      window.comparePage()->compareRuns(QString::fromStdString(m_ws->dbPath()), m_runs);
    } else if (page == QLatin1String("sweeps")) {
      shown = window.sweepsPage();
      tw::ui::SweepsPage *sweeps = window.sweepsPage();
      sweeps->tabs()->setCurrentWidget(sweeps->studies());
      sweeps->studies()->selectStudy(m_study);
      QTRY_COMPARE(sweeps->studies()->selectedStudyId(), m_study);
    } else if (page == QLatin1String("models")) {
      shown = window.modelsPage();
      window.pages()->setCurrentWidget(shown);
      QTRY_VERIFY_WITH_TIMEOUT(window.modelsPage()->versions()->rowCount() > 0, 10000);
      window.modelsPage()->selectVersion(QStringLiteral("fashion-mlp"), 1);
      QTRY_VERIFY(window.modelsPage()->selectedEntry());
    }
    QVERIFY(shown);
    window.pages()->setCurrentWidget(shown);
    // Two polls: what the page reads from the workspace is on screen and laid out.
    QVERIFY(tw::test::waitForSignals(window.session(), &tw::ui::WorkspaceSession::polled, 2));
    tw::test::settleEvents();  // the charts laid out for their last series, the page for its rows

    QStringList problems = tw::test::layoutProblems(&window);
    if (window.size() != kDocsSize)
      problems << QStringLiteral("the window is %1x%2").arg(window.width()).arg(window.height());
    const QImage shot = window.grab().toImage();
    QCOMPARE(shot.size() / shot.devicePixelRatio(), kDocsSize);
    QVERIFY(looksDrawn(shot));
    QVERIFY(shot.save(tw::test::screenshotPath(QStringLiteral("tour_%1_%2.png").arg(language, page))));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
  }
};

QTEST_MAIN(TestStudioTour)
#include "test_studio_tour.moc"
