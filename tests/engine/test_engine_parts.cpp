// The engine's parts that need no training run: learning-rate schedules, evaluation metrics from
// counts, the losses' task checks, augmentation, atomic files, device and precision parsing.
#include "core/config/optimizer_rules.h"
#include "core/engine/atomic_file.h"
#include "core/data/image_augment.h"
#include "core/engine/dataset_cache.h"
#include "core/engine/diagnostics.h"
#include "core/engine/eval_metrics.h"
#include "core/engine/losses.h"
#include "core/engine/lr_schedule.h"
#include "core/engine/optimizer_factory.h"
#include "core/engine/precision.h"
#include "core/engine/remote_system_metrics.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace tw;

namespace {

config::TrainOptions scheduleOptions(const char *schedule) {
  config::TrainOptions o;
  o.lr = 0.1;
  o.epochs = 10;
  o.schedule = schedule;
  o.gamma = 0.5;
  return o;
}

template <typename F>
QString errorOf(F f) {
  try {
    f();
  } catch (const std::exception &e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

}  // namespace

class TestEngineParts : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // A serving worker reads the data once for trials that differ only in how they batch it.
  void datasetCacheKeepsDataThatOnlyBatchesDifferently() {
    tw::config::DataOptions options;
    options.dataset = "spirals";
    options.samples = 300;
    tw::engine::DatasetCache cache;
    const auto first = cache.load(options, 7, {});
    options.batchSize = 16;
    options.flip = 0.5;
    const auto second = cache.load(options, 7, {});
    QCOMPARE(cache.hits(), int64_t(1));
    QCOMPARE(second.train.inputs.data_ptr(), first.train.inputs.data_ptr());
    // What shapes the data is read again: another split seed, another sample count.
    const auto reseeded = cache.load(options, 8, {});
    QCOMPARE(cache.hits(), int64_t(1));
    QVERIFY(!torch::equal(reseeded.train.inputs, first.train.inputs));
    options.samples = 200;
    const auto fewer = cache.load(options, 8, {});
    QCOMPARE(cache.hits(), int64_t(1));
    QVERIFY(fewer.train.size() < reseeded.train.size());
    QVERIFY(tw::engine::datasetKey(options, 8, {}) != tw::engine::datasetKey(options, 9, {}));
  }

  void gradientNormOverEveryLayout() {
    // BLAS takes contiguous float gradients; the rest (a transposed view, doubles) goes through
    // LibTorch. Either way the norm is the whole gradient's L2 norm.
    torch::manual_seed(3);
    auto a = torch::randn({300, 70}, torch::requires_grad());
    auto b = torch::randn({70}, torch::requires_grad());
    auto c = torch::randn({5, 4}, torch::dtype(torch::kDouble).requires_grad(true));
    auto unused = torch::randn({3}, torch::requires_grad());  // no gradient: left out
    a.mutable_grad() = torch::randn({300, 70});
    b.mutable_grad() = torch::randn({70, 2}).t()[0];  // a strided view
    c.mutable_grad() = torch::randn({5, 4}, torch::kDouble);
    double expected = 0.0;
    for (const auto &g : {a.grad(), b.grad(), c.grad()}) expected += g.to(torch::kDouble).pow(2).sum().item<double>();
    const double norm = tw::engine::gradientNorm({a, b, c, unused});
    QVERIFY2(std::abs(norm - std::sqrt(expected)) < 1e-5 * std::sqrt(expected), qPrintable(QString::number(norm)));
    QCOMPARE(tw::engine::gradientNorm({unused}), 0.0);
  }

  void systemSamplesTravelAsText() {
    using tw::engine::decodeSystemSample;
    const std::string text = tw::engine::encodeSystemSample(1700000000123, {{"cpu_percent", 97.5}, {"rss_mb", 812.25}});
    int64_t time = 0;
    std::vector<std::pair<std::string, double>> values;
    QVERIFY(decodeSystemSample(text, &time, &values));
    QCOMPARE(time, int64_t(1700000000123));
    QCOMPARE(values.size(), size_t(2));
    QCOMPARE(values[0].first, std::string("cpu_percent"));
    QCOMPARE(values[1].second, 812.25);
    values.clear();
    QVERIFY(decodeSystemSample("time_ms=5;bad;=3;gpu=x;threads=12", &time, &values));  // junk skipped
    QCOMPARE(values.size(), size_t(1));
    QCOMPARE(values[0].first, std::string("threads"));
    QVERIFY(!decodeSystemSample("cpu_percent=3", &time, &values));  // no time: not a sample
    // Who samples for whom: ranks on other machines, and rank 0 when there are such ranks.
    tw::dist::DistEnv env;
    env.worldSize = 4;
    env.localWorldSize = 2;
    QVERIFY(tw::engine::RemoteSystemMetrics::needed(env));  // rank 0 of 2 machines
    env.rank = 1;
    env.localRank = 1;
    QVERIFY(!tw::engine::RemoteSystemMetrics::needed(env));  // its launcher samples it
    env.rank = 2;
    env.localRank = 0;
    env.nodeRank = 1;
    QVERIFY(tw::engine::RemoteSystemMetrics::needed(env));
    env = {};
    env.worldSize = 2;
    env.localWorldSize = 2;
    QVERIFY(!tw::engine::RemoteSystemMetrics::needed(env));  // one machine
  }

  void epochSchedules() {
    // 100 steps an epoch; epochs are 1-based, PyTorch's per-epoch semantics.
    config::TrainOptions o = scheduleOptions("step");
    o.stepSize = 3;
    engine::LrSchedule step(o, 100);
    QCOMPARE(step.rate(0, 1), 0.1);
    QCOMPARE(step.rate(250, 3), 0.1);
    QCOMPARE(step.rate(300, 4), 0.05);
    QCOMPARE(step.rate(700, 7), 0.025);

    o = scheduleOptions("multistep");
    o.milestones = {2, 5};
    engine::LrSchedule multi(o, 100);
    QCOMPARE(multi.rate(0, 2), 0.1);
    QCOMPARE(multi.rate(0, 3), 0.05);
    QCOMPARE(multi.rate(0, 6), 0.025);

    engine::LrSchedule exponential(scheduleOptions("exponential"), 100);
    QCOMPARE(exponential.rate(0, 1), 0.1);
    QCOMPARE(exponential.rate(0, 3), 0.025);
  }

  void stepSchedules() {
    config::TrainOptions o = scheduleOptions("cosine");
    o.minLr = 0.001;
    engine::LrSchedule cosine(o, 100);  // 1000 steps in all
    QCOMPARE(cosine.rate(0, 1), 0.1);
    QVERIFY(std::abs(cosine.rate(500, 6) - (0.001 + 0.099 * 0.5)) < 1e-12);
    QVERIFY(std::abs(cosine.rate(1000, 10) - 0.001) < 1e-12);

    // Warm-up: linear over the first 10 steps, then the cosine over the remaining 990.
    o.warmupSteps = 10;
    engine::LrSchedule warm(o, 100);
    QVERIFY(std::abs(warm.rate(0, 1) - 0.01) < 1e-12);
    QVERIFY(std::abs(warm.rate(4, 1) - 0.05) < 1e-12);
    QCOMPARE(warm.rate(10, 1), 0.1);

    o = scheduleOptions("onecycle");
    o.pctStart = 0.3;
    engine::LrSchedule one(o, 100);
    QVERIFY(std::abs(one.rate(0, 1) - 0.1 / 25) < 1e-12);       // starts at lr / 25
    QVERIFY(std::abs(one.rate(300, 4) - 0.1) < 1e-12);          // peaks at pct_start
    QVERIFY(one.rate(150, 2) > 0.1 / 25 && one.rate(150, 2) < 0.1);
    QVERIFY(std::abs(one.rate(1000, 10) - 0.1 / 25 / 1e4) < 1e-12);  // ends at lr / 25 / 1e4
  }

  void plateauSchedule() {
    config::TrainOptions o = scheduleOptions("plateau");
    o.plateauPatience = 1;
    o.minLr = 0.02;
    engine::LrSchedule plateau(o, 10);
    plateau.endOfEpoch(1.0, true);
    plateau.endOfEpoch(0.9, true);  // improved
    QCOMPARE(plateau.rate(0, 3), 0.1);
    plateau.endOfEpoch(0.95, true);  // 1 bad epoch: within patience
    QCOMPARE(plateau.rate(0, 4), 0.1);
    plateau.endOfEpoch(0.95, true);  // 2 bad epochs: decay
    QCOMPARE(plateau.rate(0, 5), 0.05);
    for (int i = 0; i < 10; ++i) plateau.endOfEpoch(1.0, true);
    QCOMPARE(plateau.rate(0, 20), 0.02);  // floored at min_lr
    // Its state survives a checkpoint.
    engine::LrSchedule restored(o, 10);
    restored.restore(plateau.plateau());
    QCOMPARE(restored.rate(0, 20), plateau.rate(0, 20));
  }

  void classificationReport() {
    // 3 classes; truth 0: 8 right, 2 as class 1; truth 1: 5 right, 5 as 2; truth 2: 10 right.
    // The scores themselves are metrics::classScores' (tests/metrics); the report adds top-k.
    engine::ClassificationCounts counts(3, 2);
    std::vector<int64_t> matrix = {8, 2, 0, 0, 5, 5, 0, 0, 10};
    counts.addMatrix(matrix, 27);
    const engine::ClassificationReport r = counts.report();
    QCOMPARE(r.confusion, matrix);
    QCOMPARE(r.examples, int64_t(30));
    QVERIFY(std::abs(r.topK - 27.0 / 30) < 1e-12);
    const tw::metrics::ClassScores scores = tw::metrics::classScores(matrix, 3);
    QCOMPARE(r.accuracy, scores.accuracy);
    QCOMPARE(r.macroF1, scores.macroF1);
    QCOMPARE(r.weightedPrecision, scores.weightedPrecision);
    QCOMPARE(r.perClass[1].precision, scores.perClass[1].precision);
    const std::string csv = engine::confusionCsv(r, {"a", "b,c", "d"});
    QVERIFY2(csv.find("truth\\predicted,a,\"b,c\",d\na,8,2,0\n") == 0, csv.c_str());
    QVERIFY(engine::classReportCsv(r, {}).find("macro avg,") != std::string::npos);
    QCOMPARE(engine::ClassificationCounts(3, 1).report().topK, 0.0);  // no examples: no 0/0
  }

  void regressionReport() {
    engine::RegressionSums sums;
    const double truth[4] = {1, 2, 3, 4}, predicted[4] = {1.5, 2, 2.5, 4};
    for (int i = 0; i < 4; ++i) sums.add(truth[i], predicted[i]);
    const engine::RegressionReport r = sums.report(4);
    QVERIFY(std::abs(r.mse - 0.125) < 1e-12);
    QVERIFY(std::abs(r.mae - 0.25) < 1e-12);
    QVERIFY(std::abs(r.r2 - (1.0 - 0.5 / 5.0)) < 1e-12);
  }

  void sgdFollowsTheNesterovRule() {
    // The factory applies config::nesterovProblem (the rule every check asks) and the dampening
    // Nesterov momentum needs.
    std::vector<torch::Tensor> params{torch::zeros({2}, torch::requires_grad())};
    config::TrainOptions o;
    o.optimizer = "sgd";
    o.nesterov = true;
    o.momentum = 0.0;
    QCOMPARE(errorOf([&] { engine::makeOptimizer(params, o); }),
             QString::fromStdString(config::nesterovProblem(o)));
    o.momentum = 0.9;
    auto sgd = engine::makeOptimizer(params, o);
    const auto &options = static_cast<const torch::optim::SGDOptions &>(sgd->param_groups().front().options());
    QVERIFY(options.nesterov());
    QCOMPARE(options.momentum(), 0.9);
    QCOMPARE(options.dampening(), config::kSgdDampening);
  }

  void lossesCheckTheTask() {
    config::TrainOptions o;
    o.loss = "mse";
    QVERIFY(errorOf([&] { engine::Loss(o, engine::Task::Classification, 10); }).contains("regression loss"));
    o.loss = "cross_entropy";
    QVERIFY(errorOf([&] { engine::Loss(o, engine::Task::Regression, 0); }).contains("classification loss"));
    o.loss = "bce_with_logits";
    o.labelSmoothing = 0.1;
    QVERIFY(errorOf([&] { engine::Loss(o, engine::Task::Classification, 2); }).contains("label_smoothing"));

    // bce_with_logits with one logit for two classes, and one per class against one-hot targets.
    o.labelSmoothing = 0.0;
    engine::Loss bce(o, engine::Task::Classification, 2);
    const torch::Tensor y = torch::tensor({0, 1}, torch::kLong);
    const double binary = bce(torch::tensor({{-10.0f}, {10.0f}}), y).item<double>();
    QVERIFY(binary < 1e-3);
    const double perClass = bce(torch::tensor({{10.0f, -10.0f}, {-10.0f, 10.0f}}), y).item<double>();
    QVERIFY(perClass < 1e-3);

    // Label smoothing: a confident right answer costs more than without it.
    o.loss = "cross_entropy";
    const torch::Tensor logits = torch::tensor({{12.0f, 0.0f, 0.0f}});
    const torch::Tensor target = torch::tensor({0}, torch::kLong);
    const double plain = engine::Loss(o, engine::Task::Classification, 3)(logits, target).item<double>();
    o.labelSmoothing = 0.2;
    const double smoothed = engine::Loss(o, engine::Task::Classification, 3)(logits, target).item<double>();
    QVERIFY2(smoothed > plain + 0.5, qPrintable(QString("%1 vs %2").arg(smoothed).arg(plain)));

    o = config::TrainOptions();
    o.loss = "huber";
    o.huberDelta = 1.0;
    engine::Loss huber(o, engine::Task::Regression, 0);
    // |error| 3 > delta: 1 * (3 - 0.5) = 2.5
    QVERIFY(std::abs(huber(torch::tensor({{3.0f}}), torch::tensor({{0.0f}})).item<double>() - 2.5) < 1e-6);
  }

  void augmentationIsSeededAndShapePreserving() {
    data::AugmentOptions d;
    d.cropPadding = 2;
    d.flip = 0.5;
    d.erase = 0.5;
    QVERIFY(d.active());
    torch::manual_seed(1);
    const torch::Tensor images = torch::rand({16, 1, 28, 28});
    const auto augment = [&](const data::AugmentOptions &o, uint64_t seed) {
      torch::Tensor out = torch::empty_like(images);
      data::augmentFloatImages(images.data_ptr<float>(), 16, 1, 28, 28, o, seed, out.data_ptr<float>());
      return out;
    };
    const torch::Tensor a = augment(d, 7), b = augment(d, 7), c = augment(d, 8);
    QVERIFY(torch::equal(a, b));
    QVERIFY(!torch::equal(a, c));
    QVERIFY(!torch::equal(a, images));
    // Each example is its image shifted inside zero padding, maybe mirrored, maybe with a zero
    // rectangle: the reference below is the torch version of the same draws.
    const std::vector<data::ImageAugment> draws = data::drawAugments(d, 16, 28, 28, 7);
    const torch::Tensor padded = torch::constant_pad_nd(images, {2, 2, 2, 2}, 0.0);
    int flipped = 0, erased = 0, shifted = 0;
    for (int64_t i = 0; i < 16; ++i) {
      const data::ImageAugment &g = draws[static_cast<size_t>(i)];
      torch::Tensor expect = padded[i].slice(1, g.cropY, g.cropY + 28).slice(2, g.cropX, g.cropX + 28).clone();
      if (g.flip) expect = expect.flip({2});
      expect.slice(1, g.eraseY, g.eraseY + g.eraseHeight).slice(2, g.eraseX, g.eraseX + g.eraseWidth).zero_();
      QVERIFY2(torch::equal(a[i], expect), qPrintable(QString("example %1").arg(i)));
      flipped += g.flip;
      erased += g.eraseHeight > 0;
      shifted += g.cropY != 2 || g.cropX != 2;
    }
    QVERIFY(flipped > 0 && flipped < 16);
    QVERIFY(erased > 0 && erased < 16);
    QVERIFY(shifted > 0);
    // Flip only, probability 1: exactly the mirror image.
    data::AugmentOptions flipOnly;
    flipOnly.flip = 1.0;
    QVERIFY(torch::equal(augment(flipOnly, 3), images.flip({3})));
    QVERIFY(!data::AugmentOptions().active());
  }

  void atomicFiles() {
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/ckpt.pt";
    engine::writeFileAtomically(path, "first");
    engine::writeFileAtomically(path, "second");
    QCOMPARE(engine::readWholeFile(path), std::string("second"));
    // A temporary left by a writer killed mid-write is cleaned; the real file stays.
    engine::writeFileAtomically(dir.path().toStdString() + "/.ckpt.pt.tmp-99999", "half");
    QCOMPARE(engine::removeStaleTemporaries(dir.path().toStdString()), 1);
    QVERIFY(std::filesystem::exists(path));
    const QString error = errorOf([&] { engine::writeFileAtomically("/nonexistent-dir/x.pt", "x"); });
    QVERIFY2(error.contains("/nonexistent-dir/") && error.contains("No such file"), qPrintable(error));
  }

  void devicesAndPrecision() {
    QCOMPARE(engine::parseDevice("cpu").type(), torch::kCPU);
    QVERIFY(errorOf([] { engine::parseDevice("tpu"); }).contains("unknown device 'tpu'"));
    if (!engine::cudaBuild()) {
      const QString error = errorOf([] { engine::parseDevice("cuda:0"); });
      QVERIFY2(error.contains("needs a CUDA build of LibTorch"), qPrintable(error));
    }
    QVERIFY(errorOf([] { engine::parsePrecision("fp16", torch::kCPU); }).contains("fp16 needs a CUDA device"));
    QVERIFY(engine::parsePrecision("bf16", torch::kCPU) == engine::Precision::BF16);
    // bf16 autocast on the CPU: a matrix product comes out in bfloat16 inside the guard only.
    const torch::Tensor a = torch::rand({4, 4}), b = torch::rand({4, 4});
    {
      engine::AutocastGuard guard(engine::Precision::BF16, torch::kCPU);
      QCOMPARE(torch::mm(a, b).scalar_type(), torch::kBFloat16);
    }
    QCOMPARE(torch::mm(a, b).scalar_type(), torch::kFloat);
  }

  void gradScalerSkipsOverflowingSteps() {
    engine::GradScaler scaler(true, 1024.0);
    torch::Tensor p = torch::ones({2}, torch::requires_grad());
    (scaler.scale(p.sum())).backward();
    QVERIFY(scaler.unscale({p}));
    QVERIFY(torch::allclose(p.grad(), torch::ones({2})));  // unscaled back to the true gradient
    scaler.update(true);
    p.mutable_grad().fill_(std::numeric_limits<float>::infinity());
    QVERIFY(!scaler.unscale({p}));
    scaler.update(false);
    QCOMPARE(scaler.scaleValue(), 512.0);
  }
};

QTEST_GUILESS_MAIN(TestEngineParts)
#include "test_engine_parts.moc"
