// Token files read in windows (the token-file source): the splits of one file and of a folder
// with train.bin and val.bin, the windows' tokens at their offsets in both widths, the limits, and
// the files that are refused with their name: a size that is no whole number of tokens, a split
// too short for one window, a token outside the model's vocabulary, a file that shrank.
#include "core/data/data_splits.h"
#include "core/data/token_file.h"
#include "data_test_helpers.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace tw::data;
using namespace tw::data::testing;

namespace {

// Tokens 0, 1, 2, ... (mod `modulo`) as little-endian ids of `bytes` each.
std::string countingTokens(int64_t count, int bytes, int64_t modulo, int64_t offset = 0) {
  std::string out;
  for (int64_t i = 0; i < count; ++i) {
    const uint64_t v = static_cast<uint64_t>((i + offset) % modulo);
    for (int b = 0; b < bytes; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xff));
  }
  return out;
}

tw::config::DataOptions tokenOptions(const std::string &path, int64_t seqLen) {
  tw::config::DataOptions o;
  o.dataset = "token-file";
  o.path = path;
  o.seqLen = seqLen;
  o.valFraction = 0.1;
  o.testFraction = 0.1;
  return o;
}

std::vector<int64_t> window(const TokenWindows &w, int64_t k, int64_t limit = 0) {
  std::vector<int64_t> out(static_cast<size_t>(w.seqLen() + 1));
  w.read(k, out.data(), limit);
  return out;
}

}  // namespace

class TestTokenFile : public QObject, public TempFolder {
  Q_OBJECT

 private Q_SLOTS:
  // 1,000 tokens: test the last 100, validation the 100 before, train the first 800; windows
  // of 9 tokens start every 8, and each holds the file's tokens at its offset.
  void oneFileSplitsAtItsTail() {
    const std::string path = file("corpus.bin", countingTokens(1000, 2, 60000));
    const TokenFileSplits s = openTokenFile(tokenOptions(path, 8));
    QCOMPARE(s.train.firstToken(), int64_t(0));
    QCOMPARE(s.train.tokens(), int64_t(800));
    QCOMPARE(s.val.firstToken(), int64_t(800));
    QCOMPARE(s.val.tokens(), int64_t(100));
    QCOMPARE(s.test.firstToken(), int64_t(900));
    QCOMPARE(s.test.tokens(), int64_t(100));
    QCOMPARE(s.train.windows(), int64_t(99));  // (800 - 1) / 8
    QCOMPARE(s.val.windows(), int64_t(12));
    const std::vector<int64_t> w = window(s.train, 5);
    for (int64_t i = 0; i <= 8; ++i) QCOMPARE(w[size_t(i)], 40 + i);
    QCOMPARE(window(s.test, 0)[0], int64_t(900));
    QVERIFY(QString::fromStdString(s.source).contains("1,000 uint16 tokens"));
    QCOMPARE(s.fingerprint.size(), size_t(64));
  }

  // nanoGPT's layout: train.bin and val.bin, the test split held out of train.bin's tail.
  void folderWithTrainAndValBin() {
    file("gpt/train.bin", countingTokens(500, 4, 100000, 70000));
    file("gpt/val.bin", countingTokens(100, 4, 100000, 90000));
    tw::config::DataOptions o = tokenOptions(m_tmp.path().toStdString() + "/gpt", 16);
    o.tokenDtype = "uint32";
    const TokenFileSplits s = openTokenFile(o);
    QCOMPARE(s.val.tokens(), int64_t(100));
    QCOMPARE(window(s.val, 0)[0], int64_t(90000));
    QCOMPARE(s.test.tokens(), int64_t(50));
    QCOMPARE(s.train.tokens(), int64_t(450));
    QCOMPARE(window(s.train, 1)[3], int64_t(70000 + 16 + 3));  // four-byte ids above 65,535
    QCOMPARE(window(s.test, 0)[0], int64_t(70000 + 450));
  }

  void limitsKeepTheFirstWindows() {
    const std::string path = file("limits.bin", countingTokens(1000, 2, 50));
    tw::config::DataOptions o = tokenOptions(path, 8);
    o.trainLimit = 7;
    o.testLimit = 2;
    const TokenFileSplits s = openTokenFile(o);
    QCOMPARE(s.train.windows(), int64_t(7));
    QCOMPARE(s.test.windows(), int64_t(2));
    QCOMPARE(s.val.windows(), int64_t(12));
  }

