#pragma once
// Reads a run's evaluations for the Evaluation tab on a worker thread: the confusion matrices
// recorded as artifacts (one per validation epoch, "artifacts/evaluations/val_epoch_NNN.csv",
// and the test set's at the end) and the CSV of the one asked for. Each read opens its own
// database connection; a newer request makes older answers void.

#include "ui/charts/confusion_matrix.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace tw::ui {

struct EvaluationEntry {
  QString path;   // relative to the run folder, as recorded
  int epoch = 0;  // 1-based validation epoch; 0 for the test set
  bool isTest() const { return epoch == 0; }
  bool operator==(const EvaluationEntry &other) const { return path == other.path && epoch == other.epoch; }
};

struct EvaluationData {
  int64_t runId = 0;
  std::vector<EvaluationEntry> entries;  // validation epochs in order, then the test set
  QString path;                          // the entry read, empty when there is none
  ConfusionMatrix matrix;
  QString error;
};

// The evaluation an artifact holds, or false for other artifacts. Pure, for tests.
bool evaluationEntry(const QString &path, const QString &kind, EvaluationEntry *entry);

class StoreCall;

class EvaluationLoader : public QObject {
  Q_OBJECT

 public:
  explicit EvaluationLoader(QObject *parent = nullptr);
  // wantedPath empty, or no longer recorded: the newest entry.
  void load(const QString &databasePath, int64_t runId, const QString &runDir, const QString &wantedPath);
  // Voids the answers on their way (the run is no longer shown).
  void cancel();

 Q_SIGNALS:
  void loaded(const tw::ui::EvaluationData &data);
  void busyChanged(bool loading);

 private:
  StoreCall *m_reader;
};

}  // namespace tw::ui
