// Seeded train/validation/test splits: exact sizes, determinism (pinned values, so a change of
// generator or shuffle shows), stratification within one example per class, and the errors.
#include "core/data/random.h"
#include "core/data/splits.h"
#include "data_test_helpers.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

using Ints = std::vector<int64_t>;

// The three parts are sorted, disjoint, and together exactly 0..n-1.
bool partitions(const SplitIndices &s, int64_t n) {
  for (const Ints *part : {&s.train, &s.val, &s.test})
    if (!std::is_sorted(part->begin(), part->end())) return false;
  Ints all = s.train;
  all.insert(all.end(), s.val.begin(), s.val.end());
  all.insert(all.end(), s.test.begin(), s.test.end());
  std::sort(all.begin(), all.end());
  if (int64_t(all.size()) != n) return false;
  for (int64_t i = 0; i < n; ++i)
    if (all[size_t(i)] != i) return false;
  return true;
}

int64_t countOf(const Ints &part, const Ints &labels, int64_t label) {
  return std::count_if(part.begin(), part.end(), [&](int64_t i) { return labels[size_t(i)] == label; });
}

Ints labelsWithSizes(const Ints &sizes) {
  // Interleaved, not in blocks, so a split that ignored the labels would not look stratified.
  Ints labels;
  Ints left = sizes;
  for (bool any = true; any;) {
    any = false;
    for (size_t c = 0; c < left.size(); ++c)
      if (left[c] > 0) {
        labels.push_back(int64_t(c));
        --left[c];
        any = true;
      }
  }
  return labels;
}

}  // namespace