  // The splits the engine gets: counts and shape only, no token read ahead of a batch.
  void dataSplitsCarryWindowsNotTokens() {
    const std::string path = file("splits.bin", countingTokens(1000, 2, 50));
    ModelUse use;
    use.indexInputs = true;
    use.embeddings = {{"embed", 50}};
    const DataSplits s = loadDataSplits(tokenOptions(path, 8), 1, use);
    QVERIFY(s.tokens);
    QCOMPARE(s.train.count, int64_t(99));
    QVERIFY(s.train.features.empty());
    QCOMPARE(s.train.featureShape, (std::vector<int64_t>{8}));
    QCOMPARE(s.train.task, Task::NextToken);
    QCOMPARE(s.preprocessing.task, Task::NextToken);
    QCOMPARE(std::string(taskName(Task::NextToken)), std::string("next-token"));
    QCOMPARE(parseTask("next-token"), Task::NextToken);
    // Float inputs cannot be token ids.
    QVERIFY(errorOf([&] { loadDataSplits(tokenOptions(path, 8), 1, ModelUse{}); }).contains("dtype: int64"));
  }

  // data.windows_per_epoch: starts drawn from (seed, position) alone, anywhere in the split (not
  // only at multiples of seq_len), and the window read there is the file's tokens from there.
  void randomWindowsStartAnywhere() {
    const std::string path = file("random.bin", countingTokens(10000, 2, 60000));
    const TokenFileSplits s = openTokenFile(tokenOptions(path, 8));  // train: tokens 0..7999
    int64_t lowest = s.train.tokens(), highest = 0, offStride = 0;
    for (int64_t p = 0; p < 2000; ++p) {
      const int64_t start = s.train.randomStart(7, p);
      QVERIFY(start >= 0 && start + 8 < s.train.tokens());
      QCOMPARE(s.train.randomStart(7, p), start);
      lowest = std::min(lowest, start);
      highest = std::max(highest, start);
      offStride += start % 8 != 0;
    }
    QVERIFY2(lowest < 200 && highest > 7790, qPrintable(QString("%1..%2").arg(lowest).arg(highest)));
    QVERIFY(offStride > 1500);
    QVERIFY(s.train.randomStart(8, 0) != s.train.randomStart(7, 0) || s.train.randomStart(8, 1) != s.train.randomStart(7, 1));
    std::vector<int64_t> w(9);
    s.train.readAt(4321, w.data());
    QCOMPARE(w[0], int64_t(4321));
    QCOMPARE(w[8], int64_t(4329));
    QVERIFY(errorOf([&] { s.train.readAt(7992, w.data()); }).contains("outside the split"));
  }

  void badFilesAreNamed() {
    const std::string odd = file("odd.bin", countingTokens(100, 2, 50) + "x");
    QString e = errorOf([&] { openTokenFile(tokenOptions(odd, 8)); });
    QVERIFY2(e.contains("odd.bin") && e.contains("201 bytes") && e.contains("16-bit"), qPrintable(e));

    const std::string shortFile = file("short.bin", countingTokens(40, 2, 50));
    e = errorOf([&] { openTokenFile(tokenOptions(shortFile, 8)); });  // 4 tokens each for val and test
    QVERIFY2(e.contains("short.bin") && e.contains("validation") && e.contains("data.seq_len + 1 = 9"), qPrintable(e));

    e = errorOf([&] { openTokenFile(tokenOptions(m_tmp.path().toStdString() + "/missing.bin", 8)); });
    QVERIFY2(e.contains("missing.bin") && e.contains("cannot open"), qPrintable(e));

    tw::config::DataOptions o = tokenOptions(odd, 8);
    o.tokenDtype = "int8";
    QVERIFY(errorOf([&] { openTokenFile(o); }).contains("data.token_dtype"));
    std::filesystem::create_directories(m_tmp.path().toStdString() + "/empty_folder");
    e = errorOf([&] { openTokenFile(tokenOptions(m_tmp.path().toStdString() + "/empty_folder", 8)); });
    QVERIFY2(e.contains("no train.bin"), qPrintable(e));
  }

  // A token the model's Embedding has no row for names the file, the token's offset and value.
  void tokenOutsideTheVocabularyIsNamed() {
    std::string bytes = countingTokens(1000, 2, 40);
    bytes[2 * 45] = 77;  // token 45 (window 5 starts at 40) becomes 77
    const std::string path = file("vocab.bin", bytes);
    const TokenFileSplits s = openTokenFile(tokenOptions(path, 8));
    QCOMPARE(window(s.train, 4, 40)[0], int64_t(32));
    const QString e = errorOf([&] { window(s.train, 5, 40); });
    QVERIFY2(e.contains("vocab.bin") && e.contains("token 45 is 77") && e.contains("0..39"), qPrintable(e));
  }

  void fileThatShrankIsNamed() {
    const std::string path = file("shrinks.bin", countingTokens(1000, 2, 50));
    const TokenFileSplits s = openTokenFile(tokenOptions(path, 8));
    std::filesystem::resize_file(path, 100);
    const QString e = errorOf([&] { window(s.train, 50); });
    QVERIFY2(e.contains("shrinks.bin") && e.contains("shrank"), qPrintable(e));
  }
};

QTEST_GUILESS_MAIN(TestTokenFile)
#include "test_token_file.moc"
