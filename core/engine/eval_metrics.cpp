#include "core/engine/eval_metrics.h"

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
  r.classes = m_classes;
  r.k = m_topK;
  r.confusion = m_confusion;
  r.perClass.resize(static_cast<size_t>(m_classes));
  int64_t correct = 0;
  std::vector<int64_t> predictedCount(static_cast<size_t>(m_classes), 0);
  for (int64_t t = 0; t < m_classes; ++t) {
    for (int64_t p = 0; p < m_classes; ++p) {
      const int64_t n = m_confusion[static_cast<size_t>(t * m_classes + p)];
      r.examples += n;
      r.perClass[static_cast<size_t>(t)].support += n;
      predictedCount[static_cast<size_t>(p)] += n;
      if (t == p) correct += n;
    }
  }
  if (r.examples == 0) return r;
  r.accuracy = static_cast<double>(correct) / static_cast<double>(r.examples);
  r.topK = static_cast<double>(m_topKHits) / static_cast<double>(r.examples);
  // Classes absent from both truth and predictions would only dilute the macro average with
  // undefined zeros; scikit-learn averages over the labels present, and so do we.
  int64_t present = 0;
  for (int64_t c = 0; c < m_classes; ++c) {
    ClassMetrics &m = r.perClass[static_cast<size_t>(c)];
    const int64_t tp = m_confusion[static_cast<size_t>(c * m_classes + c)];
    const int64_t predicted = predictedCount[static_cast<size_t>(c)];
    m.precision = predicted ? static_cast<double>(tp) / static_cast<double>(predicted) : 0.0;
    m.recall = m.support ? static_cast<double>(tp) / static_cast<double>(m.support) : 0.0;
    m.f1 = m.precision + m.recall > 0 ? 2.0 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
    if (m.support == 0 && predicted == 0) continue;
    ++present;
    r.macroPrecision += m.precision;
    r.macroRecall += m.recall;
    r.macroF1 += m.f1;
    const double w = static_cast<double>(m.support) / static_cast<double>(r.examples);
    r.weightedPrecision += w * m.precision;
    r.weightedRecall += w * m.recall;
    r.weightedF1 += w * m.f1;
  }
  if (present) {
    r.macroPrecision /= static_cast<double>(present);
    r.macroRecall /= static_cast<double>(present);
    r.macroF1 /= static_cast<double>(present);
  }
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

std::string nameOf(const std::vector<std::string> &names, int64_t c) {
  std::string name = c < static_cast<int64_t>(names.size()) ? names[static_cast<size_t>(c)] : std::to_string(c);
  // CSV-quote names that need it.
  if (name.find_first_of(",\"\n") == std::string::npos) return name;
  std::string quoted = "\"";
  for (char ch : name) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", v);
  return text;
}

}  // namespace

std::string confusionCsv(const ClassificationReport &r, const std::vector<std::string> &classNames) {
  std::string out = "truth\\predicted";
  for (int64_t c = 0; c < r.classes; ++c) out += "," + nameOf(classNames, c);
  out += "\n";
  for (int64_t t = 0; t < r.classes; ++t) {
    out += nameOf(classNames, t);
    for (int64_t p = 0; p < r.classes; ++p) out += "," + std::to_string(r.confusion[static_cast<size_t>(t * r.classes + p)]);
    out += "\n";
  }
  return out;
}

std::string classReportCsv(const ClassificationReport &r, const std::vector<std::string> &classNames) {
  std::string out = "class,precision,recall,f1,support\n";
  for (int64_t c = 0; c < r.classes; ++c) {
    const ClassMetrics &m = r.perClass[static_cast<size_t>(c)];
    out += nameOf(classNames, c) + "," + number(m.precision) + "," + number(m.recall) + "," + number(m.f1) + "," +
           std::to_string(m.support) + "\n";
  }
  out += "macro avg," + number(r.macroPrecision) + "," + number(r.macroRecall) + "," + number(r.macroF1) + "," +
         std::to_string(r.examples) + "\n";
  out += "weighted avg," + number(r.weightedPrecision) + "," + number(r.weightedRecall) + "," + number(r.weightedF1) +
         "," + std::to_string(r.examples) + "\n";
  return out;
}

}  // namespace tw::engine
