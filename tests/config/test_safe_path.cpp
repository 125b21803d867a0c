// config::pathInside, the one rule for a name that must stay in its folder: a plain name and a
// link that stays inside are taken; `..`, an absolute path, a symbolic link out (also a dangling
// one, also a folder on the way) and, where the file is read, a hard link are refused with a
// message naming the field, the name and why.
#include "core/config/safe_path.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>

using tw::config::HardLinks;
using tw::config::pathInside;
using tw::config::resolveInside;

namespace fs = std::filesystem;

class TestSafePath : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  std::string folder() const { return m_dir.filePath("inside").toStdString(); }
  std::string outside(const char *name) const { return m_dir.filePath(QString("outside/") + name).toStdString(); }

  static void write(const std::string &path, const char *text) {
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir(m_dir.path()).mkpath("inside/sub") && QDir(m_dir.path()).mkpath("outside"));
    write(folder() + "/plain.bin", "ours");
    write(outside("secret.bin"), "theirs");
    fs::create_symlink(outside("secret.bin"), folder() + "/out-link.bin");
    fs::create_symlink("../outside/secret.bin", folder() + "/relative-out.bin");
    fs::create_symlink(outside("not-yet.bin"), folder() + "/dangling.bin");
    fs::create_symlink(m_dir.filePath("outside").toStdString(), folder() + "/out-folder");
    fs::create_symlink("plain.bin", folder() + "/in-link.bin");
    fs::create_hard_link(outside("secret.bin"), folder() + "/hard.bin");
  }

  void namesInsideAreTaken() {
    const std::string canonical = fs::canonical(folder()).string();
    QCOMPARE(pathInside(folder(), "plain.bin", "f", HardLinks::Refuse), canonical + "/plain.bin");
    QCOMPARE(pathInside(folder(), "sub/new.bin", "f", HardLinks::Refuse), canonical + "/sub/new.bin");  // need not exist
    QCOMPARE(pathInside(folder(), "./plain.bin", "f", HardLinks::Refuse), canonical + "/plain.bin");
    // A link that stays inside resolves to its target, which is what a reader then opens.
    QCOMPARE(pathInside(folder(), "in-link.bin", "f", HardLinks::Refuse), canonical + "/plain.bin");
    // The folder itself may be reached through a link; the rule is about what lies below it.
    fs::create_symlink(folder(), m_dir.filePath("alias").toStdString());
    QCOMPARE(pathInside(m_dir.filePath("alias").toStdString(), "plain.bin", "f", HardLinks::Refuse), canonical + "/plain.bin");
  }

  void escapesAreRefused_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("why");
    QTest::newRow("..") << "../outside/secret.bin" << "climbs out of";
    QTest::newRow(".. in the middle") << "sub/../../outside/secret.bin" << "climbs out of";
    QTest::newRow("absolute") << QString::fromStdString(outside("secret.bin")) << "is an absolute path";
    QTest::newRow("symbolic link") << "out-link.bin" << "through a symbolic link";
    QTest::newRow("relative symbolic link") << "relative-out.bin" << "through a symbolic link";
    QTest::newRow("dangling symbolic link") << "dangling.bin" << "through a symbolic link";
    QTest::newRow("folder on the way") << "out-folder/secret.bin" << "through a symbolic link";
    QTest::newRow("hard link") << "hard.bin" << "is a hard link (one file with 2 names)";
    QTest::newRow("empty") << "" << "names no file";
  }

  void escapesAreRefused() {
    QFETCH(QString, name);
    QFETCH(QString, why);
    try {
      pathInside(folder(), name.toStdString(), "tensor 'w' external data", HardLinks::Refuse);
      QFAIL("taken");
    } catch (const std::runtime_error &e) {
      const QString message = QString::fromUtf8(e.what());
      QVERIFY2(message.startsWith("tensor 'w' external data '" + name + "' ") && message.contains(why), qPrintable(message));
    }
    QVERIFY(resolveInside(folder(), name.toStdString(), HardLinks::Refuse).path.empty());
  }

  // Where the caller writes by rename (or the folder is ours), a hard link is taken: the rename
  // replaces it. Symbolic links out stay refused either way.
  void hardLinksAreTakenWhereTheCallerWritesByRename() {
    QVERIFY(resolveInside(folder(), "hard.bin", HardLinks::Allow).problem.empty());
    QVERIFY(!resolveInside(folder(), "out-link.bin", HardLinks::Allow).problem.empty());
    QVERIFY(!resolveInside(folder(), "../outside/secret.bin", HardLinks::Allow).problem.empty());
  }

  void linkLoopsAreRefused() {
    fs::create_symlink("loop-b", folder() + "/loop-a");
    fs::create_symlink("loop-a", folder() + "/loop-b");
    const auto inside = resolveInside(folder(), "loop-a", HardLinks::Refuse);
    QVERIFY2(inside.problem.find("too many levels of symbolic links") != std::string::npos, inside.problem.c_str());
  }
};

QTEST_GUILESS_MAIN(TestSafePath)
#include "test_safe_path.moc"
