// `torchwright pack` and `torchwright data bench` end to end: pack's usage and refusals, shards that Python's tarfile and NumPy
// read as WebDataset's layout says, and a run trained from a set packed from the Fashion-MNIST
// IDX files that scores exactly what the same run scores on the IDX files (same seed, same order).

#include "cli_runner.h"

#include "tracking/store.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const char *kRun = R"(model:
  name: tiny
  nodes:
    - {id: image, op: Input, shape: [1, 28, 28]}
    - {id: flat, op: Flatten}
    - {id: hidden, op: Linear, out_features: 32}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 10}
data: {dataset: %1, path: '%2', train_limit: 1200, test_limit: 300, batch_size: 64}
train: {optimizer: adam, lr: 0.003, epochs: 2, seed: 7, threads: 1}
tracking: {experiment: pack, run_name: %3}
)";

QString write(const QString &path, const QString &text) {
  QFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return {};
  file.write(text.toUtf8());
  return path;
}

std::map<std::string, double> finalMetrics(const QString &workspace, const std::string &run) {
  auto store = tw::tracking::Store::open((workspace + "/tracking.db").toStdString());
  std::map<std::string, double> out;
  for (const auto &m : store->latestMetrics(store->findRun(run)->id)) out[m.key] = m.value;
  return out;
}

}  // namespace

