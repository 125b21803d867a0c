#pragma once
// Per-class precision, recall, F1 and support from a confusion matrix, with the accuracy and
// the macro and weighted averages: the Evaluation tab's table. The same rules as the engine's
// ClassificationReport (which Studio cannot link), so the table agrees with the logged metrics.
//
//   ClassScores s = classScores(matrix);   // s.accuracy, s.perClass[2].recall, s.macroF1 ...

#include "ui/charts/confusion_matrix.h"

#include <cstdint>
#include <vector>

namespace tw::ui {

struct ClassScore {
  double precision = 0.0;  // 0 when the class is never predicted
  double recall = 0.0;     // 0 when the class never occurs
  double f1 = 0.0;
  int64_t support = 0;     // examples whose truth is this class
};

struct ClassScores {
  std::vector<ClassScore> perClass;
  int64_t examples = 0;
  double accuracy = 0.0;
  // Unweighted means over the classes that occur as truth or prediction (as scikit-learn does).
  double macroPrecision = 0.0, macroRecall = 0.0, macroF1 = 0.0;
  double weightedPrecision = 0.0, weightedRecall = 0.0, weightedF1 = 0.0;  // weighted by support
};

ClassScores classScores(const ConfusionMatrix &matrix);

}  // namespace tw::ui
