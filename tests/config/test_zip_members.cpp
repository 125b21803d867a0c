// zipMembersProblem (core/config/zip_archive_check.h) on real files: a checkpoint Torchwright
// wrote reads whole, and the archive the checkpoint fuzzer found, whose compressed member claims
// 4 GiB from 14 bytes (LibTorch's reader allocated the claim before inflating), is refused.
#include "core/config/zip_archive_check.h"

#include <QFile>
#include <QtTest>

namespace {

std::string bytesOf(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  const QByteArray bytes = file.readAll();
  return std::string(bytes.constData(), size_t(bytes.size()));
}

}  // namespace

class TestZipMembers : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void checkpointsReadWhole() {
    for (const char *name : {"last.pt", "weights.pt"}) {
      const std::string bytes = bytesOf(QStringLiteral(TW_SOURCE_DIR "/tests/fuzz/corpus/checkpoint/") + name);
      QVERIFY(!bytes.empty());
      QCOMPARE(tw::config::zipMembersProblem(bytes), std::string());
    }
  }

  void compressedMemberClaimingMoreThanDeflateGivesIsRefused() {
    const std::string bytes =
        bytesOf(QStringLiteral(TW_SOURCE_DIR "/tests/fuzz/regressions/checkpoint/compressed-member-claims-4gib"));
    QVERIFY(!bytes.empty());
    const std::string problem = tw::config::zipMembersProblem(bytes);
    QVERIFY2(problem.find("claims 4,294,966,953 bytes unpacked from") != std::string::npos, problem.c_str());
    QVERIFY2(problem.find("more than compression can give") != std::string::npos, problem.c_str());
  }
};

QTEST_GUILESS_MAIN(TestZipMembers)
#include "test_zip_members.moc"
