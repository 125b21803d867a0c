// `torchwright pack` end to end: its usage and refusals, shards that Python's tarfile and NumPy
// read as WebDataset's layout says, and a run trained from a set packed from the Fashion-MNIST
// IDX files that scores exactly what the same run scores on the IDX files (same seed, same order).

#include "cli_runner.h"

#include "tracking/store.h"

#include <QFile>
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
    if (!python.waitForStarted(10000)) QSKIP("no /usr/bin/python3 (packaging/install-test-tools.sh installs it)");
    QVERIFY(python.waitForFinished(60000));
    const QString said = QString::fromUtf8(python.readAllStandardOutput() + python.readAllStandardError());
    QVERIFY2(python.exitCode() == 0, qPrintable(said));
    QCOMPARE(said.trimmed(), QStringLiteral("300 T-shirt/top"));
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
    const auto a = finalMetrics(ws, "from-idx"), b = finalMetrics(ws, "from-shards");
    for (const char *key : {"val/accuracy", "val/loss", "test/accuracy"}) {
      QVERIFY2(a.count(key) && b.count(key), key);
      QCOMPARE(b.at(key), a.at(key));
    }
  }
};

QTEST_GUILESS_MAIN(TestCliPack)
#include "test_cli_pack.moc"
