// Every input in tests/fuzz/corpus/<harness>/ (the seeds) and tests/fuzz/regressions/<harness>/
// (what a fuzzer once crashed on) through its harness in the normal build, so a fixed crash
// stays fixed without clang. The fuzzers themselves run under packaging/fuzz.sh.

#include "tests/fuzz/fuzz_registry.h"

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <typeinfo>

namespace fs = std::filesystem;

namespace tw::fuzz {

namespace {
std::map<std::string, Harness> &table() {
  static std::map<std::string, Harness> t;
  return t;
}
}  // namespace

bool registerHarness(const char *name, Harness harness) {
  table()[name] = harness;
  return true;
}

const std::map<std::string, Harness> &harnesses() { return table(); }

}  // namespace tw::fuzz

class FuzzRegressions : public QObject {
  Q_OBJECT

private Q_SLOTS:
  void everyHarnessHasSeeds();
  void replay_data();
  void replay();
};

static const fs::path kFuzzDir = fs::path(TW_SOURCE_DIR) / "tests" / "fuzz";

// A harness without seeds would replay nothing here and start the fuzzer blind.
void FuzzRegressions::everyHarnessHasSeeds() {
  QVERIFY2(tw::fuzz::harnesses().size() >= 12, "fewer harnesses registered than the fuzz folder holds");
  for (const auto &[name, harness] : tw::fuzz::harnesses()) {
    const fs::path seeds = kFuzzDir / "corpus" / name;
    QVERIFY2(fs::is_directory(seeds) && !fs::is_empty(seeds), qPrintable(QString::fromStdString("no seeds in " + seeds.string())));
  }
}

void FuzzRegressions::replay_data() {
  QTest::addColumn<QString>("harness");
  QTest::addColumn<QString>("input");
  for (const auto &[name, harness] : tw::fuzz::harnesses()) {
    for (const char *kind : {"corpus", "regressions"}) {
      const fs::path dir = kFuzzDir / kind / name;
      if (!fs::is_directory(dir)) continue;
      for (const auto &entry : fs::directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        const std::string row = std::string(kind) + "/" + name + "/" + entry.path().filename().string();
        QTest::newRow(row.c_str()) << QString::fromStdString(name) << QString::fromStdString(entry.path().string());
      }
    }
  }
}

void FuzzRegressions::replay() {
  QFETCH(QString, harness);
  QFETCH(QString, input);
  std::ifstream in(input.toStdString(), std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  QVERIFY(in.good() || in.eof());
  try {
    tw::fuzz::harnesses().at(harness.toStdString())(reinterpret_cast<const uint8_t *>(data.data()), data.size());
  } catch (const tw::fuzz::ContractBroken &e) {
    QFAIL(e.what());
  } catch (const std::exception &e) {
    QFAIL(qPrintable(QStringLiteral("%1 escaped the reader: %2").arg(typeid(e).name(), e.what())));
  } catch (...) {
    QFAIL("a non-std exception escaped the reader");
  }
}

QTEST_GUILESS_MAIN(FuzzRegressions)
#include "test_fuzz_regressions.moc"
