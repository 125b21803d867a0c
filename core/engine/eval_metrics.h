#pragma once
// Evaluation metrics from counts: a confusion matrix with top-k hits for classification, running
// sums for regression. No LibTorch: the trainer feeds counts, tests feed numbers.
//
//   ClassificationCounts counts(10, /*topK=*/5);
//   counts.add(/*truth=*/3, /*predicted=*/5, /*inTopK=*/true);
//   ClassificationReport r = counts.report();   // r.accuracy, r.macroF1, r.perClass[3].recall ...

#include "core/metrics/class_scores.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::engine {

using ClassMetrics = metrics::ClassScore;

// The scores (accuracy, per class, macro and weighted: metrics::classScores, the rule Studio uses
// too) with the top-k share and the matrix they came from.
struct ClassificationReport : metrics::ClassScores {
  double topK = 0.0;  // share with the truth among the k highest scores
  int64_t k = 1;
  std::vector<int64_t> confusion;  // classes x classes, row = truth, column = prediction
  int64_t classes = 0;
};

class ClassificationCounts {
 public:
  ClassificationCounts(int64_t classes, int64_t topK);
  void add(int64_t truth, int64_t predicted, bool inTopK);
  // Adds a whole confusion matrix (classes x classes) and the number of top-k hits.
  void addMatrix(const std::vector<int64_t> &confusion, int64_t topKHits);
  ClassificationReport report() const;

 private:
  int64_t m_classes, m_topK;
  std::vector<int64_t> m_confusion;
  int64_t m_topKHits = 0;
};

struct RegressionReport {
  int64_t examples = 0;
  double mse = 0.0, mae = 0.0, r2 = 0.0;
};

class RegressionSums {
 public:
  // Sums over every target value (all outputs of all examples).
  void add(double truth, double predicted);
  void addSums(int64_t count, double sumSquaredError, double sumAbsError, double sumTruth, double sumTruthSquared);
  RegressionReport report(int64_t examples) const;

 private:
  int64_t m_count = 0;
  double m_sse = 0.0, m_sae = 0.0, m_sum = 0.0, m_sumSquares = 0.0;
};

// The confusion matrix as CSV with class names as header row and first column (artifact file):
// metrics::confusionCsv, the format Studio parses.
std::string confusionCsv(const ClassificationReport &report, const std::vector<std::string> &classNames);
// Per-class precision/recall/F1/support and the averages as CSV (artifact file).
std::string classReportCsv(const ClassificationReport &report, const std::vector<std::string> &classNames);

}  // namespace tw::engine
