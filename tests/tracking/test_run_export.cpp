// A recorded run exported for TensorBoard and MLflow, read back the way their own tools read
// them: the event file by a reader of TensorBoard's record framing written here from the format
// (its own bit-by-bit CRC-32C, not the exporter's table, and its own protocol-buffer decoding),
// the MLflow store as mlflow's FileStore walks it (experiment meta.yaml by name, the run's
// meta.yaml, metrics/params/tags files, nested where a key holds '/').

#include "tracking_fixture.h"

#include "tracking/run_export.h"
#include "tracking/tensorboard_events.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QtTest>

#include <yaml-cpp/yaml.h>

#include <cstring>
#include <map>
#include <vector>

using namespace tracking_test;
using tw::tracking::ExportFormat;

namespace {

uint32_t crc32cBitwise(const std::string &bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
  }
  return ~c;
}
uint32_t masked(const std::string &bytes) {
  const uint32_t c = crc32cBitwise(bytes);
  return ((c >> 15) | (c << 17)) + 0xA282EAD8u;
}

struct Scalar {
  std::string tag;
  int64_t step = 0;
  float value = 0.0f;
  double wallTime = 0.0;
};
struct EventFile {
  std::string fileVersion;
  std::vector<Scalar> scalars;
  QString problem;  // the first framing or CRC error
};

