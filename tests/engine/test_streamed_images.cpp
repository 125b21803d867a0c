// Image folders streamed through the engine on real files: each batch is the standardised images
// of its rows, training is bit-identical whatever the decode threads and the cache, a run stopped
// mid-epoch and resumed with other data.workers ends bit-identical, the cache's hits and the bytes
// read are recorded per epoch, and a damaged image mid-epoch stops the run naming it, or is
// skipped and counted (data.on_bad).
#include "core/config/metric_keys.h"
#include "core/data/image_augment.h"
#include "core/data/image_folder.h"
#include "core/data/pack_dataset.h"
#include "core/data/shape_images.h"
#include "core/engine/dataset.h"
#include "core/engine/engine_log.h"
#include "core/engine/trainer.h"
#include "train_helpers.h"
#include "tracking/metric_writer.h"
#include "tracking/store.h"

#include <QTemporaryDir>
#include <spdlog/sinks/ringbuffer_sink.h>
#include <spdlog/spdlog.h>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <fstream>
#include <string>

using namespace tw;

namespace {

config::RunConfig folderRun(const std::string &dir) {
  config::RunConfig c;
  c.modelYaml = "nodes:\n  - {id: x, op: Input, shape: [3, 12, 12]}\n"
                "  - {id: c, op: Conv2d, out_channels: 6, kernel_size: 3, padding: 1}\n"
                "  - {id: bn, op: BatchNorm2d}\n  - {id: r, op: ReLU}\n"
                "  - {id: p, op: MaxPool2d, kernel_size: 2}\n  - {id: f, op: Flatten}\n"
                "  - {id: out, op: Linear, out_features: 3}\n";
  c.data.dataset = "image-folder";
  c.data.path = dir;
  c.data.batchSize = 10;
  c.data.flip = 0.5;
  c.data.cropPadding = 1;
  c.train.lr = 0.01;
  c.train.epochs = 2;
  c.train.seed = 3;
  c.train.threads = 1;
  return c;
}

std::string writeShapes(const QTemporaryDir &tmp, const std::string &name, int64_t perClass) {
  const std::string dir = tmp.path().toStdString() + "/" + name;
  data::ShapeImageOptions shapes;
  shapes.perClass = perClass;
  shapes.size = 12;
  data::writeShapeImages(dir, shapes);
  return dir;
}

using tw::testing::errorOf;
using tw::testing::trainTracked;

}  // namespace

class TestStreamedImages : public QObject {
  Q_OBJECT
  QTemporaryDir m_tmp;

 private Q_SLOTS:
  void batchesAreTheStandardisedImages() {
    const std::string dir = writeShapes(m_tmp, "batches", 10);
    config::RunConfig c = folderRun(dir);
    const engine::Dataset d = engine::loadDataset(c.data, c.train.seed);
    QVERIFY(d.train.streamed);
    QVERIFY(!d.train.inputs.defined());  // nothing decoded up front
    QCOMPARE(d.train.size() + d.val.size() + d.test.size(), int64_t(30));
    const engine::BatchOrder order(d.train.size(), 4, /*shuffle=*/true, c.train.seed, 1);
    const engine::Batch b = engine::takeBatch(d.train, order, 1);
    QCOMPARE(b.inputs.sizes().vec(), std::vector<int64_t>({4, 3, 12, 12}));
    // The in-memory reader's floats, standardised as data::ImageStandardizer::apply does.
    const data::Examples all = data::readImageFolder(dir, {});
    const torch::Tensor idx = order.indices(1);
    const int64_t size = 3 * 12 * 12;
    for (int64_t k = 0; k < 4; ++k) {
      const int64_t row = d.train.streamed->rows[size_t(idx[k].item<int64_t>())];
      QCOMPARE(b.targets[k].item<int64_t>(), all.labels[size_t(row)]);
      const float *got = b.inputs[k].contiguous().data_ptr<float>();
      for (int64_t j = 0; j < size; ++j) {
        const float v = all.features[size_t(row * size + j)];
        const float want = static_cast<float>((v - d.preprocessing.imageMean) / d.preprocessing.imageStd);
        QCOMPARE(got[j], want);
      }
    }
  }

