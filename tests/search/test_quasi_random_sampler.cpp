// Sobol and Halton sequences: the stratification that makes them low-discrepancy, the scramble's
// determinism per seed, and trial n taking point n (an exact resume).
#include "core/search/catalog.h"
#include "core/search/quasi_random_sampler.h"
#include "core/search/study.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace tw::search;

namespace {

// Whether the first base^k points put exactly one point in each of base^k cells of axis d.
bool stratifies(const std::vector<std::vector<double>> &points, int d, long cells) {
  std::vector<int> count(static_cast<size_t>(cells), 0);
  for (const auto &p : points) {
    const double x = p[static_cast<size_t>(d)];
    if (!(x >= 0 && x < 1)) return false;
    // Unscrambled points sit on cell edges exactly; a rounding below an edge is not a miss.
    const auto cell = static_cast<size_t>(std::floor(x * static_cast<double>(cells) + 1e-9));
    if (cell >= count.size()) return false;
    ++count[cell];
  }
  for (int c : count)
    if (c != 1) return false;
  return true;
}

}  // namespace

class TestQuasiRandomSampler : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void sobolFirstPointsAsPublished() {
    // SciPy's Sobol(d=2, scramble=False) starts 0, 1/2, then (3/4, 1/4), (1/4, 3/4).
    QCOMPARE(sobolPoint(0, 2, false, 0), (std::vector<double>{0.0, 0.0}));
    QCOMPARE(sobolPoint(1, 2, false, 0), (std::vector<double>{0.5, 0.5}));
    QCOMPARE(sobolPoint(2, 2, false, 0), (std::vector<double>{0.75, 0.25}));
    QCOMPARE(sobolPoint(3, 2, false, 0), (std::vector<double>{0.25, 0.75}));
  }

  void sobolStratifiesEveryAxis_data() {
    QTest::addColumn<bool>("scramble");
    QTest::newRow("plain") << false;
    QTest::newRow("scrambled") << true;
  }
  void sobolStratifiesEveryAxis() {
    QFETCH(bool, scramble);
    const int dims = sobolMaxDimensions();
    QVERIFY(dims >= 21);
    for (int k = 1; k <= 9; ++k) {
      std::vector<std::vector<double>> points;
      for (uint64_t i = 0; i < (1u << k); ++i) points.push_back(sobolPoint(i, dims, scramble, 42));
      for (int d = 0; d < dims; ++d)
        QVERIFY2(stratifies(points, d, 1L << k), qPrintable(QString("2^%1 points, dimension %2").arg(k).arg(d)));
    }
  }

  void sobolFirstTwoAxesFormANet() {
    // The first two dimensions are a (0, k, 2)-net: every dyadic box of area 2^-k holds one point.
    const int k = 8;
    for (bool scramble : {false, true}) {
      std::vector<std::vector<double>> points;
      for (uint64_t i = 0; i < (1u << k); ++i) points.push_back(sobolPoint(i, 2, scramble, 5));
      for (int bitsX = 0; bitsX <= k; ++bitsX) {
        const long nx = 1L << bitsX, ny = 1L << (k - bitsX);
        std::vector<int> count(static_cast<size_t>(nx * ny), 0);
        for (const auto &p : points)
          ++count[static_cast<size_t>(long(std::floor(p[0] * nx + 1e-9)) * ny + long(std::floor(p[1] * ny + 1e-9)))];
        QVERIFY2(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }),
                 qPrintable(QString("boxes %1 x %2").arg(nx).arg(ny)));
      }
    }
  }

  void haltonStratifiesEveryAxis_data() { sobolStratifiesEveryAxis_data(); }
  void haltonStratifiesEveryAxis() {
    QFETCH(bool, scramble);
    const int bases[] = {2, 3, 5, 7, 11};
    for (int d = 0; d < 5; ++d) {
      long cells = 1;
      for (int k = 1; cells * bases[d] <= 2000; ++k) {
        cells *= bases[d];
        std::vector<std::vector<double>> points;
        for (long i = 0; i < cells; ++i) points.push_back(haltonPoint(static_cast<uint64_t>(i), 5, scramble, 9));
        QVERIFY2(stratifies(points, d, cells), qPrintable(QString("%1 points, dimension %2").arg(cells).arg(d)));
      }
    }
  }

  void scrambleIsSeeded() {
    QCOMPARE(sobolPoint(5, 6, true, 1), sobolPoint(5, 6, true, 1));
    QVERIFY(sobolPoint(5, 6, true, 1) != sobolPoint(5, 6, true, 2));
    QCOMPARE(haltonPoint(5, 6, true, 1), haltonPoint(5, 6, true, 1));
    QVERIFY(haltonPoint(5, 6, true, 1) != haltonPoint(5, 6, true, 2));
    QVERIFY(sobolPoint(5, 6, true, 1) != sobolPoint(5, 6, false, 1));
  }

  void trialNTakesPointN_data() {
    QTest::addColumn<QString>("type");
    QTest::newRow("sobol") << "sobol";
    QTest::newRow("halton") << "halton";
  }
  void trialNTakesPointN() {
    QFETCH(QString, type);
    SearchSpace space;
    space.params.push_back({"x", ParamType::Float, -1.0, 1.0});
    space.params.push_back({"n", ParamType::Int, 0, 63});
    ParamSpec c{"c", ParamType::Categorical};
    c.choices = {"a", "b", "c", "d"};
    space.params.push_back(c);
    const OptionValues options{{"qmc_type", type.toStdString()}};
    Study study(space, {Direction::Minimize}, findSampler("qmc")->make(options), nullptr, 3);
    for (int i = 0; i < 16; ++i) study.tell(study.ask().number, {0.0});
    // A fresh sampler given only the first 9 trials asks exactly what trial 9 got: a resume.
    std::vector<Trial> history(study.trials().begin(), study.trials().begin() + 9);
    auto again = findSampler("qmc")->make(options);
    QCOMPARE(nextTrialParams(*again, space, {Direction::Minimize}, history, 9, 3), study.trials()[9].params);
    // The first axis (base 2 in both sequences) puts the 16 trials in 16 distinct sixteenths.
    std::set<long> cells;
    for (const auto &t : study.trials()) cells.insert(static_cast<long>(std::floor((t.params.at("x") + 1) / 2 * 16)));
    QCOMPARE(cells.size(), size_t(16));
  }
};

QTEST_APPLESS_MAIN(TestQuasiRandomSampler)
#include "test_quasi_random_sampler.moc"
