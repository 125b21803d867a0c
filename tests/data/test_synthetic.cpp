// The demo sets: same seed, same examples (pinned values); shapes and labels; and data that is
// actually learnable (a nearest-neighbour check), so a broken generator cannot pass as noise.
#include "core/data/synthetic.h"
#include "data_test_helpers.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

// Leave-one-out 1-nearest-neighbour accuracy: high when classes occupy their own regions.
double nearestNeighbourAccuracy(const Examples &e) {
  const int64_t d = e.featureSize();
  int64_t right = 0;
  for (int64_t i = 0; i < e.count; ++i) {
    double best = std::numeric_limits<double>::max();
    int64_t bestLabel = -1;
    for (int64_t j = 0; j < e.count; ++j) {
      if (j == i) continue;
      double dist = 0;
      for (int64_t k = 0; k < d; ++k) {
        const double diff = double(e.features[size_t(i * d + k)]) - e.features[size_t(j * d + k)];
        dist += diff * diff;
      }
      if (dist < best) {
        best = dist;
        bestLabel = e.labels[size_t(j)];
      }
    }
    if (bestLabel == e.labels[size_t(i)]) ++right;
  }
  return double(right) / double(e.count);
}

void checkShape(const Examples &e, int64_t count, int64_t classes, int64_t dims) {
  QCOMPARE(e.task, Task::Classification);
  QCOMPARE(e.count, count);
  QCOMPARE(e.classes, classes);
  QCOMPARE(e.featureShape, std::vector<int64_t>{dims});
  QCOMPARE(int64_t(e.features.size()), count * dims);
  QCOMPARE(int64_t(e.labels.size()), count);
  QCOMPARE(int64_t(e.classNames.size()), classes);
  QCOMPARE(int64_t(e.featureNames.size()), dims);
  std::vector<int64_t> perClass(size_t(classes), 0);
  for (int64_t l : e.labels) {
    QVERIFY(l >= 0 && l < classes);
    perClass[size_t(l)]++;
  }
  for (int64_t n : perClass) QVERIFY(n == count / classes || n == count / classes + 1);
  for (float v : e.features) QVERIFY(std::isfinite(v));
}

}  // namespace