  void augmentationOnBytesEqualsItOnFloats() {
    // Cropped, flipped and erased while 8-bit, then made floats: exactly the float batch
    // augmented afterwards (padding and erasing are 0 after standardisation either way).
    const std::string dir = writeShapes(m_tmp, "augment", 10);
    const config::RunConfig c = folderRun(dir);
    const engine::Dataset d = engine::loadDataset(c.data, c.train.seed);
    QVERIFY(d.train.streamed);
    const engine::BatchOrder order(d.train.size(), 8, /*shuffle=*/true, c.train.seed, 1);
    data::BatchAugment augment;
    augment.options.cropPadding = 3;
    augment.options.flip = 0.5;
    augment.options.erase = 0.5;
    augment.seed = 11;
    const engine::Batch plain = engine::takeBatch(d.train, order, 0);
    const engine::Batch bytes = engine::takeBatch(d.train, order, 0, &augment);
    torch::Tensor floats = torch::empty_like(plain.inputs);
    data::augmentFloatImages(plain.inputs.contiguous().data_ptr<float>(), 8, 3, 12, 12, augment.options, augment.seed,
                             floats.data_ptr<float>());
    QVERIFY(!torch::equal(bytes.inputs, plain.inputs));
    QVERIFY(torch::equal(bytes.inputs, floats));
    QVERIFY(torch::equal(bytes.targets, plain.targets));
  }

  void trainingIsTheSameWhateverWorkersAndCache() {
    const std::string dir = writeShapes(m_tmp, "same", 12);
    config::RunConfig one = folderRun(dir);
    one.data.workers = 1;
    one.data.cache = "none";
    config::RunConfig three = folderRun(dir);
    three.data.workers = 3;
    three.data.cache = "memory";
    config::RunConfig disk = folderRun(dir);
    disk.data.workers = 2;
    disk.data.cache = "disk";
    disk.data.cacheDir = m_tmp.path().toStdString();
    const engine::TrainSummary a = engine::train(one, nullptr), b = engine::train(three, nullptr),
                               c = engine::train(disk, nullptr);
    QVERIFY(!a.weightsDigest.empty());
    QCOMPARE(b.weightsDigest, a.weightsDigest);
    QCOMPARE(c.weightsDigest, a.weightsDigest);
    QCOMPARE(b.testAccuracy, a.testAccuracy);
  }

  void midEpochResumeWithOtherWorkersIsExact() {
    const std::string dir = writeShapes(m_tmp, "resume", 12);
    config::RunConfig c = folderRun(dir);
    c.train.epochs = 3;
    engine::TrainEnvironment straightEnv;
    straightEnv.runDir = m_tmp.path().toStdString() + "/straight";
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);

