// The Runs page's filter on a run the real CLI trained and recorded: an example in README.md's
// manner finds the run, each of its terms holding where its opposite does not, which only names
// that a run records can do; and README.md gives that example.

#include "studio_fixture.h"

#include "ui/runs/run_query.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

namespace {

// Adam at lr 1e-3 on three well separated blobs: above 0.9 validation accuracy in a few seconds.
const char *kRunFile = R"(model:
  name: blobs_mlp
  nodes:
    - {id: x, op: Input, shape: [2]}
    - {id: hidden, op: Linear, out_features: 16}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 3}
data: {dataset: blobs, samples: 600, classes: 3, batch_size: 32}
train: {optimizer: adam, lr: 0.001, epochs: 15, seed: 3, threads: 1}
tracking: {experiment: readme, run_name: blobs}
)";

// The filter README.md's Runs paragraph gives as its example, spaces as one.
QString readmeExample() {
  QFile readme(QStringLiteral(TW_SOURCE_DIR "/README.md"));
  if (!readme.open(QIODevice::ReadOnly)) return {};
  static const QRegularExpression example(QStringLiteral("`(val/accuracy>[^`]*)`"));
  return example.match(QString::fromUtf8(readme.readAll())).captured(1).simplified();
}

}  // namespace

class TestRunQueryRealRun : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void readmeFilterFindsARealRun() {
    QTemporaryDir dir;
    const QString workspace = dir.path() + QStringLiteral("/ws");
    const QString runFile = dir.path() + QStringLiteral("/blobs.run.yaml");
    {
      QFile file(runFile);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write(kRunFile);
    }
    QProcess cli;
    cli.start(QStringLiteral(TW_BIN_DIR "/torchwright"), {"train", runFile, "--workspace", workspace});
    QVERIFY(cli.waitForFinished(240000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());

    auto store = tw::tracking::Store::open(tw::tracking::workspaceStore(workspace.toStdString()));
    const auto record = store->findRun("blobs");
    QVERIFY(record.has_value());
    tw::ui::RunSnapshot run;  // what the poller hands the Runs page
    run.run = *record;
    run.latest = store->latestMetrics(record->id);
    run.params = store->params(record->id);
    run.tags = store->tags(record->id);
    const tw::tracking::LatestMetric *accuracy = run.latestMetric("val/accuracy");
    QVERIFY(accuracy);
    QVERIFY2(accuracy->value > 0.9, qPrintable(QString::number(accuracy->value)));

    auto matches = [&](const QString &text) { return tw::ui::RunQuery::parse(text).matches(run); };
    // A metric, a parameter by its last part and one by its full key.
    const QString example = QStringLiteral("val/accuracy>0.9 lr<=1e-3 train.optimizer=adam");
    QVERIFY(matches(example));
    // A key the run lacks never matches, so a term and its opposite both failing would mean a
    // wrong name: each must resolve to the run's own value.
    const QStringList terms = example.split(QLatin1Char(' '));
    const QStringList opposites = {QStringLiteral("val/accuracy<=0.9"), QStringLiteral("lr>1e-3"),
                                   QStringLiteral("train.optimizer!=adam")};
    for (int i = 0; i < terms.size(); ++i) {
      QVERIFY2(matches(terms[i]), qPrintable(terms[i]));
      QVERIFY2(!matches(opposites[i]), qPrintable(opposites[i]));
    }

    // README.md says the same.
    const QString readme = readmeExample();
    QVERIFY2(!readme.isEmpty(), "README.md gives no filter example starting with val/accuracy>");
    QCOMPARE(readme, example);
  }
};

QTEST_GUILESS_MAIN(TestRunQueryRealRun)
#include "test_run_query_real_run.moc"
#include "tracking/workspace_store.h"
