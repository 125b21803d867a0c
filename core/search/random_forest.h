#pragma once
// Regression trees and forests as scikit-learn's RandomForestRegressor grows them (best split
// on the squared error over every feature, midpoint thresholds, bootstrap samples), with what
// fANOVA needs on top: each leaf's box in the feature domain, and predictions with some
// features averaged out over their domain (marginals). Parameter importance and the contour
// plot use it; nothing else should need to know it exists.

#include "core/search/rng.h"

#include <cstdint>
#include <vector>

namespace tw::search {

struct ForestOptions {
  int nTrees = 64;
  int maxDepth = 64;
  int minSamplesSplit = 2;
  int minSamplesLeaf = 1;
  bool bootstrap = true;  // scikit-learn's default, which Optuna's fANOVA keeps
  uint64_t seed = 0;
};

// The domain of one feature; thresholds fall inside it.
struct FeatureRange {
  double low = 0.0, high = 1.0;
};

class RegressionTree {
 public:
  struct Leaf {
    std::vector<double> low, high;  // the box: low < x <= high per feature (low bound inclusive at the domain edge)
    double value = 0.0;             // mean target of the training rows in it
    double volume = 0.0;            // of the box
  };

  // rows[i] has one value per feature, each within `domain`; `sample` lists the rows to fit
  // (with repeats for a bootstrap sample).
  void fit(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets,
           const std::vector<size_t> &sample, const std::vector<FeatureRange> &domain, const ForestOptions &options,
           Rng &rng);

  double predict(const std::vector<double> &x) const;
  // The prediction with the features not in `features` averaged over their domain, at `point`
  // (one value per entry of `features`).
  double marginal(const std::vector<int> &features, const std::vector<double> &point) const;
  // Variance of the prediction over the uniform distribution on the domain.
  double variance() const;
  // fANOVA's share of one feature: the variance over that feature of its marginal.
  double marginalVariance(int feature) const;

  const std::vector<Leaf> &leaves() const { return m_leaves; }
  // The thresholds the tree splits `feature` at, ascending and distinct.
  std::vector<double> splits(int feature) const;

 private:
  struct Node {
    int feature = -1;  // -1: a leaf
    double threshold = 0.0;
    int left = -1, right = -1;
    double value = 0.0;
  };
  int grow(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets, std::vector<size_t> &idx,
           size_t begin, size_t end, int depth, const ForestOptions &options, Rng &rng);
  void collectLeaves(int node, std::vector<double> low, std::vector<double> high);

  std::vector<Node> m_nodes;
  std::vector<Leaf> m_leaves;
  std::vector<FeatureRange> m_domain;
};

class RandomForest {
 public:
  explicit RandomForest(ForestOptions options = {}) : m_options(options) {}
  void fit(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets,
           const std::vector<FeatureRange> &domain);
  const std::vector<RegressionTree> &trees() const { return m_trees; }
  double predict(const std::vector<double> &x) const;
  double marginal(const std::vector<int> &features, const std::vector<double> &point) const;

 private:
  ForestOptions m_options;
  std::vector<RegressionTree> m_trees;
};

}  // namespace tw::search
