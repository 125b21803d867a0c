#pragma once
// The filter typed above the Runs table, in the spirit of W&B's and MLflow's run search:
//
//   baseline                 the word in the name, experiment, labels or note
//   val/accuracy>=0.9        a metric's latest value against a number
//   train.lr<0.01  lr<0.01   a parameter (by full key, or by its last part when unique)
//   train.optimizer=adam     a parameter or metric equal to a text or number (!= too)
//   tag:ablation  #ablation  a label
//
// Terms are joined by AND. A comparison on a key the run lacks does not match it.

#include "ui/workspace/poll_results.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace tw::ui {

class RunQuery {
 public:
  static RunQuery parse(const QString &text);

  bool isEmpty() const { return m_words.isEmpty() && m_labels.isEmpty() && m_comparisons.empty(); }
  bool matches(const RunSnapshot &run) const;

 private:
  enum class Op { Less, LessEqual, Greater, GreaterEqual, Equal, NotEqual };
  struct Comparison {
    QString key;
    Op op;
    QString value;
  };
  static bool compare(const Comparison &term, const RunSnapshot &run);

  QStringList m_words;
  QStringList m_labels;
  std::vector<Comparison> m_comparisons;
};

}  // namespace tw::ui
