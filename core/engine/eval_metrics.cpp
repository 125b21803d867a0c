#include "core/engine/eval_metrics.h"

#include "core/metrics/confusion_csv.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace tw::engine {

ClassificationCounts::ClassificationCounts(int64_t classes, int64_t topK)
    : m_classes(std::max<int64_t>(1, classes)), m_topK(std::max<int64_t>(1, topK)),
      m_confusion(static_cast<size_t>(m_classes * m_classes), 0) {}

void ClassificationCounts::add(int64_t truth, int64_t predicted, bool inTopK) {
  if (truth < 0 || truth >= m_classes || predicted < 0 || predicted >= m_classes)
    throw std::out_of_range("class index outside [0, " + std::to_string(m_classes) + ")");
  m_confusion[static_cast<size_t>(truth * m_classes + predicted)]++;
  m_topKHits += inTopK ? 1 : 0;
}

void ClassificationCounts::addMatrix(const std::vector<int64_t> &confusion, int64_t topKHits) {
  if (confusion.size() != m_confusion.size()) throw std::invalid_argument("confusion matrix of the wrong size");
  for (size_t i = 0; i < confusion.size(); ++i) m_confusion[i] += confusion[i];
  m_topKHits += topKHits;
}

ClassificationReport ClassificationCounts::report() const {
  ClassificationReport r;
  static_cast<metrics::ClassScores &>(r) = metrics::classScores(m_confusion, m_classes);
  r.classes = m_classes;
  r.k = m_topK;
  r.confusion = m_confusion;
  if (r.examples > 0) r.topK = static_cast<double>(m_topKHits) / static_cast<double>(r.examples);
  return r;
}

void RegressionSums::add(double truth, double predicted) {
  const double e = predicted - truth;
  addSums(1, e * e, e < 0 ? -e : e, truth, truth * truth);
}

void RegressionSums::addSums(int64_t count, double sse, double sae, double sumTruth, double sumTruthSquared) {
  m_count += count;
  m_sse += sse;
  m_sae += sae;
  m_sum += sumTruth;
  m_sumSquares += sumTruthSquared;
}

RegressionReport RegressionSums::report(int64_t examples) const {
  RegressionReport r;
  r.examples = examples;
  if (m_count == 0) return r;
  const double n = static_cast<double>(m_count);
  r.mse = m_sse / n;
  r.mae = m_sae / n;
  const double variance = m_sumSquares - m_sum * m_sum / n;  // total sum of squares
  r.r2 = variance > 0 ? 1.0 - m_sse / variance : 0.0;
  return r;
}

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", v);
  return text;
}

}  // namespace

std::string confusionCsv(const ClassificationReport &r, const std::vector<std::string> &classNames) {
  return metrics::confusionCsv(r.confusion, r.classes, classNames);
}

std::string classReportCsv(const ClassificationReport &r, const std::vector<std::string> &classNames) {
  std::string out = "class,precision,recall,f1,support\n";
  for (int64_t c = 0; c < r.classes; ++c) {
    const ClassMetrics &m = r.perClass[static_cast<size_t>(c)];
    out += metrics::csvClassName(classNames, c) + "," + number(m.precision) + "," + number(m.recall) + "," +
           number(m.f1) + "," + std::to_string(m.support) + "\n";
  }
  out += "macro avg," + number(r.macroPrecision) + "," + number(r.macroRecall) + "," + number(r.macroF1) + "," +
         std::to_string(r.examples) + "\n";
  out += "weighted avg," + number(r.weightedPrecision) + "," + number(r.weightedRecall) + "," + number(r.weightedF1) +
         "," + std::to_string(r.examples) + "\n";
  return out;
}

}  // namespace tw::engine
