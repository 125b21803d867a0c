// A recorded run exported for TensorBoard and MLflow, and imported back (into a second store,
// twice: the second import changes nothing; damaged and foreign sources refused or named). The
// exports are read the way their own tools read them: the event file by a reader of TensorBoard's record framing written here from the format
// (its own bit-by-bit CRC-32C, not the exporter's table, and its own protocol-buffer decoding),
// the MLflow store as mlflow's FileStore walks it (experiment meta.yaml by name, the run's
// meta.yaml, metrics/params/tags files, nested where a key holds '/'). Every record of an event
// file also goes through protoc --decode with TensorBoard's own schemas (tensorboard_proto/),
// which is how the HParams plugin's summaries and the model graph are checked.

#include "tracking_fixture.h"

#include "tracking/run_export.h"
#include "tracking/run_import.h"
#include "tracking/tensorboard_events.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
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
struct Histogram {
  std::string tag;
  int64_t step = 0;
  double min = 0, max = 0, num = 0, sum = 0;
  std::vector<double> limits, counts;
};
struct EventFile {
  std::string fileVersion;
  std::vector<Scalar> scalars;
  std::vector<Histogram> histograms;
  QString problem;  // the first framing or CRC error
  std::vector<std::string> records;  // each record's data (a serialized Event)
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
    file.records.push_back(data);
    Scalar s;
    Histogram h;
    bool isHistogram = false, isScalar = false;
    for (const Field &f : fields(data)) {
      if (f.number == 1 && f.type == 1) std::memcpy(&s.wallTime, f.bytes.data(), 8);
      if (f.number == 2 && f.type == 0) s.step = int64_t(f.varint);
      if (f.number == 3 && f.type == 2) file.fileVersion = f.bytes;
      if (f.number == 5 && f.type == 2)
        for (const Field &value : fields(f.bytes))
          for (const Field &g : fields(value.bytes)) {
            if (g.number == 1 && g.type == 2) s.tag = g.bytes;
            if (g.number == 2 && g.type == 5) std::memcpy(&s.value, g.bytes.data(), 4), isScalar = true;
            if (g.number == 5 && g.type == 2) {  // HistogramProto
              isHistogram = true;
              for (const Field &k : fields(g.bytes)) {
                double d = 0;
                if (k.type == 1) std::memcpy(&d, k.bytes.data(), 8);
                if (k.number == 1) h.min = d;
                if (k.number == 2) h.max = d;
                if (k.number == 3) h.num = d;
                if (k.number == 4) h.sum = d;
                for (size_t at = 0; k.type == 2 && at + 8 <= k.bytes.size(); at += 8) {
                  std::memcpy(&d, k.bytes.data() + at, 8);
                  (k.number == 6 ? h.limits : h.counts).push_back(d);
                }
              }
            }
          }
    }
    h.tag = s.tag;
    h.step = s.step;
    if (isHistogram) file.histograms.push_back(h);
    else if (isScalar) file.scalars.push_back(s);
  }
  return file;
}

// An Event as protoc prints it from TensorBoard's schemas, on one line (runs of whitespace as one
// space); empty, and `error` set, when protoc cannot parse it.
QString decodeEvent(const std::string &record, QString *error) {
  QProcess protoc;
  protoc.start(QStandardPaths::findExecutable("protoc"),
               {"--decode=tensorboard.Event", "-I" TW_TENSORBOARD_PROTO_DIR, "-I/usr/include", "event.proto"});
  if (!protoc.waitForStarted()) {
    *error = "protoc did not start";
    return {};
  }
  protoc.write(record.data(), qint64(record.size()));
  protoc.closeWriteChannel();
  protoc.waitForFinished(30000);
  if (protoc.exitStatus() != QProcess::NormalExit || protoc.exitCode() != 0) {
    *error = QString::fromUtf8(protoc.readAllStandardError());
    return {};
  }
  return QString::fromUtf8(protoc.readAllStandardOutput()).simplified();
}

