#pragma once
// Per-class precision, recall, F1 and support from a confusion matrix, with the accuracy and the
// macro and weighted averages. The one implementation: the engine's evaluation reports and
// Studio's Evaluation tab both call it, so the table a person reads agrees with the logged metrics.
//
//   // 2 classes, row = truth, column = prediction
//   ClassScores s = classScores({8, 2,
//                                1, 9}, 2);   // s.accuracy 0.85, s.perClass[1].recall 0.9 ...

#include <cstdint>
#include <vector>

namespace tw::metrics {

struct ClassScore {
  double precision = 0.0;  // 0 when the class is never predicted
  double recall = 0.0;     // 0 when the class never occurs
  double f1 = 0.0;         // 0 when precision and recall are both 0
  int64_t support = 0;     // examples whose truth is this class
};

struct ClassScores {
  std::vector<ClassScore> perClass;
  int64_t examples = 0;
  double accuracy = 0.0;  // 0 for an empty matrix
  // Unweighted means over the classes that occur as truth or as prediction (as scikit-learn does).
  double macroPrecision = 0.0, macroRecall = 0.0, macroF1 = 0.0;
  double weightedPrecision = 0.0, weightedRecall = 0.0, weightedF1 = 0.0;  // weighted by support
};

// `confusion` holds classes x classes counts, row-major, row = truth, column = prediction.
// Throws std::invalid_argument when its size is not classes * classes or a count is negative.
ClassScores classScores(const std::vector<int64_t> &confusion, int64_t classes);

}  // namespace tw::metrics
