// The one data path (core/data/data_splits.h): every source read, checked, split and standardised
// in core/data, on hand-written IDX folders, small CSV tables, synthetic sets and the real
// Fashion-MNIST files; and the preprocessing record it hands to the worker.
#include "core/data/data_splits.h"
#include "core/data/fingerprint.h"
#include "core/data/idx.h"
#include "core/data/image_codec.h"
#include "core/data/random.h"
#include "core/data/splits.h"
#include "core/data/synthetic.h"
#include "data_test_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <tuple>

#include <zlib.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

std::vector<uint8_t> idxFile(uint32_t magic, const std::vector<int> &dims, const std::vector<uint8_t> &data) {
  std::vector<uint8_t> bytes;
  auto put = [&](uint32_t v) {
    for (int shift : {24, 16, 8, 0}) bytes.push_back(uint8_t(v >> shift));
  };
  put(magic);
  for (int d : dims) put(uint32_t(d));
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

// Made-up IDX images (every pixel a function of its place) and labels i * 7 % 10.
std::vector<uint8_t> idxPixels(int count, int salt) {
  std::vector<uint8_t> pixels(size_t(count) * 28 * 28);
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = uint8_t((i * 131 + size_t(salt) * 7 + i / 784) % 256);
  return pixels;
}

std::vector<uint8_t> idxLabels(int count) {
  std::vector<uint8_t> l;
  for (int i = 0; i < count; ++i) l.push_back(uint8_t(i * 7 % 10));
  return l;
}

// An uncompressed IDX folder of 500 training and 100 test images of those.
void writePlainIdxFolder(const std::string &dir) {
  std::filesystem::create_directories(dir);
  const auto plain = [&](const std::string &name, const std::vector<uint8_t> &bytes) {
    writeText(dir + "/" + name, std::string(bytes.begin(), bytes.end()));
  };
  plain("train-images-idx3-ubyte", idxFile(0x803, {500, 28, 28}, idxPixels(500, 1)));
  plain("train-labels-idx1-ubyte", idxFile(0x801, {500}, idxLabels(500)));
  plain("t10k-images-idx3-ubyte", idxFile(0x803, {100, 28, 28}, idxPixels(100, 2)));
  plain("t10k-labels-idx1-ubyte", idxFile(0x801, {100}, idxLabels(100)));
}

void writeGzip(const std::string &path, const std::vector<uint8_t> &bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

// An MNIST-like folder of 2x2 images: `trainLabels` and `testLabels` give the labels (and so the
// counts); imagesExtra adds images to the training file beyond its labels.
void writeIdxFolder(const std::string &dir, const std::vector<uint8_t> &trainLabels,
                    const std::vector<uint8_t> &testLabels, int imagesExtra = 0) {
  auto images = [](size_t count) {
    std::vector<uint8_t> pixels;
    for (size_t i = 0; i < count * 4; ++i) pixels.push_back(uint8_t((i * 37) % 256));
    return pixels;
  };
  const int trainCount = int(trainLabels.size()) + imagesExtra;
  writeGzip(dir + "/train-images-idx3-ubyte.gz", idxFile(0x803, {trainCount, 2, 2}, images(size_t(trainCount))));
  writeGzip(dir + "/train-labels-idx1-ubyte.gz", idxFile(0x801, {int(trainLabels.size())}, trainLabels));
  const std::vector<uint8_t> test = idxFile(0x803, {int(testLabels.size()), 2, 2}, images(testLabels.size()));
  writeText(dir + "/t10k-images-idx3-ubyte", std::string(test.begin(), test.end()));
  const std::vector<uint8_t> labels = idxFile(0x801, {int(testLabels.size())}, testLabels);
  writeText(dir + "/t10k-labels-idx1-ubyte", std::string(labels.begin(), labels.end()));
}

tw::config::DataOptions idxOptions(const std::string &dir) {
  tw::config::DataOptions o;
  o.dataset = "mnist";
  o.path = dir;
  o.valFraction = 0.25;
  return o;
}

}  // namespace

class TestDataSplits : public QObject, public TempFolder {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(m_tmp.isValid()); }

  // IDX images past data.memory_mb as floats: plain files are read an image at a time, compressed
  // ones held as 8-bit pixels; either way the splits, the statistics, the fingerprint and every
  // pixel are the in-memory floats'.
  void idxPastTheBudgetKeepsPixelsOutOfFloats() {
    const std::string dir = m_tmp.path().toStdString() + "/big-idx";
    writePlainIdxFolder(dir);
    tw::config::DataOptions o = idxOptions(dir);
    const DataSplits whole = loadDataSplits(o, 3);  // 600 images: 1.8 MiB as floats
    o.memoryMb = 1;
    const DataSplits fromFiles = loadDataSplits(o, 3);
    QVERIFY(!whole.store);
    QVERIFY(fromFiles.store);
    QVERIFY(!fromFiles.store->inMemory());
    QVERIFY(std::any_of(fromFiles.reading.begin(), fromFiles.reading.end(), [](const std::string &n) {
      return n == "600 images read from the files per batch (2 MiB as floats, above data.memory_mb 1)";
    }));
    // Compressed, the same files are held as 8-bit pixels.
    for (const char *name : {"train-images-idx3-ubyte", "t10k-images-idx3-ubyte"}) {
      const std::string path = dir + "/" + name;
      std::ifstream in(path, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      writeGzip(path + ".gz", std::vector<uint8_t>(bytes.begin(), bytes.end()));
      std::filesystem::remove(path);
    }
    const DataSplits inMemory = loadDataSplits(o, 3);
    QVERIFY(inMemory.store && inMemory.store->inMemory());
    for (const DataSplits *s : {&fromFiles, &inMemory}) {
      QCOMPARE(s->fingerprint, whole.fingerprint);
      QCOMPARE(s->train.labels, whole.train.labels);
      QCOMPARE(s->test.labels, whole.test.labels);
      QCOMPARE(s->preprocessing.imageMean, whole.preprocessing.imageMean);
      QCOMPARE(s->preprocessing.imageStd, whole.preprocessing.imageStd);
      // Training example 17 and test example 5, read as pixels and standardised, are the floats.
      std::vector<uint8_t> pixels(784);
      for (const auto &[rows, examples, k] : {std::tuple{&s->trainRows, &whole.train, 17}, std::tuple{&s->testRows, &whole.test, 5}}) {
        s->store->read((*rows)[size_t(k)], pixels.data());
        for (size_t j = 0; j < pixels.size(); ++j) {
          const float v = static_cast<float>((kByteToUnit[pixels[j]] - whole.preprocessing.imageMean) /
                                             whole.preprocessing.imageStd);
          QCOMPARE(v, examples->features[size_t(k) * 784 + j]);
        }
      }
    }
  }

  // data.keep_classes: the kept classes' examples, relabelled in the order listed, limits
  // counting them; in memory and read per batch alike (store rows mapped back to the files).
  void keptClassesAreRelabelledAndLimited() {
    const std::string dir = m_tmp.path().toStdString() + "/keep-idx";
    writePlainIdxFolder(dir);
    tw::config::DataOptions o = idxOptions(dir);
    o.keepClasses = {"7", "2", "5"};
    o.trainLimit = 120;
    o.normalize = false;
    const DataSplits kept = loadDataSplits(o, 3);
    QCOMPARE(kept.train.count + kept.val.count, int64_t(120));  // of the 150 kept training images
    QCOMPARE(kept.test.count, int64_t(30));
    QCOMPARE(kept.preprocessing.classes, int64_t(3));
    for (const Examples *e : {&kept.train, &kept.val, &kept.test}) {
      QCOMPARE(e->classes, int64_t(3));
      for (int64_t label : e->labels) QVERIFY(label >= 0 && label < 3);
    }
    // The first kept test image is t10k image 1 (label 7 -> 0), pixels as the file has them.
    QCOMPARE(kept.test.labels[0], int64_t(0));
    const std::vector<uint8_t> testPixels = idxPixels(100, 2);
    QCOMPARE(kept.test.features[5], kByteToUnit[testPixels[784 + 5]]);
    o.memoryMb = 1;  // the same, read from the files per batch
    o.trainLimit = 0;
    const DataSplits streamed = loadDataSplits(o, 3);
    QVERIFY(streamed.store && !streamed.store->inMemory());
    QCOMPARE(int64_t(streamed.trainRows.size() + streamed.valRows.size()), int64_t(150));
    const std::vector<uint8_t> trainLabels = idxLabels(500);
    const std::vector<std::string> order{"7", "2", "5"};
    for (const auto &[rows, examples] : {std::pair{&streamed.trainRows, &streamed.train}, std::pair{&streamed.valRows, &streamed.val}})
      for (size_t k = 0; k < rows->size(); ++k)
        QCOMPARE(std::to_string(trainLabels[size_t((*rows)[k])]), order[size_t(examples->labels[k])]);
    QCOMPARE(streamed.testRows.front(), int64_t(500 + 1));

    o.keepClasses = {"7", "12"};
    try {
      loadDataSplits(o, 3);
      QFAIL("class 12 of 10 was taken");
    } catch (const std::exception &e) {
      QVERIFY2(std::string(e.what()).find("data.keep_classes: '12' is neither a class index (0 to 9) nor a class name") !=
                   std::string::npos, e.what());
    }
  }

  void idxFolderBecomesExamples() {
    QTemporaryDir dir;
    writeIdxFolder(dir.path().toStdString(), {0, 1, 2, 3, 4, 5, 6, 7}, {9, 8});
    tw::config::DataOptions o = idxOptions(dir.path().toStdString());
    o.normalize = false;
    const DataSplits s = loadDataSplits(o, 3);
    QCOMPARE(s.train.count, int64_t(6));
    QCOMPARE(s.val.count, int64_t(2));
    QCOMPARE(s.test.count, int64_t(2));  // the t10k files, not a share of the training file
    QCOMPARE(s.test.labels, std::vector<int64_t>({9, 8}));
    QCOMPARE(s.train.featureShape, std::vector<int64_t>({1, 2, 2}));
    QCOMPARE(s.train.classes, kIdxClasses);  // the dataset's classes, not the labels seen
    QVERIFY(s.images);
    QCOMPARE(s.test.features[1], float(37 / 255.0));
    QCOMPARE(QString::fromStdString(s.preprocessing.standardization), QString("none"));
  }

  void idxFilesThatLieAreRefused_data() {
    QTest::addColumn<QString>("damage");
    QTest::addColumn<QString>("expected");
    QTest::newRow("more images than labels") << "extra" << "image and label counts differ: ";
    QTest::newRow("label outside the classes") << "label" << "label 5 (0-based) is 10, outside the dataset's 10 classes";
  }

  void idxFilesThatLieAreRefused() {
    QFETCH(QString, damage);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    if (damage == "extra") writeIdxFolder(d, {0, 1, 2, 3}, {1}, 2);
    else writeIdxFolder(d, {0, 1, 2, 3, 4, 10, 6, 7}, {1});
    tw::config::DataOptions o = idxOptions(d);
    o.trainLimit = 2;  // stops before the damage: the files are still checked whole
    o.valFraction = 0.5;
    const QString message = errorOf([&] { loadDataSplits(o, 1); });
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(message.contains(QString::fromStdString(d + "/train-labels-idx1-ubyte.gz")), qPrintable(message));
  }

  void fashionMnistSplitsAsBefore() {
    tw::config::DataOptions o;
    o.trainLimit = 1000;
    o.testLimit = 100;
    const DataSplits a = loadDataSplits(o, 11);
    QCOMPARE(a.train.count, int64_t(900));
    QCOMPARE(a.val.count, int64_t(100));
    QCOMPARE(a.test.count, int64_t(100));
    QCOMPARE(toQStrings(a.train.classNames), toQStrings(fashionMnistClassNames()));
    QCOMPARE(toQStrings(a.preprocessing.classNames), toQStrings(fashionMnistClassNames()));
    // The hold-out is the stratified draw from the IDX stream, as before the common path.
    const IdxLabels labels = readIdxLabels(findIdxFile(TW_FASHION_MNIST_DIR, "train-labels-idx1-ubyte"), 1000);
    const SplitIndices split = stratifiedSplit(std::vector<int64_t>(labels.labels.begin(), labels.labels.end()), 0.1,
                                               0.0, mixSeed(11, kIdxSplitStream));
    for (size_t k = 0; k < split.val.size(); ++k) QCOMPARE(a.val.labels[k], int64_t(labels.labels[size_t(split.val[k])]));
    // The fingerprint is the files' bytes and the options, as recorded by earlier versions.
    Fingerprint fp;
    for (const char *stem : {"train", "t10k"}) {
      const int64_t limit = std::string(stem) == "train" ? 1000 : 100;
      const IdxImages images = readIdxImages(findIdxFile(TW_FASHION_MNIST_DIR, std::string(stem) + "-images-idx3-ubyte"), limit);
      const IdxLabels l = readIdxLabels(findIdxFile(TW_FASHION_MNIST_DIR, std::string(stem) + "-labels-idx1-ubyte"), limit);
      const int64_t dims[3] = {images.count, images.rows, images.cols};
      const std::string label = std::string(stem) == "train" ? "train" : "test";
      fp.addBytes(label + "-images:dims", dims, sizeof dims);
      fp.addBytes(label + "-images", images.pixels.data(), images.pixels.size());
      fp.addBytes(label + "-labels", l.labels.data(), l.labels.size());
    }
    fp.addOption("dataset", std::string("fashion-mnist"));
    fp.addOption("train_limit", int64_t(1000));
    fp.addOption("test_limit", int64_t(100));
    fp.addOption("val_fraction", 0.1);
    fp.addOption("normalize", std::string("true"));
    fp.addOption("stratify", std::string("true"));
    fp.addOption("split_seed", int64_t(11));
    QCOMPARE(QString::fromStdString(a.fingerprint), QString::fromStdString(fp.hexDigest()));
    // One image standardisation, fitted on the training split.
    double sum = 0;
    for (float v : a.train.features) sum += v;
    QVERIFY(std::abs(sum / double(a.train.features.size())) < 1e-4);
    QCOMPARE(QString::fromStdString(a.preprocessing.standardization), QString("image"));
    QVERIFY(a.preprocessing.imageMean > 0.2 && a.preprocessing.imageMean < 0.4);
  }

  void indexInputsAreCheckedAndNeverStandardised() {
    const std::string path = file("tokens.csv", "a,b,y\n0,3,p\n1,2,q\n2,1,p\n3,0,q\n4,4,p\n1,1,q\n2,2,p\n3,3,q\n");
    tw::config::DataOptions o;
    o.dataset = "csv";
    o.path = path;
    o.target = "y";
    o.valFraction = 0.25;
    o.testFraction = 0.0;
    ModelUse use;
    use.indexInputs = true;
    use.embeddings = {{"embed", 5}};
    const DataSplits s = loadDataSplits(o, 1, use);
    for (const Examples *e : {&s.train, &s.val})
      for (float v : e->features) QVERIFY2(v == std::floor(v) && v >= 0 && v < 5, qPrintable(QString::number(v)));
    QVERIFY(s.preprocessing.indexInputs);
    QCOMPARE(QString::fromStdString(s.preprocessing.standardization), QString("none"));

    use.embeddings = {{"embed", 4}};
    QString message = errorOf([&] { loadDataSplits(o, 1, use); });
    QVERIFY2(message.contains(QString::fromStdString(path) + ": column 'a' holds 4 (example 4), outside 0..3, the "
                              "indices of Embedding 'embed' (num_embeddings 4)"),
             qPrintable(message));
    o.path = file("fractions.csv", "a,y\n0,p\n1.5,q\n2,p\n3,q\n");
    use.embeddings = {{"embed", 5}};
    message = errorOf([&] { loadDataSplits(o, 1, use); });
    QVERIFY2(message.contains("column 'a' holds 1.5 (example 1), not an integer"), qPrintable(message));
  }

  void syntheticSetsAreThePreviewsPoints() {
    tw::config::DataOptions o;
    o.dataset = "spirals";
    o.samples = 300;
    o.classes = 3;
    o.noise = 0.1;
    o.valFraction = 0.0;
    o.testFraction = 0.0;
    o.normalize = false;
    const DataSplits s = loadDataSplits(o, 42);
    // No hold-out, no scaling: the training split is the set itself, the one Studio draws.
    const Examples preview = makeSyntheticSet("spirals", 300, 3, 0.1, 42);
    QVERIFY(s.train.features == preview.features);
    QVERIFY(s.train.labels == preview.labels);
    QVERIFY(preview.features != makeSyntheticSet("spirals", 300, 3, 0.1, 43).features);
    QVERIFY(makeSyntheticSet("blobs", 30, 3, 1.0, 42).features ==
            makeBlobs(30, 3, 2, 1.0, mixSeed(42, kSyntheticStream)).features);
  }

  void splitInPlaceMatchesSelect() {
    Examples all = makeSyntheticSet("blobs", 101, 4, 1.0, 5);
    const SplitIndices split = stratifiedSplit(all.labels, 0.2, 0.1, 9);
    Examples train, val, test;
    splitInPlace(Examples(all), split.train, split.val, split.test, train, val, test);
    for (const auto &[got, indices] : {std::pair{&train, &split.train}, {&val, &split.val}, {&test, &split.test}}) {
      const Examples want = select(all, *indices);
      QCOMPARE(got->count, want.count);
      QVERIFY(got->features == want.features);
      QVERIFY(got->labels == want.labels);
    }
  }

  void classCountsWithoutTraining() {
    tw::config::DataOptions o;
    QCOMPARE(dataClassCount(o), int64_t(10));
    o.dataset = "blobs";
    o.classes = 7;
    QCOMPARE(dataClassCount(o), int64_t(7));
    o.dataset = "csv";
    o.path = file("classes.csv", "a,y\n1,p\n2,q\n3,r\n");
    o.target = "y";
    QCOMPARE(dataClassCount(o), int64_t(3));
    o.task = "regression";
    QCOMPARE(dataClassCount(o), int64_t(0));
    QVERIFY(QString::fromStdString(classSurplusWarning("logits", 12, 10))
                .startsWith("output 'logits' gives 12 class scores but the data has 10 classes"));
  }

  void preprocessingRecordAsJson() {
    const std::string path = file("houses.csv", "area,district,price\n100,north,3\n50,south,1\n,north,2\n80,east,2\n");
    tw::config::DataOptions o;
    o.dataset = "csv";
    o.path = path;
    o.target = "price";
    o.task = "regression";
    o.categorical = {"district"};
    o.missing = "mean";
    o.valFraction = 0.0;
    o.testFraction = 0.0;
    const DataSplits s = loadDataSplits(o, 1);
    const std::string json = preprocessingJson(s.preprocessing);
    const std::string expected =
        "{\n"
        "  \"dataset\": \"csv\",\n"
        "  \"task\": \"regression\",\n"
        "  \"input_shape\": [4],\n"
        "  \"index_inputs\": false,\n"
        "  \"standardization\": \"per-feature\",\n"
        "  \"feature_mean\": [76.6666641, 0, 0, 0],\n"
        "  \"feature_std\": [17.7951298, 1, 1, 1],\n"
        "  \"feature_names\": [\"area\", \"district=east\", \"district=north\", \"district=south\"],\n"
        "  \"csv_target\": \"price\",\n"
        "  \"csv_columns\": [\n"
        "    {\n"
        "      \"name\": \"area\",\n"
        "      \"kind\": \"numeric\",\n"
        "      \"offset\": 0,\n"
        "      \"fill\": 76.666666666666671\n"
        "    },\n"
        "    {\n"
        "      \"name\": \"district\",\n"
        "      \"kind\": \"categorical\",\n"
        "      \"offset\": 1,\n"
        "      \"categories\": [\"east\", \"north\", \"south\"]\n"
        "    }\n"
        "  ],\n"
        "  \"target_dim\": 1\n"
        "}\n";
    QCOMPARE(QString::fromStdString(json), QString::fromStdString(expected));
  }
};

QTEST_GUILESS_MAIN(TestDataSplits)
#include "test_data_splits.moc"
