// The run page's data-bound hint from a run's record: nothing below the threshold, and above it
// the settings that would help the source the run reads (cache, memory budget, decode threads,
// prefetch).
#include "core/config/metric_keys.h"
#include "ui/runs/data_bound_hint.h"

#include <QtTest>

using namespace tw;
using namespace tw::ui;

namespace {

RunSnapshot run(double dataWait, const std::map<std::string, std::string> &params, double hitRate = -1.0) {
  RunSnapshot s;
  s.latest.push_back({config::metrics::kTrainDataWait, 10, dataWait});
  if (hitRate >= 0.0) s.latest.push_back({config::metrics::kTrainCacheHitRate, 10, hitRate});
  s.params = params;
  return s;
}

}  // namespace

class TestDataBoundHint : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void quietBelowTheThreshold() {
    QVERIFY(dataBoundHint(run(0.05, {{"data.dataset", "image-folder"}})).isEmpty());
    QVERIFY(dataBoundHint(RunSnapshot{}).isEmpty());  // no data wait recorded yet
    QVERIFY(!dataBoundHint(run(kDataBoundShare, {{"data.dataset", "fashion-mnist"}})).isEmpty());
    // The README's "a fifth of its time or more": at 20% it speaks, just under it stays quiet.
    QVERIFY(!dataBoundHint(run(0.20, {{"data.dataset", "fashion-mnist"}})).isEmpty());
    QVERIFY(dataBoundHint(run(0.199, {{"data.dataset", "fashion-mnist"}})).isEmpty());
  }

  void namesWhatWouldHelp() {
    const QString uncached = dataBoundHint(run(0.6, {{"data.dataset", "image-folder"}, {"data.cache", "none"}}));
    QVERIFY2(uncached.contains("60 %"), qPrintable(uncached));
    QVERIFY2(uncached.contains("data.cache: memory"), qPrintable(uncached));
    QVERIFY2(uncached.contains("data.workers"), qPrintable(uncached));

    const QString small = dataBoundHint(run(0.4, {{"data.dataset", "image-folder"}, {"data.cache", "memory"}}, 0.25));
    QVERIFY2(small.contains("data.memory_mb") && small.contains("25 %"), qPrintable(small));
    QVERIFY2(!small.contains("data.cache: memory"), qPrintable(small));

    // A source read whole: no cache advice, and no decode threads for an IDX set.
    const QString idx = dataBoundHint(run(0.3, {{"data.dataset", "fashion-mnist"}, {"data.prefetch", "0"}}));
    QVERIFY2(idx.contains("data.prefetch") && !idx.contains("data.workers") && !idx.contains("data.cache"),
             qPrintable(idx));
  }
};

QTEST_GUILESS_MAIN(TestDataBoundHint)
#include "test_data_bound_hint.moc"
