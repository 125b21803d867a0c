#include "core/metrics/class_scores.h"

#include <stdexcept>
#include <string>

namespace tw::metrics {

ClassScores classScores(const std::vector<int64_t> &confusion, int64_t classes) {
  if (classes < 0 || confusion.size() != static_cast<size_t>(classes) * static_cast<size_t>(classes))
    throw std::invalid_argument("confusion matrix of " + std::to_string(confusion.size()) + " counts is not " +
                                std::to_string(classes) + " x " + std::to_string(classes));
  const auto n = static_cast<size_t>(classes);
  auto at = [&](size_t truth, size_t predicted) { return confusion[truth * n + predicted]; };
  ClassScores s;
  s.perClass.resize(n);
  std::vector<int64_t> predicted(n, 0);
  int64_t correct = 0;
  for (size_t t = 0; t < n; ++t) {
    for (size_t p = 0; p < n; ++p) {
      const int64_t count = at(t, p);
      if (count < 0) throw std::invalid_argument("confusion matrix with a negative count");
      s.examples += count;
      s.perClass[t].support += count;
      predicted[p] += count;
      if (t == p) correct += count;
    }
  }
  if (s.examples == 0) return s;
  s.accuracy = static_cast<double>(correct) / static_cast<double>(s.examples);
  int64_t present = 0;
  for (size_t c = 0; c < n; ++c) {
    ClassScore &score = s.perClass[c];
    const auto hits = static_cast<double>(at(c, c));
    score.precision = predicted[c] ? hits / static_cast<double>(predicted[c]) : 0.0;
    score.recall = score.support ? hits / static_cast<double>(score.support) : 0.0;
    const double sum = score.precision + score.recall;
    score.f1 = sum > 0 ? 2.0 * score.precision * score.recall / sum : 0.0;
    // A class absent from truth and predictions has no defined scores: leaving it out keeps the
    // macro average from being dragged down by zeros that mean "not applicable".
    if (score.support == 0 && predicted[c] == 0) continue;
    ++present;
    s.macroPrecision += score.precision;
    s.macroRecall += score.recall;
    s.macroF1 += score.f1;
    const double weight = static_cast<double>(score.support) / static_cast<double>(s.examples);
    s.weightedPrecision += weight * score.precision;
    s.weightedRecall += weight * score.recall;
    s.weightedF1 += weight * score.f1;
  }
  // present > 0 here: a non-empty matrix has at least one class with support.
  s.macroPrecision /= static_cast<double>(present);
  s.macroRecall /= static_cast<double>(present);
  s.macroF1 /= static_cast<double>(present);
  return s;
}

}  // namespace tw::metrics
