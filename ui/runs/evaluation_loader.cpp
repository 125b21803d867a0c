#include "ui/runs/evaluation_loader.h"

#include "tracking/store.h"

#include <QDir>
#include <QFile>
#include <QFutureWatcher>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <climits>

namespace tw::ui {

namespace {

// A 1000-class matrix is about 4 MB of CSV; anything far larger is not one of ours.
constexpr qint64 kMaxCsvBytes = 64 * 1024 * 1024;

}  // namespace

bool evaluationEntry(const QString &path, const QString &kind, EvaluationEntry *entry) {
  static const QRegularExpression validation(QStringLiteral("^artifacts/evaluations/val_epoch_(\\d+)\\.csv$"));
  if (kind == QLatin1String("confusion")) {
    const QRegularExpressionMatch match = validation.match(path);
    if (!match.hasMatch()) return false;
    bool ok = false;
    const int epoch = match.captured(1).toInt(&ok);
    if (!ok || epoch < 1) return false;
    *entry = {path, epoch};
    return true;
  }
  if (path == QLatin1String("artifacts/test_confusion_matrix.csv")) {
    *entry = {path, 0};
    return true;
  }
  return false;
}

void EvaluationLoader::load(const QString &databasePath, int64_t runId, const QString &runDir,
                            const QString &wantedPath) {
  const quint64 generation = ++m_generation;
  auto *watcher = new QFutureWatcher<EvaluationData>(this);
  connect(watcher, &QFutureWatcher<EvaluationData>::finished, this, [this, watcher, generation] {
    const EvaluationData data = watcher->result();
    watcher->deleteLater();
    if (generation == m_generation) Q_EMIT loaded(data);
  });
  watcher->setFuture(QtConcurrent::run([path = databasePath.toStdString(), runId, runDir, wantedPath] {
    EvaluationData data;
    data.runId = runId;
    try {
      for (const auto &artifact : tracking::Store::open(path)->artifacts(runId)) {
        EvaluationEntry entry;
        if (evaluationEntry(QString::fromStdString(artifact.path), QString::fromStdString(artifact.kind), &entry))
          data.entries.push_back(entry);
      }
    } catch (const std::exception &e) {
      data.error = tr("Could not read the run's evaluations: %1").arg(QString::fromUtf8(e.what()));
      return data;
    }
    // Epochs in order and the test set, which comes after all of them, last.
    std::sort(data.entries.begin(), data.entries.end(), [](const EvaluationEntry &a, const EvaluationEntry &b) {
      return (a.isTest() ? INT_MAX : a.epoch) < (b.isTest() ? INT_MAX : b.epoch);
    });
    if (data.entries.empty()) return data;
    auto wanted = std::find_if(data.entries.begin(), data.entries.end(),
                               [&](const EvaluationEntry &e) { return e.path == wantedPath; });
    data.path = wanted != data.entries.end() ? wanted->path : data.entries.back().path;
    QFile file(QDir(runDir).filePath(data.path));
    if (!file.open(QIODevice::ReadOnly)) {
      data.error = tr("Could not open %1: %2").arg(file.fileName(), file.errorString());
      return data;
    }
    if (file.size() > kMaxCsvBytes) {
      data.error = tr("%1 is too large for a confusion matrix").arg(file.fileName());
      return data;
    }
    QString error;
    if (!parseConfusionCsv(QString::fromUtf8(file.readAll()), &data.matrix, &error))
      data.error = QStringLiteral("%1: %2").arg(file.fileName(), error);
    return data;
  }));
}

}  // namespace tw::ui
