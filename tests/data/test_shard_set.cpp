// Packed shard sets (core/data/shard_set.h, pack_dataset.h) on real files: tar members Python's
// layout expects, round trips from an image folder, the real Fashion-MNIST files and CSV tables
// that give the same examples and splits as reading the source, and every damage named.
#include "data_test_helpers.h"

#include "core/config/run_config.h"
#include "core/data/data_sources.h"
#include "core/data/data_splits.h"
#include "core/data/example_store.h"
#include "core/data/image_folder.h"
#include "core/data/standardize.h"
#include "core/data/npy.h"
#include "core/data/pack_dataset.h"
#include "core/data/shard_set.h"
#include "core/data/tar_archive.h"

#include <stb/stb_image_write.h>

#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>

using namespace tw::data;
namespace fs = std::filesystem;

namespace {

std::vector<unsigned char> gradient(int w, int h, int comp, int seed) {
  std::vector<unsigned char> p(static_cast<size_t>(w * h * comp));
  for (size_t i = 0; i < p.size(); ++i) p[i] = static_cast<unsigned char>((i * 7 + seed * 31) % 256);
  return p;
}

// Three classes of small PNG and JPEG images, one 12x12 among 8x8 ones (resized when read).
void writeImageFolder(const std::string &root) {
  int n = 0;
  for (const char *cls : {"cat", "dog", "owl"}) {
    fs::create_directories(root + "/" + cls);
    for (int i = 0; i < 4; ++i, ++n) {
      const int size = n == 5 ? 12 : 8;
      const std::string path = root + "/" + cls + "/" + std::to_string(i) + (i % 2 ? ".jpg" : ".png");
      const auto pixels = gradient(size, size, 3, n);
      if (i % 2) QVERIFY(stbi_write_jpg(path.c_str(), size, size, 3, pixels.data(), 90));
      else QVERIFY(stbi_write_png(path.c_str(), size, size, 3, pixels.data(), size * 3));
    }
  }
}

std::string readAll(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void flipByte(const std::string &path, uint64_t at) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(at));
  char c = 0;
  f.read(&c, 1);
  c = static_cast<char>(c ^ 0x5a);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(&c, 1);
}

tw::config::DataOptions options(const std::string &yaml) { return tw::config::parseRunConfig(yaml, "test.yaml", {}, false).data; }

std::vector<int64_t> allRows(int64_t n) {
  std::vector<int64_t> rows(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) rows[static_cast<size_t>(i)] = i;
  return rows;
}

void compareExamples(const Examples &a, const Examples &b) {
  QCOMPARE(a.count, b.count);
  QCOMPARE(a.featureShape, b.featureShape);
  QVERIFY(a.features == b.features);
  QCOMPARE(a.labels, b.labels);
  QVERIFY(a.targets == b.targets);
  QCOMPARE(a.classNames, b.classNames);
}

}  // namespace

