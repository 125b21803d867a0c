#include "ui/runs/evaluation_loader.h"

#include "tracking/store.h"
#include "ui/common/store_call.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

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

EvaluationLoader::EvaluationLoader(QObject *parent) : QObject(parent), m_reader(new StoreCall(this)) {
  connect(m_reader, &StoreCall::busyChanged, this, &EvaluationLoader::busyChanged);
}

void EvaluationLoader::cancel() { m_reader->cancel(); }

void EvaluationLoader::load(const QString &databasePath, int64_t runId, const QString &runDir,
                            const QString &wantedPath) {
  const auto read = [runId, runDir, wantedPath](tracking::Store &store) {
    EvaluationData data;
    data.runId = runId;
    for (const auto &artifact : store.artifacts(runId)) {
      EvaluationEntry entry;
      if (evaluationEntry(QString::fromStdString(artifact.path), QString::fromStdString(artifact.kind), &entry))
        data.entries.push_back(entry);
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
  };
  m_reader->run<EvaluationData>(
      databasePath, read, [this](EvaluationData data) { Q_EMIT loaded(data); },
      [this, runId](const QString &error) {
        EvaluationData data;
        data.runId = runId;
        data.error = tr("Could not read the run's evaluations: %1").arg(error);
        Q_EMIT loaded(data);
      });
}

}  // namespace tw::ui