class TestSynthetic : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void spiralsShapesAndDeterminism() {
    const Examples a = makeSpirals(301, 3, 0.2, 42);
    checkShape(a, 301, 3, 2);
    QCOMPARE(a.featureNames, std::vector<std::string>({"x", "y"}));
    QVERIFY(a.features == makeSpirals(301, 3, 0.2, 42).features);
    QVERIFY(a.features != makeSpirals(301, 3, 0.2, 43).features);
    // Inside the unit disc: the radius runs from 0 to 1.
    for (int64_t i = 0; i < a.count; ++i)
      QVERIFY(std::hypot(a.features[size_t(2 * i)], a.features[size_t(2 * i + 1)]) <= 1.0f + 1e-6f);
  }

  void pinnedValues() {
    // Our own Box-Muller over mt19937_64: these must not move between platforms or releases.
    const Examples s = makeSpirals(300, 3, 0.2, 42);
    QVERIFY(std::abs(s.features[6] - 0.0100626089f) < 1e-6f);
    QVERIFY(std::abs(s.features[7] - -0.000879946398f) < 1e-6f);
    QVERIFY(std::abs(s.features[300] - 0.0720401928f) < 1e-6f);
    QVERIFY(std::abs(s.features[301] - -0.499886215f) < 1e-6f);
    const Examples b = makeBlobs(10, 2, 3, 1.0, 42);
    const std::vector<float> first = {4.19098568f, 2.16331959f, 4.88679075f, -8.26324368f, 9.82930946f, -9.70607281f};
    for (size_t i = 0; i < first.size(); ++i) QVERIFY(std::abs(b.features[i] - first[i]) < 1e-5f);
  }

  void cleanSpiralsLieOnTheirArms() {
    const Examples e = makeSpirals(40, 2, 0.0, 1);
    // Arm k's j-th of n points: radius j/(n-1), angle pi*k + 3*pi*radius.
    for (int64_t i = 0; i < e.count; ++i) {
      const double t = double(i / 2) / 19.0;
      const double angle = M_PI * double(i % 2) + 3.0 * M_PI * t;
      QVERIFY(std::abs(e.features[size_t(2 * i)] - t * std::cos(angle)) < 1e-5);
      QVERIFY(std::abs(e.features[size_t(2 * i + 1)] - t * std::sin(angle)) < 1e-5);
    }
  }

  void spiralsAreSeparable() {
    const Examples e = makeSpirals(600, 3, 0.1, 7);
    // The arms are interleaved but apart: a nearest neighbour almost always shares the class.
    QVERIFY2(nearestNeighbourAccuracy(e) > 0.9, qPrintable(QString::number(nearestNeighbourAccuracy(e))));
    // ...and the arms are different places, not one cloud with three labels.
    std::vector<double> mx(3, 0), my(3, 0);
    for (int64_t i = 0; i < e.count; ++i) {
      mx[size_t(e.labels[size_t(i)])] += e.features[size_t(2 * i)] / 200.0;
      my[size_t(e.labels[size_t(i)])] += e.features[size_t(2 * i + 1)] / 200.0;
    }
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b) QVERIFY(std::hypot(mx[a] - mx[b], my[a] - my[b]) > 0.05);
    // Much noise blurs them: the check above is not passed by any labelling.
    QVERIFY(nearestNeighbourAccuracy(makeSpirals(600, 3, 3.0, 7)) < 0.7);
  }

  void blobsClusterAroundTheirCentres() {
    const int64_t classes = 4, dims = 5, count = 800;
    const double spread = 0.7;
    const Examples e = makeBlobs(count, classes, dims, spread, 3);
    checkShape(e, count, classes, dims);
    QCOMPARE(e.featureNames.back(), std::string("x4"));
    QVERIFY(e.features == makeBlobs(count, classes, dims, spread, 3).features);
    QVERIFY(e.features != makeBlobs(count, classes, dims, spread, 4).features);
    // Per class and dimension: mean within the centre box, standard deviation ~ spread.
    for (int64_t k = 0; k < classes; ++k)
      for (int64_t d = 0; d < dims; ++d) {
        double sum = 0, sq = 0, n = 0;
        for (int64_t i = k; i < count; i += classes) {
          const double v = e.features[size_t(i * dims + d)];
          sum += v;
          sq += v * v;
          ++n;
        }
        const double mean = sum / n, sd = std::sqrt(sq / n - mean * mean);
        QVERIFY(mean > -10.5 && mean < 10.5);
        QVERIFY2(std::abs(sd - spread) < 0.15, qPrintable(QString::number(sd)));
      }
    QVERIFY(nearestNeighbourAccuracy(e) > 0.95);
    // The centres do not depend on the number of samples.
    const Examples fewer = makeBlobs(8, classes, dims, 0.0, 3), more = makeBlobs(12, classes, dims, 0.0, 3);
    for (size_t i = 0; i < fewer.features.size(); ++i) QCOMPARE(fewer.features[i], more.features[i]);
  }

  void badArgumentsAreErrors_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<qint64>("count");
    QTest::addColumn<qint64>("classes");
    QTest::addColumn<double>("noise");
    QTest::addColumn<qint64>("dims");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one class") << "spirals" << qint64(10) << qint64(1) << 0.1 << qint64(2) << "spirals: 1 classes (at least 2";
    QTest::newRow("too few samples") << "blobs" << qint64(2) << qint64(3) << 0.1 << qint64(2) << "blobs: 2 samples for 3 classes";
    QTest::newRow("negative noise") << "spirals" << qint64(10) << qint64(2) << -0.1 << qint64(2) << "spirals: noise -0.1 is negative";
    QTest::newRow("negative spread") << "blobs" << qint64(10) << qint64(2) << -1.0 << qint64(2) << "blobs: spread -1 is negative";
    QTest::newRow("no dimensions") << "blobs" << qint64(10) << qint64(2) << 1.0 << qint64(0) << "blobs: 0 dimensions";
  }

  void badArgumentsAreErrors() {
    QFETCH(QString, kind);
    QFETCH(qint64, count);
    QFETCH(qint64, classes);
    QFETCH(double, noise);
    QFETCH(qint64, dims);
    QFETCH(QString, expected);
    const QString message = errorOf([&] {
      if (kind == "spirals") makeSpirals(count, classes, noise, 1);
      else makeBlobs(count, classes, dims, noise, 1);
    });
    QVERIFY2(message.contains(expected), qPrintable(message));
  }
};

QTEST_GUILESS_MAIN(TestSynthetic)
#include "test_synthetic.moc"