class TestShardSet : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void tarMembersAreUstar() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("a.tar").toStdString();
    TarWriter tar(path);
    QCOMPARE(tar.add("000000000.cls", std::string("7")), uint64_t(0));
    const std::string big(1000, 'x');
    QCOMPARE(tar.add("000000000.bin", big), uint64_t(1024));
    const std::string sha = tar.finish();
    QCOMPARE(sha, tw::config::fileSha256Hex(path));
    QCOMPARE(fs::file_size(path), uint64_t(1024 + 512 + 1024 + 1024));
    const auto members = listTar(path);
    QCOMPARE(members.size(), size_t(2));
    QCOMPARE(members[1].name, std::string("000000000.bin"));
    QCOMPARE(members[1].size, uint64_t(1000));
    QCOMPARE(readAll(path).substr(members[1].dataOffset, 1000), big);
    // GNU tar's own reading of the header fields.
    QCOMPARE(readAll(path).substr(257, 5), std::string("ustar"));
    QCOMPARE(memberKey("000000042.target.npy"), std::string("000000042"));
    QCOMPARE(memberExtension("000000042.target.npy"), std::string("target.npy"));
  }

  void npyRoundTrip() {
    const float values[6] = {1.5f, -2.0f, 0.0f, 3.25f, 4.0f, 5.0f};
    const std::string bytes = npyBytes(NpyType::Float32, {2, 3}, values, 6);
    QCOMPARE(bytes.size() % 64, size_t(24) % 64);  // a 64-byte header, then 24 data bytes
    const NpyArray a = parseNpy(bytes, "x.npy");
    QCOMPARE(a.shape, (std::vector<int64_t>{2, 3}));
    QCOMPARE(std::memcmp(a.data.data(), values, sizeof values), 0);
    QVERIFY(testing::errorOf([&] { parseNpy(bytes.substr(0, bytes.size() - 1), "x.npy"); }).contains("x.npy"));
  }

  // The folder's files go in byte for byte, and reading the set decodes them as the folder would.
  void imageFolderRoundTrip() {
    QTemporaryDir dir;
    const std::string root = dir.filePath("images").toStdString(), out = dir.filePath("shards").toStdString();
    writeImageFolder(root);
    const auto data = options("data: {dataset: image-folder, path: '" + root + "'}\n");
    PackOptions pack;
    pack.targetBytes = 600;  // a few examples a shard: several shards
    int64_t reported = 0;
    pack.progress = [&](int64_t done, int64_t total) {
      QCOMPARE(total, int64_t(12));
      reported = done;
    };
    const ShardManifest m = packDataset(data, out, pack);
    QCOMPARE(reported, int64_t(12));
    QVERIFY(m.splits.at("train").shards.size() > 2);
    QCOMPARE(m.splits.at("train").classCounts, (std::vector<int64_t>{4, 4, 4}));
    const ShardManifest read = readShardManifest(out);
    QCOMPARE(read.info.classNames, (std::vector<std::string>{"cat", "dog", "owl"}));
    QCOMPARE(read.splits.at("train").shards.size(), m.splits.at("train").shards.size());

    ShardReader reader(out, "train");
    const ImageFolderListing listing = listImageFolder(root);
    for (int64_t i = 0; i < reader.size(); ++i) {
      const ShardExample e = reader.read(i);
      QCOMPARE(e.label, listing.files[size_t(i)].label);
      QCOMPARE(e.members[0].second, readAll(listing.files[size_t(i)].path));
    }
    // Both stream (labels now, pixels per batch); read whole, the shards give the folder's pixels.
    const auto fromShards = readSource(options("data: {dataset: shards, path: '" + out + "'}\n"), 1);
    const auto fromFolder = readSource(data, 1);
    QVERIFY(fromShards.store && fromFolder.store);
    QVERIFY(fromShards.images);
    QCOMPARE(fromFolder.examples.labels, fromShards.examples.labels);
    compareExamples(readStore(*fromShards.store, allRows(fromShards.store->count())), readImageFolder(root, {}));
  }

  // Packed from the real IDX files, the set gives the IDX source's splits bit for bit.
  void idxSetSplitsAsTheIdxFiles() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("fm").toStdString();
    const std::string limits = "train_limit: 600, test_limit: 200, val_fraction: 0.1";
    const auto idx = options("data: {dataset: fashion-mnist, path: '" TW_FASHION_MNIST_DIR "', " + limits + "}\n");
    packDataset(idx, out, {});
    const ShardManifest m = readShardManifest(out);
    QCOMPARE(m.splits.at("train").examples, int64_t(600));
    QCOMPARE(m.splits.at("test").examples, int64_t(200));
    const auto shards = options("data: {dataset: shards, path: '" + out + "', " + limits + "}\n");
    // The IDX files are read whole; the set streams through its index. The same rows, labels and
    // statistics, and the pixels standardised per batch are the in-memory ones bit for bit.
    const DataSplits a = loadDataSplits(idx, 42), b = loadDataSplits(shards, 42);
    QVERIFY(!a.store && b.store);
    QCOMPARE(b.preprocessing.imageMean, a.preprocessing.imageMean);
    QCOMPARE(b.preprocessing.imageStd, a.preprocessing.imageStd);
    const ImageStandardizer standardize{b.preprocessing.imageMean, b.preprocessing.imageStd};
    const std::vector<std::pair<const Examples *, const std::vector<int64_t> *>> splits = {
        {&a.train, &b.trainRows}, {&a.val, &b.valRows}, {&a.test, &b.testRows}};
    for (const auto &[inMemory, rows] : splits) {
      Examples streamed = readStore(*b.store, *rows);
      standardize.apply(streamed);
      streamed.classNames = inMemory->classNames;
      compareExamples(*inMemory, streamed);
    }
    QCOMPARE(b.test.labels, a.test.labels);
    QCOMPARE(dataClassCount(shards), int64_t(10));
  }

  void csvRoundTripKeepsOneHotColumnsUnscaled() {
    QTemporaryDir dir;
    const std::string csv = dir.filePath("t.csv").toStdString(), out = dir.filePath("s").toStdString();
    std::string text = "size,colour,price\n";
    for (int i = 0; i < 40; ++i) text += std::to_string(i) + "," + (i % 3 ? "red" : "blue") + "," + std::to_string(i * 2.5) + "\n";
    testing::writeText(csv, text);
    const auto data = options("data: {dataset: csv, path: '" + csv + "', target: price, task: regression, categorical: [colour]}\n");
    packDataset(data, out, {});
    const SourceData fromCsv = readSource(data, 3);
    const SourceData fromShards = readSource(options("data: {dataset: shards, path: '" + out + "'}\n"), 3);
    compareExamples(fromShards.examples, fromCsv.examples);
    QCOMPARE(fromShards.scaleColumns, fromCsv.scaleColumns);
    QVERIFY(!fromShards.images);
  }

  // Decoding threads change the speed, never the data; the first broken file (in order) is named
  // whatever the thread count.
  void decodingWorkersDoNotChangeTheData() {
    QTemporaryDir dir;
    const std::string root = dir.filePath("images").toStdString(), out = dir.filePath("shards").toStdString();
    writeImageFolder(root);
    packDataset(options("data: {dataset: image-folder, path: '" + root + "'}\n"), out, {});
    for (const std::string source : {"image-folder", "shards"}) {
      const std::string path = source == "shards" ? out : root;
      const SourceData one = readSource(options("data: {dataset: " + source + ", path: '" + path + "', workers: 1}\n"), 1);
      const SourceData three = readSource(options("data: {dataset: " + source + ", path: '" + path + "', workers: 3}\n"), 1);
      const std::vector<int64_t> rows = allRows(one.store->count());
      compareExamples(readStore(*three.store, rows, 3), readStore(*one.store, rows, 1));
    }
    testing::writeText(root + "/dog/0.png", "not a png");
    testing::writeText(root + "/owl/2.png", "not a png either");
    for (const char *workers : {"1", "4"}) {
      const QString error = testing::errorOf([&] {
        readSource(options("data: {dataset: image-folder, path: '" + root + "', workers: " + workers + "}\n"), 1);
      });
      QVERIFY2(error.contains("dog/0.png: cannot decode"), qPrintable(error));
    }
  }

  void damageIsNamed() {
    QTemporaryDir dir;
    const std::string root = dir.filePath("images").toStdString(), out = dir.filePath("shards").toStdString();
    writeImageFolder(root);
    packDataset(options("data: {dataset: image-folder, path: '" + root + "'}\n"), out, {});
    const auto shards = options("data: {dataset: shards, path: '" + out + "'}\n");
    const std::string tar = out + "/train-000000.tar", idx = out + "/train-000000.idx";
    const std::string good = readAll(tar), goodIndex = readAll(idx);

    // A set of at most 256 MiB (this one, a few KiB) is hashed whole before it is read.
    QCOMPARE(kVerifyNowBytes, uint64_t(256) << 20);
    flipByte(tar, 600);
    QVERIFY(testing::errorOf([&] { readSource(shards, 1); }).contains("train-000000.tar: checksum mismatch"));
    testing::writeText(tar, good.substr(0, good.size() - 2000));
    const QString truncated = testing::errorOf([&] { readSource(shards, 1); });
    QVERIFY2(truncated.contains("train-000000.tar") && truncated.contains("truncated"), qPrintable(truncated));
    testing::writeText(tar, good);
    testing::writeText(idx, goodIndex.substr(8));
    QVERIFY(testing::errorOf([&] { readSource(shards, 1); }).contains("train-000000.idx: stale index"));
    fs::remove(idx);
    QVERIFY(testing::errorOf([&] { readSource(shards, 1); }).contains("train-000000.idx: missing"));
    testing::writeText(idx, goodIndex);
    QVERIFY(testing::errorOf([&] { readSource(shards, 1); }).isEmpty());

    std::string manifest = readAll(out + "/manifest.json");
    testing::writeText(out + "/manifest.json", manifest.replace(manifest.find("\"class_counts\""), 14, "\"counts_class\""));
    QVERIFY(testing::errorOf([&] { readSource(shards, 1); }).contains("manifest.json: splits.train.class_counts is missing"));
    QVERIFY(testing::errorOf([&] { packDataset(options("data: {dataset: image-folder, path: '" + root + "'}\n"), out, {}); })
                .contains("already holds a shard set"));
    QVERIFY(testing::errorOf([&] { packDataset(options("data: {dataset: spirals}\n"), dir.filePath("x").toStdString(), {}); })
                .contains("nothing to pack"));
  }

  // A set too large to hash before the first step is verified on a thread of its own: a changed
  // byte fails a later read, naming the shard.
  void largeSetsAreVerifiedWhileTraining() {
    QTemporaryDir dir;
    const std::string root = dir.filePath("images").toStdString(), out = dir.filePath("shards").toStdString();
    writeImageFolder(root);
    packDataset(options("data: {dataset: image-folder, path: '" + root + "'}\n"), out, {});
    flipByte(out + "/train-000000.tar", 600);
    int64_t train = 0;
    const auto store = openShardStore(out, {}, 1, &train, /*verifyNowBytes=*/0);  // opens: sizes and indices agree
    QCOMPARE(train, int64_t(12));
    std::vector<uint8_t> pixels(size_t(store->exampleBytes()));
    QString error;
    QTRY_VERIFY_WITH_TIMEOUT((error = testing::errorOf([&] { store->read(11, pixels.data()); })).contains("checksum mismatch"),
                             10000);
    QVERIFY2(error.contains("train-000000.tar"), qPrintable(error));
  }

  // A disk that fills while packing (a file size limit here): the shard is named and nothing
  // partial stays behind.
  void fullDiskRemovesPartialOutput() {
    QTemporaryDir dir;
    const std::string out = dir.filePath("fm").toStdString();
    const auto idx = options("data: {dataset: fashion-mnist, path: '" TW_FASHION_MNIST_DIR "', train_limit: 2000}\n");
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    getrlimit(RLIMIT_FSIZE, &old);
    rlimit limited = old;
    limited.rlim_cur = 256 * 1024;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
    PackOptions pack;
    pack.targetBytes = 64ull << 20;
    const QString error = testing::errorOf([&] { packDataset(idx, out, pack); });
    setrlimit(RLIMIT_FSIZE, &old);
    QVERIFY2(error.contains("train-000000.tar: write failed"), qPrintable(error));
    QVERIFY(fs::is_empty(out));
  }
};

QTEST_GUILESS_MAIN(TestShardSet)
#include "test_shard_set.moc"
