// Standardisation fitted on the training split only, applied to every split; one-hot columns kept.
#include "core/data/csv_reader.h"
#include "core/data/splits.h"
#include "core/data/standardize.h"
#include "data_test_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <string>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

// count x 2 features: column 0 = i, column 1 = constant 5.
Examples ramp(int64_t count) {
  Examples e;
  e.count = count;
  e.featureShape = {2};
  for (int64_t i = 0; i < count; ++i) {
    e.features.push_back(float(i));
    e.features.push_back(5.0f);
    e.labels.push_back(i % 2);
  }
  e.classes = 2;
  return e;
}

}  // namespace

class TestStandardize : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fitsOnTrainingRowsOnly() {
    Examples all = ramp(100);
    // Outliers in rows that end up in the test split must not move the statistics.
    const SplitIndices split = splitIndices(100, 0.0, 0.2, 11);
    for (int64_t i : split.test) all.features[size_t(i * 2)] = 1e6f;
    Examples train = select(all, split.train);
    Examples test = select(all, split.test);

    double mean = 0, var = 0;
    for (int64_t i : split.train) mean += double(i);
    mean /= double(split.train.size());
    for (int64_t i : split.train) var += (double(i) - mean) * (double(i) - mean);
    const double sd = std::sqrt(var / double(split.train.size()));

    const Standardizer s = Standardizer::fit(train);
    QCOMPARE(s.mean.size(), size_t(2));
    QVERIFY(std::abs(s.mean[0] - mean) < 1e-4);
    QVERIFY(std::abs(s.stddev[0] - sd) < 1e-4);
    QCOMPARE(s.mean[1], 5.0f);
    QCOMPARE(s.stddev[1], 1.0f);  // constant column: no division by zero

    s.apply(train);
    s.apply(test);
    double trainMean = 0, trainSq = 0;
    for (int64_t i = 0; i < train.count; ++i) {
      trainMean += train.features[size_t(i * 2)];
      trainSq += double(train.features[size_t(i * 2)]) * train.features[size_t(i * 2)];
      QCOMPARE(train.features[size_t(i * 2 + 1)], 0.0f);
    }
    QVERIFY(std::abs(trainMean / double(train.count)) < 1e-5);
    QVERIFY(std::abs(trainSq / double(train.count) - 1.0) < 1e-4);
    // Test rows are scaled with the training statistics, outliers and all.
    QVERIFY(std::abs(test.features[0] - float((1e6 - mean) / sd)) < 1.0f);
  }

  void oneHotColumnsStayZeroOrOne() {
    QTemporaryDir tmp;
    const std::string path = tmp.path().toStdString() + "/t.csv";
    writeText(path, "size,color,y\n1,red,a\n2,blue,b\n3,red,a\n4,blue,b\n10,red,a\n");
    CsvOptions options;
    options.target = "y";
    options.categorical = {"color"};
    CsvTable table = readCsv(path, options);
    const Standardizer s = Standardizer::fit(table.examples, &table.numericColumns);
    QCOMPARE(s.mean, std::vector<float>({4.0f, 0.0f, 0.0f}));
    QCOMPARE(s.stddev[1], 1.0f);
    QCOMPARE(s.stddev[2], 1.0f);
    s.apply(table.examples);
    QCOMPARE(table.examples.features[1], 0.0f);  // row 0: color=blue
    QCOMPARE(table.examples.features[2], 1.0f);  // row 0: color=red
    QVERIFY(std::abs(table.examples.features[0] - float((1 - 4) / std::sqrt(10.0))) < 1e-6);
  }

  void imagesShareOneMeanAndStd() {
    Examples train;
    train.count = 2;
    train.featureShape = {1, 1, 2};
    train.features = {0.0f, 0.5f, 0.5f, 1.0f};
    const ImageStandardizer s = ImageStandardizer::fit(train);
    QCOMPARE(s.mean, 0.5);
    QCOMPARE(s.stddev, std::sqrt(0.125));
    Examples test = train;
    s.apply(test);
    QCOMPARE(test.features[0], float(-0.5 / std::sqrt(0.125)));
    QCOMPARE(test.features[1], 0.0f);
    // Blank images: nothing to divide by, so they are only centred.
    train.features.assign(4, 0.25f);
    QCOMPARE(ImageStandardizer::fit(train).stddev, 1.0);
  }

  void mismatchesAreErrors() {
    const Examples e = ramp(4);
    const std::vector<bool> wrong = {true};
    QVERIFY(errorOf([&] { Standardizer::fit(e, &wrong); }).contains("1 column flags for 2 features"));
    QVERIFY(errorOf([&] { Standardizer::fit(ramp(0)); }).contains("the training split is empty"));
    Examples other;
    other.count = 1;
    other.featureShape = {3};
    other.features = {1, 2, 3};
    const Standardizer s = Standardizer::fit(e);
    QVERIFY(errorOf([&] { s.apply(other); }).contains("fitted on 2 features, applied to 3"));
  }
};

QTEST_GUILESS_MAIN(TestStandardize)
#include "test_standardize.moc"
