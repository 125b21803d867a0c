// The Debian package, built by CPack from this build tree as packaging/deb.sh builds it: its
// control file (dependencies computed by dpkg-shlibdeps), its contents (the three programs,
// manual pages, bash completion, desktop entry and icons, AppStream metainfo, translations,
// examples), lintian without an error, the desktop entry and metainfo validated by their own
// tools, and the package unpacked into a throwaway root, whose programs run and train there.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Ran {
  int code = -1;
  QString out, err;
};

Ran run(const QString &program, const QStringList &arguments, int timeoutMs = 300000,
        const QProcessEnvironment &environment = QProcessEnvironment::systemEnvironment()) {
  QProcess p;
  p.setProcessEnvironment(environment);
  p.start(program, arguments);
  Ran r;
  if (!p.waitForStarted(10000)) {
    r.err = program + " did not start: " + p.errorString();
    return r;
  }
  p.waitForFinished(timeoutMs);
  r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
  r.out = QString::fromUtf8(p.readAllStandardOutput());
  r.err = QString::fromUtf8(p.readAllStandardError());
  return r;
}

}  // namespace

class TestDebPackage : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;
  QString m_deb;
  QString m_root;  // the package unpacked

 private Q_SLOTS:
  void initTestCase() {
    const Ran cpack = run("cpack", {"--config", TW_BINARY_DIR "/CPackConfig.cmake", "-B", m_dir.path() + "/out"}, 600000);
    QVERIFY2(cpack.code == 0, qPrintable(cpack.out + cpack.err));
    const QStringList debs = QDir(m_dir.path() + "/out").entryList({"torchwright_*.deb"}, QDir::Files);
    QCOMPARE(debs.size(), 1);
    m_deb = m_dir.path() + "/out/" + debs[0];
    m_root = m_dir.path() + "/root";
    const Ran unpack = run("dpkg-deb", {"-x", m_deb, m_root});
    QVERIFY2(unpack.code == 0, qPrintable(unpack.err));
  }

  void controlFileNamesTheLibrariesTheProgramsLink() {
    const Ran control = run("dpkg-deb", {"-f", m_deb, "Package", "Version", "Architecture", "Depends", "Section"});
    QCOMPARE(control.code, 0);
    QVERIFY2(control.out.contains("Package: torchwright\n") && control.out.contains("Version: 0.1.0\n") &&
                 control.out.contains("Section: science"),
             qPrintable(control.out));
    // Computed from the binaries: the worker's LibTorch, Studio's Qt, both stores' client libraries.
    for (const char *library : {"libtorch1.13", "libqt6core6", "libqt6widgets6", "libqt6charts6", "libpq5", "libsqlite3-0",
                                "libyaml-cpp0.7", "libc6"})
      QVERIFY2(control.out.contains(library), library);
  }

  void holdsWhatAUserReadsAndStartsFromAMenu() {
    const QString usr = m_root + "/usr";
    const QStringList files = {
        "/bin/torchwright", "/bin/torchwright-worker", "/bin/torchwright-studio",
        "/share/man/man1/torchwright.1.gz", "/share/man/man1/torchwright-runs-export.1.gz",
        "/share/man/man1/torchwright-studio.1.gz", "/share/man/man1/torchwright-worker.1.gz",
        "/share/bash-completion/completions/torchwright",
        "/share/applications/io.github.torchwright.Studio.desktop",
        "/share/metainfo/io.github.torchwright.Studio.metainfo.xml",
        "/share/icons/hicolor/scalable/apps/io.github.torchwright.Studio.svg",
        "/share/torchwright/translations/torchwright_de.qm",
        "/share/torchwright/examples/fashion_mlp.run.yaml", "/share/torchwright/examples/fashion_mlp.model.yaml",
        "/share/doc/torchwright/copyright", "/share/doc/torchwright/changelog.gz"};
    for (const QString &file : files) QVERIFY2(QFile::exists(usr + file), qPrintable(file));
    for (int size : {16, 32, 48, 64, 128, 256}) {
      const QImage icon(usr + QString("/share/icons/hicolor/%1x%1/apps/io.github.torchwright.Studio.png").arg(size));
      QCOMPARE(icon.size(), QSize(size, size));
      QVERIFY(icon.pixelColor(size / 2, size / 2).alpha() > 0);  // drawn, not empty
    }
    // One manual page per command of the CLI's table, as its --help lists them.
    const Ran help = run(usr + "/bin/torchwright", {"--help"});
    int commands = 0;
    for (const QString &line : help.out.split('\n'))
      if (line.startsWith("  ") && !line.startsWith("   ")) ++commands;
    const int pages = QDir(usr + "/share/man/man1").entryList({"torchwright-*.1.gz"}, QDir::Files).size();
    QCOMPARE(pages, commands + 2);  // and Studio's and the worker's
  }

  void lintianFindsNoError() {
    const Ran lintian = run("lintian", {"--tag-display-limit", "0", m_deb}, 600000);
    QVERIFY2(lintian.code >= 0, qPrintable(lintian.err));
    QStringList errors;
    for (const QString &line : (lintian.out + lintian.err).split('\n'))
      if (line.startsWith("E: ")) errors << line;
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join('\n')));
    qInfo("lintian: %s", qPrintable(lintian.out.trimmed().isEmpty() ? QString("nothing to report") : lintian.out.trimmed()));
  }

  void desktopEntryAndMetainfoValidate() {
    const QString share = m_root + "/usr/share";
    const Ran desktop = run("desktop-file-validate", {share + "/applications/io.github.torchwright.Studio.desktop"});
    QVERIFY2(desktop.code == 0 && !desktop.out.contains("error"), qPrintable(desktop.out + desktop.err));
    const Ran appstream =
        run("appstreamcli", {"validate", "--no-net", share + "/metainfo/io.github.torchwright.Studio.metainfo.xml"});
    QVERIFY2(appstream.code == 0, qPrintable(appstream.out + appstream.err));
  }

  // Studio's page is written by hand: it must name every option Studio's --help prints.
  void studiosManualPageNamesItsOptions() {
    QProcessEnvironment offscreen = QProcessEnvironment::systemEnvironment();
    offscreen.insert("QT_QPA_PLATFORM", "offscreen");
    const Ran help = run(m_root + "/usr/bin/torchwright-studio", {"--help"}, 60000, offscreen);
    QCOMPARE(help.code, 0);
    const Ran page = run("sh", {"-c", "gzip -dc '" + m_root + "/usr/share/man/man1/torchwright-studio.1.gz'"});
    const QString text = QString(page.out).replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "");
    int options = 0;
    for (const QString &word : help.out.split(QRegularExpression("[\\s,]+")))
      if (word.startsWith("--")) {
        ++options;
        QVERIFY2(text.contains(word), qPrintable(word));
      }
    QVERIFY(options >= 5);
  }

  // Installed somewhere else than the build: the CLI finds its worker beside it and trains the
  // packaged example from the packaged model file.
  void unpackedProgramsRunAndTrain() {
    const QString bin = m_root + "/usr/bin";
    const Ran version = run(bin + "/torchwright", {"--version"});
    QCOMPARE(version.code, 0);
    QCOMPARE(version.out.trimmed(), QString("torchwright 0.1.0"));
    const QString workspace = m_dir.path() + "/ws";
    const Ran train = run(bin + "/torchwright",
                          {"train", m_root + "/usr/share/torchwright/examples/fashion_mlp.run.yaml", "--workspace", workspace,
                           "--set", "train.epochs=1", "--set", "data.train_limit=600", "--set", "data.test_limit=200",
                           "--set", "tracking.run_name=from-the-package"});
    QVERIFY2(train.code == 0, qPrintable(train.out + train.err));
    QVERIFY2(train.out.contains("Summary of run"), qPrintable(train.out));
    const Ran list = run(bin + "/torchwright", {"runs", "list", "--workspace", workspace});
    QVERIFY2(list.out.contains("from-the-package") && list.out.contains("FINISHED"), qPrintable(list.out));
    const Ran man = run("man", {"-l", "-Tutf8", m_root + "/usr/share/man/man1/torchwright-runs-export.1.gz"});
    QVERIFY2(man.code == 0 && man.out.contains("--to"), qPrintable(man.err));
  }
};

QTEST_GUILESS_MAIN(TestDebPackage)
#include "test_deb_package.moc"
