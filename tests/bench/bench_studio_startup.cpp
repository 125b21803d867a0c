// Studio's cold start with a large workspace: a tracking store of 5,000 finished runs (each
// with 40 parameters, a label, 12 metrics and 100 points of 4 curves, like a long sweep), then
// `torchwright-studio --report-startup` started R times as a new process on the offscreen
// platform. The same on each backend: a SQLite file, and a database in a throwaway PostgreSQL
// cluster on a local socket (tests/tracking/pg_cluster.h; Studio reads it through TW_STORE).
// Prints the medians and one JSON line per backend; the target is an interactive window with the
// whole runs list in under 1 s.
//
//   bench_studio_startup [--runs N] [--repeats R] [--backend sqlite|postgresql|both]
//                        [--workspace DIR (SQLite: kept, reused when it has runs)]
//                        [--store URL (PostgreSQL: this database instead of a throwaway cluster's,
//                         reused when it has runs)]

#include "tests/tracking/pg_cluster.h"
#include "tracking/run_labels.h"
#include "tracking/store.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

void fillStore(const std::string &location, int runs) {
  auto store = tw::tracking::Store::open(location);
  if (static_cast<int>(store->listRuns(runs).size()) >= runs) return;
  std::printf("writing %d runs to %s ...\n", runs, store->shownLocation().c_str());
  std::fflush(stdout);
  QElapsedTimer timer;
  timer.start();
  const char *optimizers[] = {"adam", "adamw", "sgd", "rmsprop"};
  for (int i = 0; i < runs; ++i) {
    tw::tracking::NewRun spec;
    spec.experiment = "sweep-" + std::to_string(i / 500);
    spec.name = "trial-" + std::to_string(i);
    const auto run = store->createRun(spec);
    std::map<std::string, std::string> params;
    params["train.optimizer"] = optimizers[i % 4];
    params["train.lr"] = std::to_string(1e-4 * (1 + i % 97));
    params["data.batch_size"] = std::to_string(32 << (i % 4));
    for (int p = 0; p < 37; ++p) params["model.block" + std::to_string(p) + ".width"] = std::to_string(16 * (1 + (i + p) % 8));
    store->setParams(run.id, params);
    store->setTag(run.id, tw::tracking::labelKey(i % 10 == 0 ? "baseline" : "sweep"), "");
    store->setStatus(run.id, tw::tracking::RunStatus::Running);
    std::vector<tw::tracking::MetricRow> rows;
    const int64_t now = tw::tracking::nowMs();
    for (int step = 1; step <= 100; ++step) {
      const double progress = step / 100.0;
      rows.push_back({"train/loss", step * 10, 2.3 * (1.0 - 0.8 * progress), now});
      rows.push_back({"train/lr", step * 10, 1e-3, now});
      rows.push_back({"train/grad_norm", step * 10, 1.0 / progress, now});
      rows.push_back({"train/samples_per_sec", step * 10, 50000.0 + i, now});
    }
    for (const char *key : {"val/loss", "val/accuracy", "val/top5", "val/f1_macro", "val/precision_macro",
                            "val/recall_macro", "test/accuracy", "test/loss"})
      rows.push_back({key, 1000, 0.5 + 0.4 * ((i * 7919) % 1000) / 1000.0, now});
    store->writeMetrics(run.id, std::move(rows));
    store->setStatus(run.id, tw::tracking::RunStatus::Finished);
  }
  std::printf("wrote %d runs in %.1f s\n", runs, timer.elapsed() / 1000.0);
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

// Starts Studio `repeats` times on the workspace and store; prints its figures. false on failure.
bool measure(const QString &backend, const QString &workspace, const QString &store, int runs, int repeats,
             const QString &configHome) {
  const QString studio = QCoreApplication::applicationDirPath() + QStringLiteral("/torchwright-studio");
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), configHome);  // no saved layout
  if (store.isEmpty())
    env.remove(QStringLiteral("TW_STORE"));
  else
    env.insert(QStringLiteral("TW_STORE"), store);
  std::vector<double> process, shown, listed, stall;
  for (int r = 0; r < repeats; ++r) {
    QProcess child;
    child.setProcessEnvironment(env);
    QElapsedTimer timer;
    timer.start();
    child.start(studio, {QStringLiteral("--workspace"), workspace, QStringLiteral("--report-startup")});
    if (!child.waitForFinished(300000) || child.exitCode() != 0) {
      std::fprintf(stderr, "bench_studio_startup: %s failed: %s\n", qPrintable(studio),
                   child.readAllStandardError().constData());
      return false;
    }
    const double wallMs = timer.elapsed();
    QJsonObject report;
    for (const QByteArray &line : child.readAllStandardOutput().split('\n'))
      if (line.startsWith('{')) report = QJsonDocument::fromJson(line).object();
    if (report.value(QStringLiteral("runs")).toInt() != runs) {
      std::fprintf(stderr, "bench_studio_startup: Studio listed %d runs, not %d\n",
                   report.value(QStringLiteral("runs")).toInt(), runs);
      return false;
    }
    process.push_back(wallMs);
    shown.push_back(report.value(QStringLiteral("window_shown_ms")).toDouble());
    listed.push_back(report.value(QStringLiteral("runs_listed_ms")).toDouble());
    stall.push_back(report.value(QStringLiteral("longest_stall_ms")).toDouble());
    std::printf("%s start %d: window %.0f ms, %d runs listed %.0f ms, longest stall %.0f ms, process %.0f ms\n",
                qPrintable(backend), r + 1, shown.back(), runs, listed.back(), stall.back(), wallMs);
  }
  std::printf("\n%s: median of %d cold starts with %d runs: window shown %.0f ms, runs listed %.0f ms "
              "(target < 1000 ms), longest UI stall %.0f ms\n",
              qPrintable(backend), repeats, runs, median(shown), median(listed), median(stall));
  std::printf("{\"bench\": \"studio_startup\", \"backend\": \"%s\", \"runs\": %d, \"repeats\": %d, "
              "\"window_shown_ms\": %.0f, \"runs_listed_ms\": %.0f, \"longest_stall_ms\": %.0f, \"process_ms\": %.0f}\n",
              qPrintable(backend), runs, repeats, median(shown), median(listed), median(stall), median(process));
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char **argv) {
  QCoreApplication app(argc, argv);
  int runs = 5000, repeats = 5;
  QString workspace, backend = QStringLiteral("both"), server;
  const QStringList args = QCoreApplication::arguments();
  for (int i = 1; i + 1 < args.size(); ++i) {
    if (args[i] == QLatin1String("--runs")) runs = args[++i].toInt();
    else if (args[i] == QLatin1String("--repeats")) repeats = args[++i].toInt();
    else if (args[i] == QLatin1String("--workspace")) workspace = args[++i];
    else if (args[i] == QLatin1String("--backend")) backend = args[++i];
    else if (args[i] == QLatin1String("--store")) server = args[++i];
  }
  QTemporaryDir scratch;
  if (workspace.isEmpty()) workspace = scratch.path() + QStringLiteral("/workspace");
  std::filesystem::create_directories(workspace.toStdString());
  const QString configHome = scratch.path() + QStringLiteral("/config");
  try {
    if (backend == QLatin1String("sqlite") || backend == QLatin1String("both")) {
      fillStore((workspace + QStringLiteral("/tracking.db")).toStdString(), runs);
      if (!measure(QStringLiteral("sqlite"), workspace, QString(), runs, repeats, configHome)) return 1;
    }
    if (backend == QLatin1String("postgresql") || backend == QLatin1String("both")) {
      // Start-up reads; the server's fsync would only slow filling it.
      auto *cluster = server.isEmpty() ? tw_test::PgCluster::shared(/*durable=*/false) : nullptr;
      if (!cluster && server.isEmpty()) {
        std::printf("postgresql skipped: %s\n", qPrintable(tw_test::PgCluster::unavailable()));
      } else {
        const std::string url = cluster ? cluster->createDatabase() : server.toStdString();
        fillStore(url, runs);
        const QString empty = scratch.path() + QStringLiteral("/server-workspace");
        std::filesystem::create_directories(empty.toStdString());
        if (!measure(QStringLiteral("postgresql"), empty, QString::fromStdString(url), runs, repeats, configHome))
          return 1;
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "bench_studio_startup: %s\n", e.what());
    return 1;
  }
  return 0;
}