QString readText(const QString &path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestRunInterchange : public QObject {
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

  // The layers' norms at each step as one distribution: TensorBoard's Histograms tab.
  void layerNormsBecomeHistograms() {
    auto run = m_store->createRun(newRun("fashion", "norms"));
    std::vector<MetricRow> rows;
    const double norms[] = {0.5, 1.5, 4.0};
    const char *names[] = {"weight_norm/fc1.weight", "weight_norm/fc1.bias", "weight_norm/fc2.weight"};
    for (int64_t step : {10, 20})
      for (int k = 0; k < 3; ++k) rows.push_back({names[k], step, norms[k] * double(step) / 10.0, 1733570000000 + step});
    m_store->writeMetrics(run.id, rows);
    const std::string where = tw::tracking::exportRun(*m_store, run, ExportFormat::TensorBoard,
                                                      m_dir.filePath("tb-norms").toStdString(), false);
    const QStringList files = QDir(QString::fromStdString(where)).entryList({"events.out.tfevents.*"}, QDir::Files);
    const EventFile events = readEvents(QString::fromStdString(where) + "/" + files[0]);
    QVERIFY2(events.problem.isEmpty(), qPrintable(events.problem));
    QCOMPARE(events.scalars.size(), size_t(6));  // each norm as its own scalar too
    QCOMPARE(events.histograms.size(), size_t(2));
    const Histogram &h = events.histograms[1];
    QCOMPARE(h.tag, std::string("weight_norm"));
    QCOMPARE(h.step, int64_t(20));
    QCOMPARE(h.num, 3.0);
    QCOMPARE(h.min, 1.0);
    QCOMPARE(h.max, 8.0);
    QCOMPARE(h.sum, 1.0 + 3.0 + 8.0);
    QCOMPARE(h.limits.size(), h.counts.size());
    QCOMPARE(h.limits.back(), 8.0);
    double counted = 0;
    for (double c : h.counts) counted += c;
    QCOMPARE(counted, 3.0);
    QCOMPARE(h.counts.front(), 1.0);  // 1.0 in the first bucket, 8.0 in the last
    QCOMPARE(h.counts.back(), 1.0);
  }

  // What protoc reads with TensorBoard's schemas: every record parses; the model graph (nodes,
  // inputs, shapes, typed attributes, '/' groups); the HParams plugin's experiment, session start
  // (numbers as numbers, words as strings) and end (the run's status).
  void tensorBoardHParamsAndGraphDecodeWithTheirSchemas() {
    QVERIFY2(!QStandardPaths::findExecutable("protoc").isEmpty(),
             "protoc is missing: packaging/install-deps.sh installs protobuf-compiler");
    const std::vector<tw::tracking::GraphNode> graph = {
        {"image", "Input", {}, {1, 28, 28}, {{"shape", std::vector<int64_t>{1, 28, 28}}}},
        {"enc/fc", "Linear", {"image"}, {10},
         {{"out_features", int64_t{10}}, {"bias", true}, {"gain", 0.25}, {"init", std::string("fan_in")}}},
    };
    const std::string where = tw::tracking::exportRun(*m_store, m_run, ExportFormat::TensorBoard,
                                                      m_dir.filePath("tb-protoc").toStdString(), false, graph);
    const QStringList files = QDir(QString::fromStdString(where)).entryList({"events.out.tfevents.*"}, QDir::Files);
    const EventFile events = readEvents(QString::fromStdString(where) + "/" + files[0]);
    QVERIFY2(events.problem.isEmpty(), qPrintable(events.problem));
    QCOMPARE(events.records.size(), size_t(1 + 1 + 55 + 3));  // version, graph, scalars, hparams
    QStringList decoded;
    for (const std::string &record : events.records) {
      QString error;
      decoded << decodeEvent(record, &error);
      QVERIFY2(error.isEmpty(), qPrintable(error));
    }
    auto find = [&decoded](const QString &part) {
      for (const QString &event : decoded)
        if (event.contains(part)) return event;
      return QString();
    };
    const QString graphEvent = find("graph_def {");
    QVERIFY(!graphEvent.isEmpty());
    QVERIFY2(graphEvent.contains("node { name: \"image\" op: \"Input\" attr { key: \"_output_shapes\" value { list { "
                                 "shape { dim { size: -1 } dim { size: 1 } dim { size: 28 } dim { size: 28 } } } } }"),
             qPrintable(graphEvent));
    QVERIFY(graphEvent.contains("attr { key: \"shape\" value { list { i: 1 i: 28 i: 28 } } }"));
    QVERIFY(graphEvent.contains("node { name: \"enc/fc\" op: \"Linear\" input: \"image\" attr { key: "
                                "\"_output_shapes\" value { list { shape { dim { size: -1 } dim { size: 10 } } } } }"));
    for (const char *attr : {"attr { key: \"out_features\" value { i: 10 } }", "attr { key: \"bias\" value { b: true } }",
                             "attr { key: \"gain\" value { f: 0.25 } }",
                             "attr { key: \"init\" value { s: \"fan_in\" } }"})
      QVERIFY2(graphEvent.contains(attr), attr);
    QVERIFY(graphEvent.contains("versions { producer: 22 }"));

    const QString experiment = find("tag: \"_hparams_/experiment\"");
    QVERIFY(experiment.contains("plugin_name: \"hparams\""));
    QVERIFY(experiment.contains("hparam_infos { name: \"train.lr\" type: DATA_TYPE_FLOAT64 }"));
    QVERIFY(experiment.contains("hparam_infos { name: \"train.optimizer\" type: DATA_TYPE_STRING }"));
    QVERIFY(experiment.contains("metric_infos { name { tag: \"val/accuracy\" } dataset_type: DATASET_VALIDATION }"));
    QVERIFY(experiment.contains("metric_infos { name { tag: \"train/loss\" } dataset_type: DATASET_TRAINING }"));
    const QString start = find("tag: \"_hparams_/session_start_info\"");
    QVERIFY2(start.contains("hparams { key: \"train.lr\" value { number_value: 0.001 } }"), qPrintable(start));
    QVERIFY(start.contains("hparams { key: \"train.optimizer\" value { string_value: \"adam\" } }"));
    const auto startTime = QRegularExpression("start_time_secs: ([0-9.e+]+)").match(start);
    QVERIFY(startTime.hasMatch());
    QCOMPARE(startTime.captured(1).toDouble(), double(m_run.startMs) / 1000.0);
    const QString end = find("tag: \"_hparams_/session_end_info\"");
    QVERIFY(end.contains("status: STATUS_SUCCESS"));
    // The scalars decode as TensorBoard reads them too.
    QVERIFY(!find("tag: \"train/loss\" simple_value: 1 }").isEmpty());  // 2/2 at step 2
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

  // Exported, then imported into another store: the same series (TensorBoard's as floats), params
  // and tags, under the run's own id for MLflow; a second import adds nothing.
  void exportedRunsImportBackOnce_data() {
    QTest::addColumn<int>("format");
    QTest::newRow("mlflow") << int(ExportFormat::MLflow);
    QTest::newRow("tensorboard") << int(ExportFormat::TensorBoard);
  }
  void exportedRunsImportBackOnce() {
    QFETCH(int, format);
    const bool mlflow = format == int(ExportFormat::MLflow);
    const QString folder = m_dir.filePath(mlflow ? "roundtrip-mlruns" : "roundtrip-tb");
    tw::tracking::exportRun(*m_store, m_run, ExportFormat(format), folder.toStdString(), false);
    QTemporaryDir other;
    auto store = tw::tracking::Store::open(other.filePath("tracking.db").toStdString());
    const auto importFormat = mlflow ? tw::tracking::ImportFormat::MLflow : tw::tracking::ImportFormat::TensorBoard;
    const auto first = tw::tracking::importRuns(*store, importFormat, folder.toStdString(), "from-tb");
    QVERIFY(first.problems.empty());
    QCOMPARE(first.runs.size(), size_t(1));
    QVERIFY(first.runs[0].created);
    QCOMPARE(first.runs[0].points, int64_t(55));
    const auto run = *store->findRun(first.runs[0].uuid);
    if (mlflow) {
      QCOMPARE(run.uuid, m_run.uuid);
      QCOMPARE(run.name, m_run.name);
      QCOMPARE(run.experiment, std::string("fashion"));
      QCOMPARE(run.status, tw::tracking::RunStatus::Finished);
      QCOMPARE(run.startMs, m_run.startMs);
      QCOMPARE(run.endMs, m_run.endMs);
      QCOMPARE(store->tags(run.id).at("weights_sha256"), std::string("abc123"));
    } else {
      QCOMPARE(run.experiment, std::string("from-tb"));
      QCOMPARE(run.startMs, 1733570000010);  // the first point's time
    }
    QCOMPARE(store->params(run.id), m_store->params(m_run.id));  // TensorBoard's through the HParams plugin
    QVERIFY(store->tags(run.id).at("imported_from").rfind(mlflow ? "mlflow:" : "tensorboard:", 0) == 0);
    for (const std::string key : {"train/loss", "val/accuracy"}) {
      const auto a = m_store->metricPoints(m_run.id, key), b = store->metricPoints(run.id, key);
      QCOMPARE(b.size(), a.size());
      for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i].step, a[i].step);
        QCOMPARE(b[i].value, mlflow ? a[i].value : double(static_cast<float>(a[i].value)));
        QCOMPARE(b[i].timeMs, a[i].timeMs);
      }
    }
    const auto second = tw::tracking::importRuns(*store, importFormat, folder.toStdString(), "from-tb");
    QCOMPARE(second.runs.size(), size_t(1));
    QVERIFY(!second.runs[0].created);
    QCOMPARE(second.runs[0].uuid, first.runs[0].uuid);
    QCOMPARE(store->listRuns().size(), size_t(1));
    QCOMPARE(store->metricPoints(run.id, "train/loss").size(), size_t(50));
  }

  // A record whose data fails its CRC is named and skipped; the records around it are imported.
  void damagedEventRecordIsNamedAndTheRestImported() {
    const QString dir = m_dir.filePath("tb-damaged/run-a");
    std::string path;
    {
      tw::tracking::TensorBoardWriter events(dir.toStdString(), 1733570000.0);
      for (int step = 1; step <= 3; ++step) events.scalar("loss", step, 1.0 / step, 1733570000.0 + step);
      events.flush();
      path = events.path();
    }
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    // Records: 0 the file version, 1 to 3 the scalars. A record is its length (8 bytes), their CRC,
    // the data and the data's CRC: damage record 2's data.
    auto next = [&bytes](int offset) {
      uint64_t length = 0;
      std::memcpy(&length, bytes.constData() + offset, 8);
      return offset + 16 + int(length);
    };
    const int record2 = next(next(0));
    bytes[record2 + 14] = char(bytes[record2 + 14] ^ 0x40);
    f.seek(0);
    f.write(bytes);
    f.close();
    QTemporaryDir other;
    auto store = tw::tracking::Store::open(other.filePath("tracking.db").toStdString());
    const auto report = tw::tracking::importRuns(*store, tw::tracking::ImportFormat::TensorBoard,
                                                 m_dir.filePath("tb-damaged").toStdString(), "");
    QCOMPARE(report.problems.size(), size_t(1));
    QVERIFY2(QString::fromStdString(report.problems[0]).contains("record 2 at byte") &&
                 QString::fromStdString(report.problems[0]).contains("its data fails its CRC; skipped"),
             report.problems[0].c_str());
    QCOMPARE(report.runs.size(), size_t(1));
    QCOMPARE(report.runs[0].name, std::string("run-a"));
    const auto points = store->metricPoints(store->findRun(report.runs[0].uuid)->id, "loss");
    QCOMPARE(points.size(), size_t(2));
    QCOMPARE(points[0].step, int64_t(1));
    QCOMPARE(points[1].step, int64_t(3));
  }

  // Sources that are not what they claim are refused, naming the file and line, and record nothing.
  void foreignSourcesAreRefusedBeforeAnythingIsRecorded() {
    QTemporaryDir other;
    auto store = tw::tracking::Store::open(other.filePath("tracking.db").toStdString());
    auto refused = [&](tw::tracking::ImportFormat format, const QString &path) {
      try {
        tw::tracking::importRuns(*store, format, path.toStdString(), "");
      } catch (const std::runtime_error &e) {
        return QString::fromUtf8(e.what());
      }
      return QString();
    };
    // An MLflow store from before 1.0: metric lines without a step.
    const QString old = m_dir.filePath("old-mlruns");
    QVERIFY(QDir().mkpath(old + "/0/abc/metrics"));
    auto write = [](const QString &path, const QByteArray &text) {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(text);
    };
    write(old + "/0/meta.yaml", "experiment_id: '0'\nname: Default\nlifecycle_stage: active\n");
    write(old + "/0/abc/meta.yaml", "run_uuid: abc\nstatus: 3\nstart_time: 1\nlifecycle_stage: active\n");
    write(old + "/0/abc/metrics/loss", "1733570000000 0.5\n");
    QString why = refused(tw::tracking::ImportFormat::MLflow, old);
    QVERIFY2(why.contains("metrics/loss' line 1") && why.contains("older stores wrote no step"), qPrintable(why));
    write(old + "/0/abc/meta.yaml", "name: not-a-run\n");
    why = refused(tw::tracking::ImportFormat::MLflow, old);
    QVERIFY2(why.contains("abc/meta.yaml' is not the run meta.yaml of MLflow's file store layout"), qPrintable(why));
    why = refused(tw::tracking::ImportFormat::MLflow, m_dir.filePath("tb"));
    QVERIFY2(why.contains("is not an MLflow file store"), qPrintable(why));
    // A CSV cell that is no number: its line and column.
    const QString csv = m_dir.filePath("metrics.csv");
    write(csv, "epoch,train_loss,val_acc\n0,0.9,0.5\n1,0.7,\n2,oops,0.7\n");
    why = refused(tw::tracking::ImportFormat::Csv, csv);
    QVERIFY2(why.contains("metrics.csv' line 4, column 'train_loss': 'oops' is not a number"), qPrintable(why));
    QCOMPARE(store->listRuns().size(), size_t(0));
    // Mended, it imports: epoch as the step, the empty cell skipped.
    write(csv, "epoch,train_loss,val_acc\n0,0.9,0.5\n1,0.7,\n2,0.6,0.7\n");
    const auto report = tw::tracking::importRuns(*store, tw::tracking::ImportFormat::Csv, csv.toStdString(), "logs");
    const auto run = *store->findRun(report.runs[0].uuid);
    QCOMPARE(run.name, std::string("metrics"));
    QCOMPARE(store->metricPoints(run.id, "train_loss").size(), size_t(3));
    const auto acc = store->metricPoints(run.id, "val_acc");
    QCOMPARE(acc.size(), size_t(2));
    QCOMPARE(acc[1].step, int64_t(2));
    QCOMPARE(acc[1].value, 0.7);
  }

  void namesBecomeSafeFileNames() {
    QCOMPARE(tw::tracking::safeFileName("mlp baseline"), std::string("mlp_baseline"));
    QCOMPARE(tw::tracking::safeFileName(".."), std::string("_.."));
    QCOMPARE(tw::tracking::safeFileName(""), std::string("_"));
    QCOMPARE(tw::tracking::safeKeyPath("grad_norm/fc1.weight"), std::string("grad_norm/fc1.weight"));
    QCOMPARE(tw::tracking::safeKeyPath("/abs//x"), std::string("_/abs/_/x"));
  }
};

QTEST_GUILESS_MAIN(TestRunInterchange)
#include "test_run_interchange.moc"
