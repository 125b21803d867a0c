#pragma once
// Shared set-up for Studio's GUI tests: a real workspace in a temporary folder, runs and
// metrics written through the real tracking store, and QSettings kept out of the user's files.

#include "core/config/run_config.h"
#include "core/config/workspace.h"
#include "tracking/workspace_store.h"
#include "tracking/store.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <memory>
#include <string>
#include <vector>

namespace tw::test {

// Where GUI tests keep their screenshots (build/screenshots/), for the README and for review.
inline QString screenshotPath(const QString &name) {
  const QString dir = QStringLiteral(TW_BINARY_DIR "/screenshots/");
  QDir().mkpath(dir);
  return dir + name;
}

// What the event loop holds for the widgets, done now instead of after some milliseconds: posted
// layout requests, the layout Qt Charts posts for titles, legends and axes, the paints they cause,
// a few turns over for work posted by work. A screenshot, or an assertion on what is laid out,
// follows this rather than QTest::qWait, whose time a loaded machine may not honour.
inline void settleEvents(int turns = 5) {
  for (int i = 0; i < turns; ++i) {
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::AllEvents);
  }
}

// Points to a temporary settings folder so tests neither read nor overwrite a developer's layout.
inline void isolateSettings(const QString &dir) {
  QCoreApplication::setOrganizationName(QStringLiteral("TorchwrightTests"));
  QCoreApplication::setApplicationName(QStringLiteral("StudioTests"));
  QSettings::setDefaultFormat(QSettings::IniFormat);
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
}

// A settings folder of the slot's own (isolateSettings on a fresh temporary folder), so no slot
// reads what another wrote; null when the folder cannot be made.
inline std::unique_ptr<QTemporaryDir> freshSettings() {
  auto dir = std::make_unique<QTemporaryDir>();
  if (!dir->isValid()) return nullptr;
  isolateSettings(dir->path());
  return dir;
}

struct Workspace {
  QTemporaryDir tmp;
  QString dir;
  std::unique_ptr<tracking::Store> store;

  Workspace() : dir(tmp.path() + QStringLiteral("/workspace")) {
    config::ensureWorkspace(dir.toStdString());
    store = tracking::Store::open(tracking::workspaceStore(dir.toStdString()));
  }
  std::string dbPath() const { return tracking::workspaceStore(dir.toStdString()); }

  // Stores parameters under the keys a real run records (flattenConfig's, and model.parameters),
  // and refuses any other: a fixture with invented keys tests a workspace no user has.
  void setParams(int64_t runId, const std::map<std::string, std::string> &params) {
    static const std::map<std::string, std::string> real = [] {
      auto keys = config::flattenConfig(config::RunConfig{});
      keys["model.parameters"] = "0";
      return keys;
    }();
    for (const auto &entry : params)
      if (!real.count(entry.first)) throw std::invalid_argument("no run records the parameter '" + entry.first + "'");
    store->setParams(runId, params);
  }

  tracking::RunRecord createRun(const std::string &name, const std::string &experiment = "fashion-mnist") {
    tracking::NewRun run;
    run.experiment = experiment;
    run.name = name;
    run.configYaml = "model: mlp\n";
    run.configHash = "3f2a9c41d07be5e2a1c4f0d6b8e79a3c";
    run.seed = 42;
    run.libraryVersions = "libtorch=1.13.1 qt=6.4.2 sqlite=" + tracking::Store::sqliteVersion();
    run.host = "studio-test";
    run.hardware = "2 x Test CPU, 8.0 GiB RAM, no GPU";
    return store->createRun(run);
  }
};

// A training-loss-like curve: decays from ~2.3 towards ~0.3 with a deterministic wobble.
inline double lossAt(int64_t step) {
  return 0.3 + 2.0 * std::exp(-static_cast<double>(step) / 60.0) + 0.05 * std::sin(step * 0.7);
}
inline double accuracyAt(int64_t step) { return 0.9 - 0.7 * std::exp(-static_cast<double>(step) / 50.0); }

inline std::vector<tracking::MetricRow> trainLossRows(int64_t firstStep, int64_t lastStep) {
  std::vector<tracking::MetricRow> rows;
  for (int64_t step = firstStep; step <= lastStep; ++step)
    rows.push_back({"train/loss", step, lossAt(step), tracking::nowMs()});
  return rows;
}

// val/loss and val/accuracy every `every` steps in [firstStep, lastStep].
inline std::vector<tracking::MetricRow> validationRows(int64_t firstStep, int64_t lastStep, int64_t every) {
  std::vector<tracking::MetricRow> rows;
  for (int64_t step = firstStep; step <= lastStep; ++step) {
    if (step % every != 0) continue;
    rows.push_back({"val/loss", step, lossAt(step) + 0.08, tracking::nowMs()});
    rows.push_back({"val/accuracy", step, accuracyAt(step), tracking::nowMs()});
  }
  return rows;
}

// Waits for `count` more emissions of `signal` (such as WorkspaceSession::polled): the positive
// event to wait for before asserting that something did not happen.
template <typename Object, typename Signal>
bool waitForSignals(const Object *object, Signal signal, int count, int timeoutMs = 20000) {
  QSignalSpy spy(object, signal);
  QDeadlineTimer deadline(timeoutMs);
  while (spy.count() < count && !deadline.hasExpired()) spy.wait(int(std::max<qint64>(1, deadline.remainingTime())));
  return spy.count() >= count;
}

// The source row whose column `column` displays `text`, or -1.
inline int rowWithText(const QAbstractItemModel *model, int column, const QString &text) {
  for (int row = 0; row < model->rowCount(); ++row)
    if (model->index(row, column).data().toString() == text) return row;
  return -1;
}

// Trains `runFileText` into the workspace with the real CLI, in another process as a user's
// `torchwright train --workspace` would; false with the CLI's output in `said` otherwise.
inline bool trainWithCli(const Workspace &ws, const char *runFileText, const QString &fileName, QString *said) {
  const QString runFile = ws.tmp.path() + QLatin1Char('/') + fileName;
  QFile file(runFile);
  if (!file.open(QIODevice::WriteOnly)) return false;
  file.write(runFileText);
  file.close();
  QProcess cli;
  cli.setProcessChannelMode(QProcess::MergedChannels);
  cli.start(QStringLiteral(TW_BIN_DIR "/torchwright"), {"train", runFile, "--workspace", ws.dir});
  const bool ok = cli.waitForFinished(240000) && cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0;
  *said = QString::fromUtf8(cli.readAll());
  return ok;
}

}  // namespace tw::test