class TestSplits : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void exactSizes_data() {
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("val");
    QTest::addColumn<double>("test");
    QTest::addColumn<qint64>("trainSize");
    QTest::addColumn<qint64>("valSize");
    QTest::addColumn<qint64>("testSize");
    QTest::newRow("100 at 0.1/0.2") << qint64(100) << 0.1 << 0.2 << qint64(70) << qint64(10) << qint64(20);
    QTest::newRow("rounds half up") << qint64(10) << 0.0 << 0.25 << qint64(7) << qint64(0) << qint64(3);
    QTest::newRow("small") << qint64(7) << 0.15 << 0.15 << qint64(5) << qint64(1) << qint64(1);
    QTest::newRow("no holdout") << qint64(5) << 0.0 << 0.0 << qint64(5) << qint64(0) << qint64(0);
    QTest::newRow("thirds") << qint64(1000) << 0.333 << 0.333 << qint64(334) << qint64(333) << qint64(333);
  }

  void exactSizes() {
    QFETCH(qint64, n);
    QFETCH(double, val);
    QFETCH(double, test);
    QFETCH(qint64, trainSize);
    QFETCH(qint64, valSize);
    QFETCH(qint64, testSize);
    const SplitIndices s = splitIndices(n, val, test, 1);
    QCOMPARE(qint64(s.train.size()), trainSize);
    QCOMPARE(qint64(s.val.size()), valSize);
    QCOMPARE(qint64(s.test.size()), testSize);
    QVERIFY(partitions(s, n));
  }

  void sameSeedSameSplitOtherSeedOther() {
    const SplitIndices a = splitIndices(1000, 0.1, 0.2, 42);
    const SplitIndices b = splitIndices(1000, 0.1, 0.2, 42);
    const SplitIndices c = splitIndices(1000, 0.1, 0.2, 43);
    QVERIFY(a.train == b.train && a.val == b.val && a.test == b.test);
    QVERIFY(a.val != c.val);
    QVERIFY(a.test != c.test);
    QVERIFY(partitions(a, 1000) && partitions(c, 1000));
    // Not a prefix/suffix cut: the held-out examples come from all over.
    QVERIFY(a.test.front() < 100 && a.test.back() > 900);
  }

  void pinnedSplitsAreTheSameEverywhere() {
    // Only mt19937_64 (fixed by the standard) and our own Fisher-Yates: these values must never
    // change, on any platform, or old runs stop being reproducible.
    const SplitIndices s = splitIndices(10, 0.2, 0.2, 42);
    QCOMPARE(s.train, Ints({2, 3, 4, 5, 6, 8}));
    QCOMPARE(s.val, Ints({0, 9}));
    QCOMPARE(s.test, Ints({1, 7}));
    const SplitIndices t = stratifiedSplit({0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2}, 0.25, 0.25, 7);
    QCOMPARE(t.train, Ints({0, 2, 4, 5, 6, 8}));
    QCOMPARE(t.val, Ints({3, 7, 11}));
    QCOMPARE(t.test, Ints({1, 9, 10}));
  }

  void stratificationKeepsProportions_data() {
    QTest::addColumn<QList<qint64>>("classSizes");
    QTest::addColumn<double>("val");
    QTest::addColumn<double>("test");
    QTest::newRow("imbalanced") << QList<qint64>({600, 300, 90, 10}) << 0.1 << 0.2;
    QTest::newRow("awkward sizes") << QList<qint64>({7, 5, 3, 1}) << 0.2 << 0.2;
    QTest::newRow("many small classes") << QList<qint64>({3, 3, 3, 3, 3, 3, 3, 2, 2, 1}) << 0.3 << 0.3;
    QTest::newRow("a class of one") << QList<qint64>({50, 1}) << 0.45 << 0.45;
    QTest::newRow("val only") << QList<qint64>({13, 29, 41}) << 0.17 << 0.0;
  }

  void stratificationKeepsProportions() {
    QFETCH(QList<qint64>, classSizes);
    QFETCH(double, val);
    QFETCH(double, test);
    const Ints sizes(classSizes.begin(), classSizes.end());
    const Ints labels = labelsWithSizes(sizes);
    const int64_t n = int64_t(labels.size());
    for (uint64_t seed : {1u, 2u, 3u, 99u}) {
      const SplitIndices s = stratifiedSplit(labels, val, test, seed);
      QVERIFY(partitions(s, n));
      QCOMPARE(int64_t(s.val.size()), int64_t(std::llround(n * val)));
      QCOMPARE(int64_t(s.test.size()), int64_t(std::llround(n * test)));
      for (size_t c = 0; c < sizes.size(); ++c) {
        const double nc = double(sizes[c]);
        QVERIFY2(std::abs(countOf(s.val, labels, int64_t(c)) - nc * val) < 1.0 + 1e-9,
                 qPrintable(QString("class %1 val %2 of %3").arg(c).arg(countOf(s.val, labels, int64_t(c))).arg(nc)));
        QVERIFY2(std::abs(countOf(s.test, labels, int64_t(c)) - nc * test) < 1.0 + 1e-9,
                 qPrintable(QString("class %1 test %2 of %3").arg(c).arg(countOf(s.test, labels, int64_t(c))).arg(nc)));
      }
    }
    const SplitIndices a = stratifiedSplit(labels, val, test, 5), b = stratifiedSplit(labels, val, test, 5);
    QVERIFY(a.val == b.val && a.test == b.test);
  }

  void stratifiedSeedMatters() {
    const Ints labels = labelsWithSizes({500, 500});
    QVERIFY(stratifiedSplit(labels, 0.1, 0.1, 1).test != stratifiedSplit(labels, 0.1, 0.1, 2).test);
  }

  void errorsGiveTheNumbers_data() {
    QTest::addColumn<qint64>("n");
    QTest::addColumn<double>("val");
    QTest::addColumn<double>("test");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty validation") << qint64(5) << 0.05 << 0.2 << "the validation split would be empty: data.val_fraction 0.05 of 5 examples rounds to 0";
    QTest::newRow("empty test") << qint64(8) << 0.25 << 0.01 << "the test split would be empty: data.test_fraction 0.01 of 8 examples rounds to 0";
    QTest::newRow("nothing to train") << qint64(4) << 0.5 << 0.5 << "nothing is left for training: 2 validation + 2 test of 4 examples";
    QTest::newRow("fraction 1") << qint64(10) << 1.0 << 0.0 << "data.val_fraction 1 is outside [0, 1)";
    QTest::newRow("negative") << qint64(10) << 0.1 << -0.1 << "data.test_fraction -0.1 is outside [0, 1)";
    QTest::newRow("no examples") << qint64(0) << 0.1 << 0.1 << "cannot split 0 examples";
  }

  void errorsGiveTheNumbers() {
    QFETCH(qint64, n);
    QFETCH(double, val);
    QFETCH(double, test);
    QFETCH(QString, expected);
    const QString plain = errorOf([&] { splitIndices(n, val, test, 1); });
    QVERIFY2(plain.contains(expected), qPrintable(plain));
    const QString stratified = errorOf([&] { stratifiedSplit(Ints(size_t(n), 0), val, test, 1); });
    QVERIFY2(stratified.contains(expected), qPrintable(stratified));
  }

  void negativeLabelIsAnError() {
    const QString message = errorOf([] { stratifiedSplit({0, 1, -1, 0}, 0.25, 0.0, 1); });
    QVERIFY2(message.contains("example 2 has label -1"), qPrintable(message));
  }

  void randomHelpersAreUniformEnough() {
    std::mt19937_64 rng(3);
    std::vector<int> hits(6, 0);
    for (int i = 0; i < 60000; ++i) hits[size_t(uniformBelow(rng, 6))]++;
    for (int h : hits) QVERIFY2(h > 9500 && h < 10500, qPrintable(QString::number(h)));
    double sum = 0, sq = 0;
    for (int i = 0; i < 100000; ++i) {
      const double z = standardNormal(rng);
      sum += z;
      sq += z * z;
    }
    QVERIFY(std::abs(sum / 100000) < 0.02);
    QVERIFY(std::abs(sq / 100000 - 1.0) < 0.02);
    Ints order = {0, 1, 2, 3, 4, 5, 6, 7};
    shuffleIndices(order, rng);
    Ints sorted = order;
    std::sort(sorted.begin(), sorted.end());
    QCOMPARE(sorted, Ints({0, 1, 2, 3, 4, 5, 6, 7}));
    QVERIFY(order != sorted);
  }
};

QTEST_GUILESS_MAIN(TestSplits)
#include "test_splits.moc"
