// What a person reads when a run trains or fails: a failure inside LibTorch is said once, without
// LibTorch's C++ backtrace, on the terminal and in the run's FAILED reason (the backtrace stays in
// artifacts/worker.log); a run without a validation set says so instead of printing 0.00%; the
// epoch lines and the summary round the same figures the same way.

#include "cli_runner.h"

#include "tracking/store.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using tw::tracking::RunStatus;

namespace {

bool writeFile(const QString &path, const QByteArray &text) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
}

// A small spirals classifier; `data` adds to the data section.
QByteArray spiralsRun(const QString &data) {
  return QStringLiteral("model:\n"
                        "  nodes:\n"
                        "    - {id: x, op: Input, shape: [2]}\n"
                        "    - {id: h, op: Linear, out_features: 16}\n"
                        "    - {id: a, op: ReLU}\n"
                        "    - {id: y, op: Linear, out_features: 3}\n"
                        "data: {dataset: spirals, samples: 310, classes: 3, batch_size: 32, %1}\n"
                        "train: {optimizer: adam, lr: 0.01, epochs: 6, seed: 3, threads: 1}\n")
      .arg(data)
      .toUtf8();
}

}  // namespace

class TestCliMessages : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir m_dir;
  QString workspace() const { return m_dir.path() + "/ws"; }
  std::unique_ptr<tw::tracking::Store> store() const {
    return tw::tracking::Store::open((workspace() + "/tracking.db").toStdString());
  }

 private Q_SLOTS:
  void libtorchFailureIsSaidOnceWithoutBacktrace() {
    // Every token read is inside the Embedding's 10 rows, so the data check before training passes;
    // the model doubles them (Add keeps int64) and index 18 reaches the table: only LibTorch's
    // index_select notices.
    QByteArray csv = "a,b,label\n";
    for (int i = 0; i < 40; ++i) csv += QByteArray::number(i % 5) + "," + QByteArray::number(i % 10) + "," +
                                        QByteArray::number(i % 2) + "\n";
    QVERIFY(writeFile(m_dir.path() + "/tokens.csv", csv));
    QVERIFY(writeFile(m_dir.path() + "/tokens.run.yaml",
                      "model:\n"
                      "  nodes:\n"
                      "    - {id: tokens, op: Input, shape: [2], dtype: int64}\n"
                      "    - {id: doubled, op: Add, inputs: [tokens, tokens]}\n"
                      "    - {id: embed, op: Embedding, num_embeddings: 10, embedding_dim: 4}\n"
                      "    - {id: flat, op: Flatten}\n"
                      "    - {id: out, op: Linear, out_features: 2}\n"
                      "data: {dataset: csv, path: tokens.csv, target: label, normalize: false, batch_size: 8}\n"
                      "train: {epochs: 1, threads: 1}\n"
                      "tracking: {run_name: tokens}\n"));
    const auto r = runCli({"train", m_dir.path() + "/tokens.run.yaml", "--workspace", workspace()});
    QVERIFY2(r.exitCode == 1, qPrintable(r.all()));
    for (const char *backtrace : {"Exception raised from", "frame #"})
      QVERIFY2(!r.all().contains(backtrace), qPrintable(r.all()));

    const auto run = store()->findRun("tokens");
    QVERIFY(run.has_value());
    QCOMPARE(run->status, RunStatus::Failed);
    const QString reason = QString::fromStdString(run->statusMessage);
    QVERIFY2(!reason.isEmpty() && !reason.contains("Exception raised from") && !reason.contains("frame #"),
             qPrintable(reason));
    QVERIFY2(!reason.contains('\n'), qPrintable(reason));
    // The reason reaches the terminal exactly once (it used to come three times: the worker's log
    // line, the worker's report and the launcher's).
    QVERIFY2(r.err.count(reason) == 1, qPrintable(QString("%1 times: %2").arg(r.err.count(reason)).arg(r.err)));
    QCOMPARE(r.err.count("failed"), 1);
    // The full text, LibTorch's backtrace and all, is in the worker's log for whoever debugs it.
    QFile log(QString::fromStdString(run->runDir) + "/artifacts/worker.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    const QByteArray logged = log.readAll();
    QVERIFY2(logged.contains(reason.toUtf8()), "the failure is missing from worker.log");
    QVERIFY2(logged.contains("Exception raised from"), logged.constData());
  }

  void withoutValidationSetSaysSo() {
    QVERIFY(writeFile(m_dir.path() + "/noval.run.yaml", spiralsRun("val_fraction: 0")));
    const auto r = runCli({"train", m_dir.path() + "/noval.run.yaml", "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QVERIFY2(r.out.contains(QRegularExpression("^epoch 1/6  train loss [0-9.]+  no validation set  ",
                                               QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("^  validation +no validation set$", QRegularExpression::MultilineOption)),
             qPrintable(r.out));
    QVERIFY2(!r.out.contains("val acc") && !r.out.contains("val loss"), qPrintable(r.out));
  }

  void epochLinesAndSummaryRoundAlike() {
    QVERIFY(writeFile(m_dir.path() + "/val.run.yaml", spiralsRun("val_fraction: 0.1") +
                                                          "tracking: {run_name: rounding}\n"));
    const auto r = runCli({"train", m_dir.path() + "/val.run.yaml", "--workspace", workspace()});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    const auto db = store();
    const auto run = db->findRun("rounding");
    QVERIFY(run.has_value());
    const auto accuracy = db->metricPoints(run->id, "val/accuracy");
    const auto loss = db->metricPoints(run->id, "val/loss");
    QCOMPARE(accuracy.size(), size_t(6));
    // Every epoch line prints the recorded figures with the four significant digits `runs list`
    // and Studio show (core/config/number_text.h), an accuracy as a percentage of the same digits.
    QRegularExpression line("^epoch (\\d)/6  train loss [0-9.]+  val loss ([0-9.]+)  val acc ([0-9.]+)%  ",
                            QRegularExpression::MultilineOption);
    QString lastAccuracy, lastLoss;
    int lines = 0;
    for (auto it = line.globalMatch(r.out); it.hasNext(); ++lines) {
      const auto m = it.next();
      const size_t epoch = m.captured(1).toULong() - 1;
      QCOMPARE(m.captured(3), QString::number(100.0 * accuracy[epoch].value, 'g', 4));
      QCOMPARE(m.captured(2), QString::number(loss[epoch].value, 'g', 4));
      lastAccuracy = m.captured(3);
      lastLoss = m.captured(2);
    }
    QCOMPARE(lines, 6);
    // The summary repeats the last epoch's validation figures digit for digit.
    QVERIFY2(r.out.contains(QRegularExpression("^  validation loss +" + QRegularExpression::escape(lastLoss) +
                                                   "  accuracy " + QRegularExpression::escape(lastAccuracy) + "%$",
                                               QRegularExpression::MultilineOption)),
             qPrintable(r.out));
  }
};

QTEST_GUILESS_MAIN(TestCliMessages)
#include "test_cli_messages.moc"
