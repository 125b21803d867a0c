// The CLI keeps its word: every subcommand answers --help with its own usage, unknown commands and
// options are usage errors (exit 2) with or without --help, `config --keys` lists the whole config
// table and `check --ops` the whole registry.

#include "cli_runner.h"

#include "core/config/config_fields.h"
#include "core/spec/registry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QtTest>

class TestCliHelp : public QObject {
  Q_OBJECT
 private:
  // The commands the general help lists ("  runs show   a run's ..."), read from its output so
  // that a command added later is walked too.
  static QStringList listedCommands() {
    const auto r = runCli({"--help"});
    QStringList commands;
    bool inList = false;
    for (const QString &line : r.out.split('\n')) {
      if (line == "commands:") {
        inList = true;
        continue;
      }
      if (inList && line.isEmpty()) break;
      if (inList) commands << line.mid(2, 16).trimmed();
    }
    return commands;
  }

 private Q_SLOTS:
  void everyCommandIsListed() {
    const QStringList commands = listedCommands();
    for (const char *name : {"check", "train", "launch", "reproduce", "runs list", "runs show", "runs tag", "runs untag",
                             "runs note", "runs archive", "runs unarchive", "sweep", "study list", "study show",
                             "study create", "study ask", "study tell", "config", "demo-images", "version"})
      QVERIFY2(commands.contains(name), qPrintable(name + QString(" missing from: ") + commands.join(", ")));
  }

  void everyCommandAnswersHelp() {
    for (const QString &command : listedCommands()) {
      QStringList arguments = command.split(' ');
      arguments << "--help";
      const auto r = runCli(arguments);
      QVERIFY2(r.exitCode == 0, qPrintable(command + ": " + r.all()));
      QVERIFY2(r.out.startsWith("usage: torchwright " + command), qPrintable(command + ": " + r.out));
      QVERIFY2(r.out.contains("options:") && r.out.contains("--help"), qPrintable(command + ": " + r.out));
      // `help COMMAND` says the same.
      const auto viaHelp = runCli(QStringList{"help"} + command.split(' '));
      QCOMPARE(viaHelp.exitCode, 0);
      QCOMPARE(viaHelp.out, r.out);
    }
  }

  // The supervisor's defaults as the help (and the README) state them, read from the code.
  void launchHelpStatesTheHeartbeatDefaults() {
    const auto r = runCli({"launch", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("(default 60; at least 60 before its first heartbeat)"), qPrintable(r.out));
  }

  void groupHelpListsItsSubcommands() {
    const auto r = runCli({"runs", "--help"});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith("usage: torchwright runs list"), qPrintable(r.out));
    QVERIFY(r.out.contains("torchwright runs unarchive RUN"));
  }

  void unknownCommandIsUsageErrorEvenWithHelp() {
    for (const QStringList &arguments : {QStringList{"anything", "--help"}, QStringList{"anything"},
                                         QStringList{"runs", "frob", "--help"}, QStringList{"help", "anything"}}) {
      const auto r = runCli(arguments);
      QVERIFY2(r.exitCode == 2, qPrintable(arguments.join(' ') + ": " + QString::number(r.exitCode) + r.all()));
      QVERIFY2(r.err.contains("unknown command"), qPrintable(r.err));
      QVERIFY(r.out.isEmpty());
    }
  }

  void badOptionsSayWhichAndWhat_data() {
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("limit not a number") << QStringList{"runs", "list", "--limit", "abc"}
                                        << "option --limit expects a whole number from 0 to";
    QTest::newRow("limit negative") << QStringList{"runs", "list", "--limit=-3"} << "option --limit expects";
    QTest::newRow("unknown option") << QStringList{"runs", "list", "--limt", "3"} << "unknown option '--limt'";
    QTest::newRow("option of another command") << QStringList{"check", "m.yaml", "--nproc-per-node", "2"}
                                               << "unknown option '--nproc-per-node'";
    QTest::newRow("per-class") << QStringList{"demo-images", "/tmp/x", "--per-class", "many"}
                               << "option --per-class expects a whole number";
    QTest::newRow("nproc") << QStringList{"launch", "run.yaml", "--nproc-per-node", "two"}
                           << "option --nproc-per-node expects a whole number >= 1, got 'two'";
    QTest::newRow("missing value") << QStringList{"runs", "list", "--limit"} << "option --limit needs a value";
    QTest::newRow("config without --keys") << QStringList{"config"} << "usage: torchwright config --keys";
  }
  void badOptionsSayWhichAndWhat() {
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const auto r = runCli(arguments);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(expected), qPrintable(r.err));
    QVERIFY2(!r.err.contains("stoi") && !r.err.contains("stoll"), qPrintable(r.err));
  }

  void configKeysListsTheWholeTable() {
    const auto r = runCli({"config", "--keys"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    for (const auto &field : tw::config::configFields())
      QVERIFY2(r.out.contains(QString::fromStdString(field.key)), field.key.c_str());
    // Integer ranges as integers, defaults from RunConfig.
    QVERIFY2(r.out.contains(QRegularExpression("data.batch_size +int +\\[1, 1048576\\] +128 ")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QRegularExpression("train.threads +int or auto +\\[0, 1024\\] +auto ")), qPrintable(r.out));
    QVERIFY(!r.out.contains(".000000"));
  }

  void configKeysAsJson() {
    const auto r = runCli({"config", "--keys", "--json"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isArray());
    const QJsonArray keys = doc.array();
    QCOMPARE(size_t(keys.size()), tw::config::configFields().size());
    QJsonObject lr, optimizer, milestones;
    for (const auto &value : keys) {
      const QJsonObject key = value.toObject();
      for (const char *member : {"key", "type", "min", "max", "choices", "default", "doc"})
        QVERIFY2(key.contains(member), member);
      if (key["key"] == "train.lr") lr = key;
      if (key["key"] == "train.optimizer") optimizer = key;
      if (key["key"] == "train.milestones") milestones = key;
    }
    QCOMPARE(lr["type"].toString(), QString("float"));
    QCOMPARE(lr["default"].toDouble(), 1e-3);
    QCOMPARE(lr["max"].toDouble(), 1e3);
    QCOMPARE(optimizer["default"].toString(), QString("adam"));
    QVERIFY(optimizer["choices"].toArray().contains(QJsonValue("sgd")));
    QVERIFY(milestones["default"].isArray());
  }

  void checkOpsListsTheRegistry() {
    const auto r = runCli({"check", "--ops"});
    QVERIFY2(r.exitCode == 0, qPrintable(r.all()));
    for (const auto &op : tw::spec::Registry::instance().ops()) {
      QVERIFY2(r.out.contains(QRegularExpression("^" + QString::fromStdString(op.name) + " \\(",
                                                 QRegularExpression::MultilineOption)),
               op.name.c_str());
      for (const auto &param : op.params)
        QVERIFY2(r.out.contains("  " + QString::fromStdString(param.name) + " "), (op.name + "." + param.name).c_str());
    }
  }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "test_cli_help.moc"