// Protocol-buffer fields: (number, wire type, varint value or bytes).
struct Field {
  int number = 0;
  int type = 0;
  uint64_t varint = 0;
  std::string bytes;
};
std::vector<Field> fields(const std::string &message) {
  std::vector<Field> out;
  size_t i = 0;
  auto readVarint = [&](uint64_t &v) {
    v = 0;
    for (int shift = 0; i < message.size(); shift += 7) {
      const auto b = static_cast<unsigned char>(message[i++]);
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  while (i < message.size()) {
    uint64_t header = 0;
    if (!readVarint(header)) break;
    Field f;
    f.number = int(header >> 3);
    f.type = int(header & 7);
    if (f.type == 0) readVarint(f.varint);
    else if (f.type == 1) f.bytes = message.substr(i, 8), i += 8;
    else if (f.type == 5) f.bytes = message.substr(i, 4), i += 4;
    else if (f.type == 2) {
      uint64_t n = 0;
      readVarint(n);
      f.bytes = message.substr(i, n);
      i += n;
    }
    out.push_back(f);
  }
  return out;
}

EventFile readEvents(const QString &path) {
  EventFile file;
  auto fail = [&file](const char *problem) {
    file.problem = problem;
    return file;
  };
  QFile in(path);
  if (!in.open(QIODevice::ReadOnly)) return fail("cannot open");
  const std::string all = in.readAll().toStdString();
  size_t at = 0;
  while (at < all.size()) {
    if (all.size() - at < 12) return fail("truncated header");
    const std::string lengthBytes = all.substr(at, 8);
    uint64_t length = 0;
    uint32_t lengthCrc = 0, dataCrc = 0;
    std::memcpy(&length, lengthBytes.data(), 8);
    std::memcpy(&lengthCrc, all.data() + at + 8, 4);
    if (lengthCrc != masked(lengthBytes)) return fail("length CRC");
    if (all.size() - at - 12 < length + 4) return fail("truncated record");
    const std::string data = all.substr(at + 12, length);
    std::memcpy(&dataCrc, all.data() + at + 12 + length, 4);
    if (dataCrc != masked(data)) return fail("data CRC");
    at += 12 + length + 4;
    Scalar s;
    for (const Field &f : fields(data)) {
      if (f.number == 1 && f.type == 1) std::memcpy(&s.wallTime, f.bytes.data(), 8);
      if (f.number == 2 && f.type == 0) s.step = int64_t(f.varint);
      if (f.number == 3 && f.type == 2) file.fileVersion = f.bytes;
      if (f.number == 5 && f.type == 2)
        for (const Field &value : fields(f.bytes))
          for (const Field &g : fields(value.bytes)) {
            if (g.number == 1 && g.type == 2) s.tag = g.bytes;
            if (g.number == 2 && g.type == 5) std::memcpy(&s.value, g.bytes.data(), 4);
          }
    }
    if (!s.tag.empty()) file.scalars.push_back(s);
  }
  return file;
}

QString readText(const QString &path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestRunExport : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::unique_ptr<tw::tracking::Store> m_store;
  tw::tracking::RunRecord m_run;

 private Q_SLOTS:
  void initTestCase() {
    m_store = tw::tracking::Store::open(m_dir.filePath("tracking.db").toStdString());
    m_run = m_store->createRun(newRun("fashion", "mlp baseline"));
    m_store->setStatus(m_run.id, tw::tracking::RunStatus::Running);
    m_store->setParams(m_run.id, {{"train.lr", "0.001"}, {"train.optimizer", "adam"}});
    m_store->setTag(m_run.id, "weights_sha256", "abc123");
    m_store->setTag(m_run.id, "../../escape", "kept inside");
    std::vector<MetricRow> rows;
    for (int64_t step = 1; step <= 50; ++step) {
      rows.push_back({"train/loss", step, 2.0 / double(step) + 1e-9, 1733570000000 + step * 10});
      if (step % 10 == 0) rows.push_back({"val/accuracy", step, 0.1 + 0.017 * double(step), 1733570000000 + step * 10});
    }
    m_store->writeMetrics(m_run.id, rows);
    m_store->setStatus(m_run.id, tw::tracking::RunStatus::Finished);
    m_run = *m_store->findRun("mlp baseline");
  }

  void tensorBoardEventFileReadsBack() {
    const QString root = m_dir.filePath("tb");
    const std::string where = tw::tracking::exportRun(*m_store, m_run, ExportFormat::TensorBoard, root.toStdString(), false);
    QCOMPARE(QString::fromStdString(where), root + "/mlp_baseline_" + QString::fromStdString(m_run.uuid.substr(0, 8)));
    const QStringList files = QDir(QString::fromStdString(where)).entryList({"events.out.tfevents.*"}, QDir::Files);
    QCOMPARE(files.size(), 1);
    const EventFile events = readEvents(QString::fromStdString(where) + "/" + files[0]);
    QVERIFY2(events.problem.isEmpty(), qPrintable(events.problem));
    QCOMPARE(events.fileVersion, std::string("brain.Event:2"));
    QCOMPARE(events.scalars.size(), size_t(55));
    // Every point of the store, at its step and time, as a float.
    std::map<std::string, std::vector<Scalar>> byTag;
    for (const Scalar &s : events.scalars) byTag[s.tag].push_back(s);
    for (const std::string key : {"train/loss", "val/accuracy"}) {
      const auto points = m_store->metricPoints(m_run.id, key);
      QCOMPARE(byTag[key].size(), points.size());
      for (size_t i = 0; i < points.size(); ++i) {
        QCOMPARE(byTag[key][i].step, points[i].step);
        QCOMPARE(byTag[key][i].value, static_cast<float>(points[i].value));
        QCOMPARE(byTag[key][i].wallTime, double(points[i].timeMs) / 1000.0);
      }
    }
    // Exported again: refused, unless forced (which replaces the file, not adds one).
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, tw::tracking::exportRun(*m_store, m_run, ExportFormat::TensorBoard,
                                                                          root.toStdString(), false));
    tw::tracking::exportRun(*m_store, m_run, ExportFormat::TensorBoard, root.toStdString(), true);
    QCOMPARE(QDir(QString::fromStdString(where)).entryList({"events.out.tfevents.*"}, QDir::Files).size(), 1);
  }

  // The check value every CRC-32C implementation gives for "123456789" (RFC 3720's polynomial),
  // for the exporter's table and this test's bit-by-bit loop alike.
  void crc32cCheckValue() {
    QCOMPARE(tw::tracking::crc32c("123456789", 9), 0xE3069283u);
    QCOMPARE(crc32cBitwise("123456789"), 0xE3069283u);
  }

  // The reader catches what it must: one flipped byte fails a CRC.
  void corruptedRecordFailsTheCrc() {
    const QString dir = m_dir.filePath("tb-corrupt");
    std::string path;
    {
      tw::tracking::TensorBoardWriter events(dir.toStdString(), 1733570000.0);
      events.scalar("a", 1, 0.5, 1733570000.5);
      events.flush();
      path = events.path();
    }
    QVERIFY(readEvents(QString::fromStdString(path)).problem.isEmpty());
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    bytes[bytes.size() - 6] = char(bytes[bytes.size() - 6] ^ 0x01);  // inside the last record's data
    f.seek(0);
    f.write(bytes);
    f.close();
    QCOMPARE(readEvents(QString::fromStdString(path)).problem, QString("data CRC"));
  }

  void mlflowFileStoreReadsBack() {
    const QString root = m_dir.filePath("mlruns");
    const std::string where = tw::tracking::exportRun(*m_store, m_run, ExportFormat::MLflow, root.toStdString(), false);
    // The store's experiments, found as FileStore does: every folder with a meta.yaml.
    std::map<std::string, std::string> experiments;  // name -> id
    for (const QString &id : QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
      const YAML::Node meta = YAML::LoadFile((root + "/" + id + "/meta.yaml").toStdString());
      QCOMPARE(QString::fromStdString(meta["experiment_id"].as<std::string>()), id);
      QCOMPARE(meta["lifecycle_stage"].as<std::string>(), std::string("active"));
      experiments[meta["name"].as<std::string>()] = id.toStdString();
    }
    QCOMPARE(experiments.at("Default"), std::string("0"));
    const std::string experiment = experiments.at("fashion");
    const QString runDir = root + "/" + QString::fromStdString(experiment) + "/" + QString::fromStdString(m_run.uuid);
    QCOMPARE(QString::fromStdString(where), runDir);
    const YAML::Node meta = YAML::LoadFile((runDir + "/meta.yaml").toStdString());
    QCOMPARE(meta["run_id"].as<std::string>(), m_run.uuid);
    QCOMPARE(meta["run_uuid"].as<std::string>(), m_run.uuid);
    QCOMPARE(meta["run_name"].as<std::string>(), std::string("mlp baseline"));
    QCOMPARE(meta["experiment_id"].as<std::string>(), experiment);
    QCOMPARE(meta["status"].as<int>(), 3);  // FINISHED
    QCOMPARE(meta["start_time"].as<int64_t>(), m_run.startMs);
    QCOMPARE(meta["end_time"].as<int64_t>(), m_run.endMs);
    QVERIFY(QFileInfo(runDir + "/artifacts").isDir());

    // Metrics: every file under metrics/, its path the key; lines "<time ms> <value> <step>".
    std::map<std::string, std::vector<tw::tracking::MetricPoint>> metrics;
    QDirIterator it(runDir + "/metrics", QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString path = it.next();
      const std::string key = QDir(runDir + "/metrics").relativeFilePath(path).toStdString();
      for (const QString &line : readText(path).split('\n', Qt::SkipEmptyParts)) {
        const QStringList parts = line.split(' ');
        QCOMPARE(parts.size(), 3);
        metrics[key].push_back({parts[2].toLongLong(), parts[1].toDouble(), parts[0].toLongLong()});
      }
    }
    QCOMPARE(metrics.size(), size_t(2));
    for (const auto &[key, points] : metrics) {
      const auto stored = m_store->metricPoints(m_run.id, key);
      QCOMPARE(points.size(), stored.size());
      for (size_t i = 0; i < stored.size(); ++i) {
        QCOMPARE(points[i].step, stored[i].step);
        QCOMPARE(points[i].value, stored[i].value);  // the shortest text that reads back exactly
        QCOMPARE(points[i].timeMs, stored[i].timeMs);
      }
    }
    QCOMPARE(readText(runDir + "/params/train.lr"), QString("0.001"));
    QCOMPARE(readText(runDir + "/params/train.optimizer"), QString("adam"));
    QCOMPARE(readText(runDir + "/tags/weights_sha256"), QString("abc123"));
    QCOMPARE(readText(runDir + "/tags/mlflow.runName"), QString("mlp baseline"));
    // A key that would climb out of the folder stays inside it.
    QCOMPARE(readText(runDir + "/tags/_../_../escape"), QString("kept inside"));
    QVERIFY(!QFile::exists(runDir + "/escape") && !QFile::exists(root + "/escape"));

    // A second run of the experiment joins it; the same run again is refused unless forced.
    auto other = m_store->createRun(newRun("fashion", "second"));
    tw::tracking::exportRun(*m_store, other, ExportFormat::MLflow, root.toStdString(), false);
    QVERIFY(QFileInfo(root + "/" + QString::fromStdString(experiment) + "/" + QString::fromStdString(other.uuid)).isDir());
    QCOMPARE(QDir(root).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 2);
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             tw::tracking::exportRun(*m_store, m_run, ExportFormat::MLflow, root.toStdString(), false));
    tw::tracking::exportRun(*m_store, m_run, ExportFormat::MLflow, root.toStdString(), true);
  }

  void namesBecomeSafeFileNames() {
    QCOMPARE(tw::tracking::safeFileName("mlp baseline"), std::string("mlp_baseline"));
    QCOMPARE(tw::tracking::safeFileName(".."), std::string("_.."));
    QCOMPARE(tw::tracking::safeFileName(""), std::string("_"));
    QCOMPARE(tw::tracking::safeKeyPath("grad_norm/fc1.weight"), std::string("grad_norm/fc1.weight"));
    QCOMPARE(tw::tracking::safeKeyPath("/abs//x"), std::string("_/abs/_/x"));
  }
};

QTEST_GUILESS_MAIN(TestRunExport)
#include "test_run_export.moc"
