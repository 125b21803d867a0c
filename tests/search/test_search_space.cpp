// The search space's own rules (domains, conditions, text round trips) and the ask/tell study
// with the random sampler: the foundation every sampler and pruner test stands on.
#include "core/search/catalog.h"
#include "core/search/random_sampler.h"
#include "core/search/study.h"

#include <QtTest>

using namespace tw::search;

namespace {

SearchSpace issueSpace() {
  SearchSpace space;
  space.params.push_back({"train.lr", ParamType::Float, 1e-4, 0.3, true});
  ParamSpec optimizer{"train.optimizer", ParamType::Categorical};
  optimizer.choices = {"sgd", "adam"};
  space.params.push_back(optimizer);
  ParamSpec momentum{"train.momentum", ParamType::Float, 0.0, 0.95};
  momentum.when = {{"train.optimizer", {"sgd"}}};
  space.params.push_back(momentum);
  space.params.push_back({"data.batch_size", ParamType::Int, 16, 256, true});
  space.params.push_back({"model.h1.width", ParamType::Int, 32, 512, false, 32});
  return space;
}

}  // namespace

class TestSearchSpace : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void issueSpaceIsValid() { QVERIFY(checkSpace(issueSpace()).empty()); }

  void badSpacesAreNamed_data() {
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("expected");
    QTest::newRow("empty range") << 0 << "low (2) is above high (1)";
    QTest::newRow("log at zero") << 1 << "log needs low > 0";
    QTest::newRow("uneven step") << 2 << "does not divide";
    QTest::newRow("no choices") << 3 << "at least one choice";
    QTest::newRow("condition on a later key") << 4 << "not a parameter declared before it";
  }
  void badSpacesAreNamed() {
    QFETCH(int, which);
    QFETCH(QString, expected);
    SearchSpace space;
    switch (which) {
      case 0: space.params.push_back({"train.lr", ParamType::Float, 2, 1}); break;
      case 1: space.params.push_back({"train.lr", ParamType::Float, 0, 1, true}); break;
      case 2: space.params.push_back({"model.h1.width", ParamType::Int, 32, 500, false, 32}); break;
      case 3: space.params.push_back({"train.optimizer", ParamType::Categorical}); break;
      case 4: {
        ParamSpec m{"train.momentum", ParamType::Float, 0, 1};
        m.when = {{"train.optimizer", {"sgd"}}};
        space.params.push_back(m);
        break;
      }
    }
    const auto problems = checkSpace(space);
    QCOMPARE(problems.size(), size_t(1));
    QVERIFY2(QString::fromStdString(problems[0]).contains(expected), problems[0].c_str());
  }

  void valuesRoundTripThroughText() {
    const SearchSpace space = issueSpace();
    Rng rng(3);
    for (int i = 0; i < 200; ++i) {
      for (const auto &spec : space.params) {
        const double value = sampleRandomValue(spec, rng);
        double back = -1;
        QVERIFY2(parseValue(spec, valueText(spec, value), &back), valueText(spec, value).c_str());
        QCOMPARE(back, value);
        QVERIFY(toUnit(spec, value) >= 0.0 && toUnit(spec, value) <= 1.0);
        QCOMPARE(fromUnit(spec, toUnit(spec, value)), value);
      }
    }
    double v;
    QVERIFY(!parseValue(*space.find("model.h1.width"), "40", &v));   // off the step
    QVERIFY(!parseValue(*space.find("train.lr"), "0.5", &v));        // above high
    QVERIFY(!parseValue(*space.find("train.optimizer"), "lbfgs", &v));
    QCOMPARE(cardinality(*space.find("model.h1.width")), 16LL);
    QCOMPARE(displayText("0.0035197742858638"), std::string("0.00352"));
    QCOMPARE(displayText("10000"), std::string("10000"));  // ints stay whole
    QCOMPARE(displayText("adam"), std::string("adam"));
  }

  void randomStudyHonoursConditionsAndIsReproducible() {
    auto run = [](uint64_t seed) {
      Study study(issueSpace(), {Direction::Minimize}, findSampler("random")->make({}), nullptr, seed);
      for (int i = 0; i < 40; ++i) {
        const Trial &t = study.ask();
        const bool sgd = valueText(*study.space().find("train.optimizer"), t.params.at("train.optimizer")) == "sgd";
        if (sgd != (t.params.count("train.momentum") == 1)) return std::vector<Trial>{};
        study.tell(t.number, {t.params.at("train.lr")});
      }
      return study.trials();
    };
    const auto a = run(7), b = run(7), c = run(8);
    QCOMPARE(a.size(), size_t(40));
    for (size_t i = 0; i < a.size(); ++i) QCOMPARE(a[i].params, b[i].params);
    QVERIFY(a[0].params != c[0].params);
  }

  void optionsAreCheckedByName() {
    std::vector<OptionSpec> specs = {{"n_startup_trials", OptionKind::Int, "10", 0.0, std::nullopt},
                                     {"multivariate", OptionKind::Bool, "false"}};
    QVERIFY(checkOptions(specs, {{"n_startup_trials", "5"}, {"multivariate", "true"}}).empty());
    auto problems = checkOptions(specs, {{"n_startup", "5"}, {"multivariate", "maybe"}, {"n_startup_trials", "-1"}});
    QCOMPARE(problems.size(), size_t(3));
    const OptionValues given = {{"multivariate", "true"}};
    OptionReader reader(specs, given);
    QCOMPARE(reader.integer("n_startup_trials"), int64_t(10));
    QVERIFY(reader.flag("multivariate"));
  }
};

QTEST_APPLESS_MAIN(TestSearchSpace)
#include "test_search_space.moc"