class TestCliPack : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private Q_SLOTS:
  void usageAndRefusals() {
    QCOMPARE(runCli({"pack", "only-one"}).exitCode, 2);
    const CliResult generated = runCli({"pack", "spirals", m_dir.filePath("x")});
    QCOMPARE(generated.exitCode, 1);
    QVERIFY2(generated.err.contains("spirals: no such file or folder"), qPrintable(generated.err));
    const CliResult csv = runCli({"pack", write(m_dir.filePath("t.csv"), "a,b\n1,2\n"), m_dir.filePath("y")});
    QCOMPARE(csv.exitCode, 1);
    QVERIFY2(csv.err.contains("data.target"), qPrintable(csv.err));
    QVERIFY(!QFile::exists(m_dir.filePath("y/manifest.json")));
  }

  // Every example one key with .npy, .cls and .json members, adjacent; the sidecar index holds
  // each key's first header offset; the manifest's SHA-256 is the file's.
  void pythonReadsTheShards() {
    const QString out = m_dir.filePath("py");
    const CliResult packed = runCli({"pack", "fashion-mnist", out, "--set", "data.train_limit=300", "--set",
                                     "data.test_limit=100", "--shard-mb", "1", "--json"});
    QVERIFY2(packed.exitCode == 0, qPrintable(packed.all()));
    const QJsonObject splits = QJsonDocument::fromJson(packed.out.toUtf8()).object()["splits"].toObject();
    QCOMPARE(splits["train"].toObject()["examples"].toInt(), 300);
    QCOMPARE(splits["test"].toObject()["examples"].toInt(), 100);
    QVERIFY(splits["train"].toObject()["shards"].toInt() >= 1);

    const char *script = R"(
import hashlib, io, json, sys, tarfile
import numpy as np
root = sys.argv[1]
manifest = json.load(open(root + "/manifest.json"))
seen = 0
for shard in manifest["splits"]["train"]["shards"]:
    path = root + "/" + shard["file"]
    assert hashlib.sha256(open(path, "rb").read()).hexdigest() == shard["sha256"], "sha256"
    tar = tarfile.open(path)
    firsts, keys, samples = [], [], {}
    for m in tar.getmembers():
        key, ext = m.name.split(".", 1)
        if not keys or keys[-1] != key:
            keys.append(key); firsts.append(m.offset)
        samples.setdefault(key, {})[ext] = tar.extractfile(m).read()
    assert list(np.fromfile(root + "/" + shard["index"], "<u8")) == firsts, "index"
    for key in keys:
        s = samples[key]
        image = np.load(io.BytesIO(s["npy"]))
        assert image.shape == (1, 28, 28) and image.dtype == np.uint8, image.shape
        assert 0 <= int(s["cls"]) < 10
        assert json.loads(s["json"])["index"] == seen
        seen += 1
print(seen, manifest["class_names"][0])
)";
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"), {"-c", script, out});
    // The peer is part of the test tools, not something this machine may lack: without it the
    // check fails, as the export and import tests' do.
    QVERIFY2(python.waitForStarted(10000), "no /usr/bin/python3: run packaging/install-test-tools.sh");
    QVERIFY(python.waitForFinished(60000));
    const QString said = QString::fromUtf8(python.readAllStandardOutput() + python.readAllStandardError());
    QVERIFY2(python.exitCode() == 0, qPrintable(said));
    QCOMPARE(said.trimmed(), QStringLiteral("300 T-shirt/top"));
  }

  // `data bench`: one pass per worker count asked for, each over every example the run reads.
  void dataBenchReportsEachWorkerCount() {
    const QString run = write(m_dir.filePath("bench.run.yaml"),
                              QString::fromLatin1(kRun).arg("fashion-mnist", TW_FASHION_MNIST_DIR, "bench"));
    const CliResult bench = runCli({"data", "bench", run, "--workers", "1,2,auto", "--json"});
    QVERIFY2(bench.exitCode == 0, qPrintable(bench.all()));
    const QJsonArray passes = QJsonDocument::fromJson(bench.out.toUtf8()).object()["passes"].toArray();
    QCOMPARE(passes.size(), 3);
    QCOMPARE(passes[0].toObject()["workers"].toInt(), 1);
    QCOMPARE(passes[1].toObject()["workers"].toInt(), 2);
    QVERIFY(passes[2].toObject()["auto"].toBool());
    for (const QJsonValue &pass : passes) {
      QCOMPARE(pass.toObject()["examples"].toInt(), 1500);
      QVERIFY(pass.toObject()["examples_per_s"].toDouble() > 0.0);
    }
    const CliResult table = runCli({"data", "bench", run, "--workers", "1"});
    QVERIFY2(table.exitCode == 0 && table.out.contains("examples/s"), qPrintable(table.all()));
    QCOMPARE(runCli({"data", "bench", run, "--workers", "zero"}).exitCode, 2);
    QCOMPARE(runCli({"data", "bench"}).exitCode, 2);
  }

  // A CSV table past data.memory_mb end to end: trained, benchmarked and packed from the file a
  // batch at a time, the data note saying so; the run scores exactly what it scores read whole, and
  // the packed shards are the same bytes.
  void aCsvPastTheBudgetTrainsBenchesAndPacks() {
    QString table = "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,label\n";
    for (int r = 0; r < 20000; ++r) {
      int sum = 0;
      for (int j = 0; j < 16; ++j) {
        const int v = (r * 37 + j * 11 + r / 7) % 19 - 9;
        sum += j % 2 ? v : -v;
        table += QString::number(v) + QStringLiteral(".5,");
      }
      table += sum > 0 ? QStringLiteral("pos\n") : QStringLiteral("neg\n");
    }
    const QString csv = write(m_dir.filePath("big.csv"), table);  // 20,000 x 16 floats: 1.3 MiB
    const QString ws = m_dir.filePath("tws");
    const auto run = [&](const QString &name, int memoryMb) {
      return write(m_dir.filePath(name + ".run.yaml"), QStringLiteral(R"(model:
  name: table
  nodes:
    - {id: x, op: Input, shape: [16]}
    - {id: h, op: Linear, out_features: 8}
    - {id: r, op: ReLU}
    - {id: out, op: Linear, out_features: 2}
data: {dataset: csv, path: '%1', target: label, memory_mb: %2, batch_size: 500}
train: {optimizer: adam, lr: 0.01, epochs: 2, seed: 3, threads: 1}
tracking: {experiment: table, run_name: %3}
)").arg(csv).arg(memoryMb).arg(name));
    };
    const QString streamedRun = run("streamed", 1), wholeRun = run("whole", 0);
    const CliResult streamed = runCli({"train", streamedRun, "--workspace", ws});
    QVERIFY2(streamed.exitCode == 0, qPrintable(streamed.all()));
    QVERIFY2(streamed.all().contains("20000 rows streamed from the file and parsed per batch"), qPrintable(streamed.all()));
    const CliResult whole = runCli({"train", wholeRun, "--workspace", ws});
    QVERIFY2(whole.exitCode == 0 && whole.all().contains("20000 rows read into memory"), qPrintable(whole.all()));
    const auto a = finalMetrics(ws, "streamed"), b = finalMetrics(ws, "whole");
    for (const char *key : {"val/accuracy", "val/loss", "test/accuracy"}) {
      QVERIFY2(a.count(key) && b.count(key), key);
      QCOMPARE(a.at(key), b.at(key));
    }
    QVERIFY(a.at("test/accuracy") > 0.8);

    const CliResult bench = runCli({"data", "bench", streamedRun, "--workers", "1,2", "--json"});
    QVERIFY2(bench.exitCode == 0, qPrintable(bench.all()));
    const QJsonArray passes = QJsonDocument::fromJson(bench.out.toUtf8()).object()["passes"].toArray();
    QCOMPARE(passes.size(), 2);
    for (const QJsonValue &pass : passes) {
      QVERIFY(pass.toObject()["streamed"].toBool());
      QCOMPARE(pass.toObject()["examples"].toInt(), 14000);  // the training rows, as an epoch reads them
    }

    const QString fromFile = m_dir.filePath("csv-streamed"), fromMemory = m_dir.filePath("csv-whole");
    for (const auto &[out, mb] : {std::pair{fromFile, 1}, std::pair{fromMemory, 0}}) {
      const CliResult packed = runCli({"pack", csv, out, "--set", "data.target=label", "--set",
                                       "data.memory_mb=" + QString::number(mb)});
      QVERIFY2(packed.exitCode == 0, qPrintable(packed.all()));
    }
    QFile x(fromFile + "/train-000000.tar"), y(fromMemory + "/train-000000.tar");
    QVERIFY(x.open(QIODevice::ReadOnly) && y.open(QIODevice::ReadOnly));
    QVERIFY(x.size() > 20000 * 64);
    QVERIFY(x.readAll() == y.readAll());
  }

  void trainsExactlyAsTheIdxFiles() {
    const QString shards = m_dir.filePath("fm"), ws = m_dir.filePath("ws");
    const CliResult packed = runCli({"pack", "fashion-mnist", shards, "--set", "data.train_limit=1200", "--set",
                                     "data.test_limit=300"});
    QVERIFY2(packed.exitCode == 0, qPrintable(packed.all()));
    const QString idxRun = write(m_dir.filePath("idx.run.yaml"),
                                 QString::fromLatin1(kRun).arg("fashion-mnist", TW_FASHION_MNIST_DIR, "from-idx"));
    const QString shardRun = write(m_dir.filePath("shards.run.yaml"), QString::fromLatin1(kRun).arg("shards", shards, "from-shards"));
    for (const QString &run : {idxRun, shardRun}) {
      const CliResult trained = runCli({"train", run, "--workspace", ws});
      QVERIFY2(trained.exitCode == 0, qPrintable(trained.all()));
    }
    // The IDX files past data.memory_mb as floats: held as 8-bit pixels, the same run bit for bit.
    const QString pixelRun = write(m_dir.filePath("pixels.run.yaml"),
                                   QString::fromLatin1(kRun).arg("fashion-mnist", TW_FASHION_MNIST_DIR, "from-pixels"));
    const CliResult pixels = runCli({"train", pixelRun, "--workspace", ws, "--set", "data.memory_mb=1"});
    QVERIFY2(pixels.exitCode == 0 && pixels.all().contains("1500 images held as 8-bit pixels and made floats per batch"),
             qPrintable(pixels.all()));
    const auto a = finalMetrics(ws, "from-idx"), b = finalMetrics(ws, "from-shards"), c = finalMetrics(ws, "from-pixels");
    for (const char *key : {"val/accuracy", "val/loss", "test/accuracy"}) {
      QVERIFY2(a.count(key) && b.count(key) && c.count(key), key);
      QCOMPARE(b.at(key), a.at(key));
      QCOMPARE(c.at(key), a.at(key));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliPack)
#include "test_cli_pack.moc"
