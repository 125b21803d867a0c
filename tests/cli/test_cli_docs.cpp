// The manual pages and the bash completion say what --help says, because all three come from
// the CLI's one command table: every command's page holds its usage lines and options as its
// --help prints them, groff reads every page without a warning, the build's copies are what the
// CLI writes now, and bash completes commands, subcommands and a command's own options.

#include "cli_runner.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// roff back to the text it shows: escaped minus signs and font changes undone.
QString plain(QString page) {
  return page.replace("\\-", "-").replace("\\fB", "").replace("\\fI", "").replace("\\fR", "").replace("\\&", "").replace("\\e", "\\");
}

// The commands `torchwright --help` lists ("runs export"), from its two-space-indented lines.
QStringList listedCommands() {
  QStringList names;
  const CliResult help = runCli({"--help"});
  for (const QString &line : help.out.split('\n')) {
    if (!line.startsWith("  ") || line.startsWith("   ")) continue;
    names << line.mid(2, 16).trimmed();
  }
  return names;
}

// What bash offers after `words` (the last one being completed).
QStringList complete(const QString &script, const QStringList &words) {
  QString array;
  for (const QString &w : words) array += " '" + w + "'";
  QProcess bash;
  bash.start("bash", {"-c", QString("source '%1'; COMP_WORDS=(%2); COMP_CWORD=%3; _torchwright; "
                                     "printf '%s\\n' \"${COMPREPLY[@]}\"")
                                 .arg(script, array)
                                 .arg(words.size() - 1)});
  bash.waitForFinished(10000);
  return QString::fromUtf8(bash.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

}  // namespace

class TestCliDocs : public QObject {
  Q_OBJECT
  QTemporaryDir m_dir;

 private Q_SLOTS:
  void everyCommandHasAPageThatSaysWhatItsHelpSays() {
    const QString pages = m_dir.path() + "/man1";
    const CliResult written = runCli({"man", pages});
    QVERIFY2(written.exitCode == 0, qPrintable(written.all()));
    const QStringList commands = listedCommands();
    QVERIFY(commands.contains("runs export") && commands.contains("train") && commands.size() > 30);
    QCOMPARE(QDir(pages).entryList({"*.1"}, QDir::Files).size(), commands.size() + 1);
    QVERIFY(readTextFile(pages + "/torchwright.1").contains("torchwright\\-runs\\-export"));
    for (const QString &command : commands) {
      const QString page = plain(readTextFile(pages + "/torchwright-" + QString(command).replace(' ', '-') + ".1"));
      QVERIFY2(!page.isEmpty(), qPrintable(command));
      const CliResult help = runCli(command.split(' ') + QStringList{"--help"});
      QCOMPARE(help.exitCode, 0);
      // Its usage lines, and every option with its value name and text.
      for (const QString &line : help.out.split('\n')) {
        static const QRegularExpression usage("^(usage: |       )torchwright (.+)$");
        static const QRegularExpression option("^  (--[a-z-]+)( [^ ]+)? +(.+)$");
        if (const auto m = usage.match(line); m.hasMatch())
          QVERIFY2(page.contains("torchwright " + m.captured(2) + "\n"), qPrintable(command + ": " + line));
        // (A flag too long for the column has one space before its text: read as a value here.)
        if (const auto m = option.match(line); m.hasMatch())
          QVERIFY2(page.contains(m.captured(1) + m.captured(2) + "\n" + m.captured(3) + "\n") ||
                       page.contains(m.captured(1) + "\n" + m.captured(2).mid(1) + " " + m.captured(3) + "\n"),
                   qPrintable(command + ": " + line));
      }
    }
  }

  void groffReadsEveryPageWithoutAWarning() {
    const QString pages = m_dir.path() + "/lint";
    QCOMPARE(runCli({"man", pages}).exitCode, 0);
    for (const QString &name : QDir(pages).entryList({"*.1"}, QDir::Files)) {
      QProcess groff;
      groff.start("groff", {"-man", "-Tutf8", "-ww", "-z", pages + "/" + name});
      QVERIFY2(groff.waitForFinished(10000), "groff (Debian's groff-base) did not run");
      QCOMPARE(groff.exitCode(), 0);
      const QString warnings = QString::fromUtf8(groff.readAllStandardError());
      QVERIFY2(warnings.isEmpty(), qPrintable(name + ": " + warnings));
    }
  }

  // The build wrote them (app/CMakeLists.txt) from the CLI it built: the same bytes as now.
  void theBuildsCopiesAreCurrent() {
    const QString share = QStringLiteral(TW_BIN_DIR "/../share");
    const QString pages = m_dir.path() + "/current";
    QCOMPARE(runCli({"man", pages}).exitCode, 0);
    for (const QString &name : QDir(pages).entryList({"*.1"}, QDir::Files))
      QCOMPARE(readTextFile(share + "/man/man1/" + name), readTextFile(pages + "/" + name));
    QCOMPARE(readTextFile(share + "/bash-completion/completions/torchwright"), runCli({"completion", "bash"}).out);
  }

  void bashCompletesCommandsSubcommandsAndOptions() {
    const CliResult script = runCli({"completion", "bash"});
    QCOMPARE(script.exitCode, 0);
    const QString file = m_dir.path() + "/torchwright.bash";
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(script.out.toUtf8());
    out.close();
    QCOMPARE(complete(file, {"torchwright", "ru"}), QStringList{"runs"});
    QCOMPARE(complete(file, {"torchwright", "runs", "ex"}), QStringList{"export"});
    const QStringList options = complete(file, {"torchwright", "runs", "export", "--"});
    for (const char *o : {"--to", "--force", "--workspace", "--store", "--help"}) QVERIFY2(options.contains(o), o);
    QVERIFY(!options.contains("--limit"));  // runs list's, not export's
    QCOMPARE(complete(file, {"torchwright", "launch", "--nproc"}), QStringList{"--nproc-per-node"});
    // Bad usage.
    QCOMPARE(runCli({"completion", "zsh"}).exitCode, 2);
    QCOMPARE(runCli({"man"}).exitCode, 2);
  }
};

QTEST_GUILESS_MAIN(TestCliDocs)
#include "test_cli_docs.moc"
