#include "ui/runs/class_scores.h"

namespace tw::ui {

ClassScores classScores(const ConfusionMatrix &m) {
  ClassScores s;
  const int n = m.size();
  s.perClass.resize(static_cast<size_t>(n));
  std::vector<int64_t> predicted(static_cast<size_t>(n), 0);
  int64_t correct = 0;
  for (int t = 0; t < n; ++t) {
    for (int p = 0; p < n; ++p) {
      const int64_t count = m.count(t, p);
      s.examples += count;
      s.perClass[static_cast<size_t>(t)].support += count;
      predicted[static_cast<size_t>(p)] += count;
      if (t == p) correct += count;
    }
  }
  if (s.examples == 0) return s;
  s.accuracy = static_cast<double>(correct) / static_cast<double>(s.examples);
  int present = 0;
  for (int c = 0; c < n; ++c) {
    ClassScore &score = s.perClass[static_cast<size_t>(c)];
    const auto hits = static_cast<double>(m.count(c, c));
    const int64_t guessed = predicted[static_cast<size_t>(c)];
    score.precision = guessed ? hits / static_cast<double>(guessed) : 0.0;
    score.recall = score.support ? hits / static_cast<double>(score.support) : 0.0;
    const double sum = score.precision + score.recall;
    score.f1 = sum > 0 ? 2.0 * score.precision * score.recall / sum : 0.0;
    // A class absent from truth and predictions has no defined scores: leaving it out keeps
    // the macro average from being dragged down by zeros that mean "not applicable".
    if (score.support == 0 && guessed == 0) continue;
    ++present;
    s.macroPrecision += score.precision;
    s.macroRecall += score.recall;
    s.macroF1 += score.f1;
    const double weight = static_cast<double>(score.support) / static_cast<double>(s.examples);
    s.weightedPrecision += weight * score.precision;
    s.weightedRecall += weight * score.recall;
    s.weightedF1 += weight * score.f1;
  }
  if (present > 0) {
    s.macroPrecision /= present;
    s.macroRecall /= present;
    s.macroF1 /= present;
  }
  return s;
}

}  // namespace tw::ui
