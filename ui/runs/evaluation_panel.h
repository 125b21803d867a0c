#pragma once
// The Evaluation tab of a run: pick an evaluation (each validation epoch, and the test set at
// the end) and see its confusion matrix as a heat map beside the per-class precision, recall,
// F1 and support. Follows a training run: the newest evaluation is shown until the person picks
// an older one. Everything is read on a worker thread, at most about once a second.

#include "ui/charts/confusion_matrix.h"
#include "core/metrics/class_scores.h"
#include "ui/runs/evaluation_loader.h"

#include <QString>
#include <QWidget>

#include <cstdint>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;
class QTableWidget;
class QTimer;

namespace tw::ui {

class ConfusionHeatmap;
struct RunSnapshot;

class EvaluationPanel : public QWidget {
  Q_OBJECT

 public:
  // Rows of the class table after the classes, in this order.
  enum SummaryRow { AccuracyRow = 0, MacroRow, WeightedRow, SummaryRows };
  enum Column { ClassColumn = 0, PrecisionColumn, RecallColumn, F1Column, SupportColumn, Columns };

  explicit EvaluationPanel(QWidget *parent = nullptr);

  void setDatabasePath(const QString &path) { m_dbPath = path; }
  void showRun(const RunSnapshot &snapshot);
  // The run shown has changed (a poll saw new rows): re-read, throttled.
  void updateRun(const RunSnapshot &snapshot);
  void clearRun();
  void refresh();  // reads now

  QComboBox *evaluations() const { return m_evaluations; }
  ConfusionHeatmap *heatmap() const { return m_heatmap; }
  QTableWidget *classTable() const { return m_table; }
  QCheckBox *rowShares() const { return m_rowShares; }
  QLabel *hint() const { return m_hint; }
  QLabel *summary() const { return m_summary; }
  bool showsEvaluation() const;        // false while the hint stands in for the content
  QString shownPath() const { return m_shownPath; }  // relative to the run folder
  const metrics::ClassScores &scores() const { return m_scores; }

 Q_SIGNALS:
  void refreshed();  // an answer from the worker thread is shown

 protected:
  void showEvent(QShowEvent *event) override;

 private:
  void onLoaded(const EvaluationData &data);
  void onEvaluationPicked(int index);
  void requestRefresh();
  void showEntries(const std::vector<EvaluationEntry> &entries);
  void showMatrix(const ConfusionMatrix &matrix, const QString &path);
  void fillTable();
  void showHint(const QString &text);
  QString label(const EvaluationEntry &entry) const;

  EvaluationLoader *m_loader;
  QTimer *m_cooldown;
  bool m_pending = false;
  QString m_dbPath;
  int64_t m_runId = 0;
  QString m_runDir;
  bool m_follow = true;  // show the newest evaluation as it arrives
  QString m_wanted;      // the evaluation picked when not following
  std::vector<EvaluationEntry> m_entries;
  ConfusionMatrix m_matrix;
  metrics::ClassScores m_scores;
  QString m_shownPath;

  QStackedWidget *m_stack;
  QLabel *m_hint;
  QComboBox *m_evaluations;
  QCheckBox *m_rowShares;
  QLabel *m_summary;
  ConfusionHeatmap *m_heatmap;
  QTableWidget *m_table;
};

}  // namespace tw::ui