    engine::TrainEnvironment env;
    env.runDir = m_tmp.path().toStdString() + "/stopped";
    engine::TrainCallbacks stopAt5 = testing::stopAfterPolls(5);
    c.data.workers = 1;
    c.data.cache = "none";
    const engine::TrainSummary stopped = engine::train(c, nullptr, stopAt5, env);
    QVERIFY(stopped.stopped);
    c.data.workers = 3;
    c.data.cache = "memory";
    env.resume = true;
    const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
    // Stopped inside the second epoch (3 batches an epoch), not at an epoch's end.
    QVERIFY(resumed.resumedFromStep > 3 && resumed.resumedFromStep < 6);
    QCOMPARE(resumed.weightsDigest, straight.weightsDigest);
  }

  void pipelineIsRecordedPerEpoch_data() {
    QTest::addColumn<QString>("cache");
    QTest::newRow("memory") << "memory";
    QTest::newRow("disk") << "disk";
  }

  void pipelineIsRecordedPerEpoch() {
    QFETCH(QString, cache);
    const std::string dir = writeShapes(m_tmp, "recorded-" + cache.toStdString(), 10);
    config::RunConfig c = folderRun(dir);
    c.train.epochs = 3;
    c.data.cache = cache.toStdString();
    const auto recorded = trainTracked(c);
    const auto hits = recorded->points(config::metrics::kTrainCacheHitRate);
    const auto mb = recorded->points(config::metrics::kTrainReadMbPerSec);
    QCOMPARE(int64_t(hits.size()), int64_t(3));
    QCOMPARE(hits[0].value, 0.0);  // the first epoch reads every image from disk
    QCOMPARE(hits[1].value, 1.0);  // then the cache holds them all
    QCOMPARE(hits[2].value, 1.0);
    QVERIFY(mb[0].value > 0.0);
    QCOMPARE(mb[1].value, 0.0);
    QCOMPARE(recorded->points(config::metrics::kTrainSkipped).back().value, 0.0);
    // A disk cache records what it could not write, every epoch; a memory cache has nothing to say.
    const auto failures = recorded->points(config::metrics::kTrainCacheWriteFailures);
    QCOMPARE(int64_t(failures.size()), cache == "disk" ? int64_t(3) : int64_t(0));
    for (const auto &point : failures) QCOMPARE(point.value, 0.0);
  }

  // A packed set read shard by shard: the order's clustering is recorded per epoch (high with a
  // small buffer over class-sorted shards, about 0 with a global shuffle), and a run stopped
  // mid-epoch and resumed with other decode threads still ends bit-identical.
  void shardByShardOrderIsRecordedAndResumesExactly() {
    const std::string dir = writeShapes(m_tmp, "toshards", 12), shards = m_tmp.path().toStdString() + "/shards";
    data::PackOptions pack;
    pack.targetBytes = 16000;  // about eight images a shard, in class order
    config::RunConfig folder = folderRun(dir);
    data::packDataset(folder.data, shards, pack);
    config::RunConfig c = folderRun(shards);
    c.data.dataset = "shards";
    c.data.shuffleMode = "shards";
    c.data.shuffleBuffer = 2;
    c.train.epochs = 3;
    // The engine's log, captured for each run: the trainer warns once, at the first epoch whose
    // order exceeds 0.1, naming that figure, and never when none does.
    struct Traced {
      std::vector<tracking::MetricPoint> points;
      std::vector<std::string> warnings;
    };
    const auto autocorrelation = [](const config::RunConfig &run) {
      auto captured = std::make_shared<spdlog::sinks::ringbuffer_sink_mt>(4096);
      auto &sinks = engine::engineLog()->sinks();
      sinks.push_back(captured);
      Traced traced;
      traced.points = trainTracked(run)->points(config::metrics::kTrainOrderAutocorrelation);
      sinks.erase(std::remove(sinks.begin(), sinks.end(), captured), sinks.end());
      for (const auto &message : captured->last_raw()) {
        const std::string text(message.payload.data(), message.payload.size());
        if (text.find("clustered by class") != std::string::npos) traced.warnings.push_back(text);
      }
      return traced;
    };
    const auto warnedAsRecorded = [](const Traced &traced) {
      const auto high = std::find_if(traced.points.begin(), traced.points.end(), [](const auto &p) { return p.value > 0.1; });
      if (high == traced.points.end()) return traced.warnings.empty();
      return traced.warnings.size() == 1 &&
             traced.warnings[0].find(fmt::format("label autocorrelation {:.2f}", high->value)) != std::string::npos;
    };
    const Traced sorted = autocorrelation(c);
    const auto &clustered = sorted.points;
    QCOMPARE(int64_t(clustered.size()), int64_t(3));
    for (const auto &p : clustered) QVERIFY2(p.value > 0.3, qPrintable(QString::number(p.value)));
    QCOMPARE(sorted.warnings.size(), size_t(1));
    QVERIFY2(warnedAsRecorded(sorted), sorted.warnings[0].c_str());
    config::RunConfig global = c;
    global.data.shuffleMode = "global";
    const Traced shuffled = autocorrelation(global);
    const auto &mixed = shuffled.points;
    QCOMPARE(int64_t(mixed.size()), int64_t(3));  // an empty list would check nothing
    for (const auto &p : mixed) QVERIFY2(std::abs(p.value) < 0.3, qPrintable(QString::number(p.value)));
    QVERIFY(warnedAsRecorded(shuffled));

    engine::TrainEnvironment straightEnv, env;
    straightEnv.runDir = m_tmp.path().toStdString() + "/shards-straight";
    env.runDir = m_tmp.path().toStdString() + "/shards-stopped";
    const engine::TrainSummary straight = engine::train(c, nullptr, {}, straightEnv);
    engine::TrainCallbacks stop = testing::stopAfterPolls(4);
    c.data.workers = 1;
    QVERIFY(engine::train(c, nullptr, stop, env).stopped);
    c.data.workers = 3;
    env.resume = true;
    const engine::TrainSummary resumed = engine::train(c, nullptr, {}, env);
    QVERIFY(resumed.resumedFromStep > 0);
    QCOMPARE(resumed.weightsDigest, straight.weightsDigest);
  }

  // `pack --decoded`: the folder's pixels stored as uint8 arrays train exactly as the folder does
  // (same examples, order, statistics and augmentation), with nothing decoded when read.
  void decodedShardsTrainAsTheFolder() {
    const std::string dir = writeShapes(m_tmp, "todecoded", 12), shards = m_tmp.path().toStdString() + "/decoded";
    config::RunConfig folder = folderRun(dir);
    data::PackOptions pack;
    pack.decoded = true;
    pack.targetBytes = 4000;  // several shards
    const data::ShardManifest manifest = data::packDataset(folder.data, shards, pack);
    QCOMPARE(manifest.info.dtype, std::string("uint8"));
    QCOMPARE(manifest.info.featureShape, std::vector<int64_t>({3, 12, 12}));
    QVERIFY(manifest.splits.at("train").shards.size() > 1);
    config::RunConfig packed = folderRun(shards);
    packed.data.dataset = "shards";
    const engine::TrainSummary a = engine::train(folder, nullptr), b = engine::train(packed, nullptr);
    QVERIFY(!a.weightsDigest.empty());
    QCOMPARE(b.weightsDigest, a.weightsDigest);
    QCOMPARE(b.testAccuracy, a.testAccuracy);
  }

  void damagedImageMidEpochIsNamedOrSkipped() {
    const std::string dir = writeShapes(m_tmp, "damaged", 10);
    // Two PNGs cut short after their headers: opening the folder reads headers only, so the
    // damage shows when the images are decoded (the statistics' sample, then every epoch).
    std::vector<std::string> cut;
    for (const char *name : {"/square/003.png", "/triangle/007.png"}) {
      const std::string path = dir + name;
      QVERIFY(std::filesystem::exists(path));
      std::filesystem::resize_file(path, 60);
      cut.push_back(path);
    }
    config::RunConfig c = folderRun(dir);
    c.data.valFraction = 0.0;  // every image in the training split: each epoch reads them all
    c.data.testFraction = 0.0;
    const std::string message = errorOf(c);
    QVERIFY2(message.find(": cannot decode (PNG: ") != std::string::npos, message.c_str());
    QVERIFY2(message.find(cut[0]) != std::string::npos || message.find(cut[1]) != std::string::npos, message.c_str());

    c.data.onBad = "skip";
    const auto recorded = trainTracked(c);
    const engine::TrainSummary &s = recorded->summary;
    const auto skipped = recorded->points(config::metrics::kTrainSkipped);
    QCOMPARE(int64_t(skipped.size()), int64_t(2));
    QCOMPARE(skipped[0].value, 2.0);  // both, in the first epoch
    QCOMPARE(skipped[1].value, 4.0);  // and again in the second
    QCOMPARE(s.trainSamples, int64_t(30));
  }
};

QTEST_GUILESS_MAIN(TestStreamedImages)
#include "test_streamed_images.moc"
