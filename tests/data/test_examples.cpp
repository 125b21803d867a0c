// Examples: subsets by index and the data fingerprint the engine records with every run.
#include "core/data/examples.h"
#include "data_test_helpers.h"

#include <QtTest>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

Examples regressionSet() {
  Examples e;
  e.task = Task::Regression;
  e.count = 3;
  e.featureShape = {2};
  e.features = {0, 1, 10, 11, 20, 21};
  e.targetDim = 2;
  e.targets = {0.5f, 0.6f, 1.5f, 1.6f, 2.5f, 2.6f};
  e.featureNames = {"a", "b"};
  return e;
}

std::string digest(const Examples &e, const std::string &label = "train") {
  Fingerprint fp;
  addToFingerprint(fp, label, e);
  return fp.hexDigest();
}

}  // namespace

class TestExamples : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void selectKeepsTheOrderGiven() {
    const Examples all = regressionSet();
    const Examples picked = select(all, {2, 0, 2});
    QCOMPARE(picked.count, int64_t(3));
    QCOMPARE(picked.features, std::vector<float>({20, 21, 0, 1, 20, 21}));
    QCOMPARE(picked.targets, std::vector<float>({2.5f, 2.6f, 0.5f, 0.6f, 2.5f, 2.6f}));
    QCOMPARE(picked.task, Task::Regression);
    QCOMPARE(picked.targetDim, int64_t(2));
    QCOMPARE(picked.featureNames, all.featureNames);
    QVERIFY(picked.labels.empty());

    Examples images;
    images.count = 2;
    images.featureShape = {1, 2, 2};
    images.features = {1, 2, 3, 4, 5, 6, 7, 8};
    images.labels = {0, 1};
    images.classes = 2;
    images.classNames = {"cat", "dog"};
    const Examples second = select(images, {1});
    QCOMPARE(second.featureSize(), int64_t(4));
    QCOMPARE(second.features, std::vector<float>({5, 6, 7, 8}));
    QCOMPARE(second.labels, std::vector<int64_t>({1}));
    QCOMPARE(second.classNames, images.classNames);
    QCOMPARE(select(images, {}).count, int64_t(0));

    const QString message = errorOf([&] { select(all, {0, 3}); });
    QVERIFY2(message.contains("index 3 is outside 0..2"), qPrintable(message));
  }

  void fingerprintSeesEveryPart() {
    const Examples base = regressionSet();
    QCOMPARE(digest(base).size(), size_t(64));
    QCOMPARE(digest(base), digest(regressionSet()));
    QVERIFY(digest(base) != digest(base, "val"));

    Examples feature = base;
    feature.features[3] = 11.5f;
    Examples target = base;
    target.targets[5] = 2.7f;
    Examples shape = base;  // the same bytes seen as 2 examples of 3 features
    shape.featureShape = {3};
    shape.count = 2;
    Examples names = base;
    names.featureNames = {"a", "c"};
    Examples task = base;
    task.task = Task::Classification;
    for (const Examples *changed : {&feature, &target, &shape, &names, &task})
      QVERIFY(digest(*changed) != digest(base));

    Examples labels;
    labels.count = 2;
    labels.featureShape = {1};
    labels.features = {1, 2};
    labels.labels = {0, 1};
    Examples swapped = labels;
    swapped.labels = {1, 0};
    QVERIFY(digest(labels) != digest(swapped));
  }

  void taskNames() {
    QCOMPARE(parseTask("regression"), Task::Regression);
    QCOMPARE(QString(taskName(parseTask("classification"))), QString("classification"));
    QVERIFY(errorOf([] { parseTask("ranking"); }).contains("use classification, regression or next-token"));
  }
};

QTEST_GUILESS_MAIN(TestExamples)
#include "test_examples.moc"
