#include "core/search/random_forest.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace tw::search {

namespace {

// scikit-learn's FEATURE_THRESHOLD: values closer than this are not split apart.
constexpr double kFeatureThreshold = 1e-7;

double weightedVariance(const std::vector<double> &values, const std::vector<double> &weights) {
  double total = 0, mean = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    total += weights[i];
    mean += weights[i] * values[i];
  }
  if (total <= 0) return 0.0;
  mean /= total;
  double variance = 0;
  for (size_t i = 0; i < values.size(); ++i) variance += weights[i] * (values[i] - mean) * (values[i] - mean);
  return variance / total;
}

}  // namespace

void RegressionTree::fit(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets,
                         const std::vector<size_t> &sample, const std::vector<FeatureRange> &domain,
                         const ForestOptions &options, Rng &rng) {
  if (sample.empty()) throw std::invalid_argument("a regression tree needs at least one row");
  m_nodes.clear();
  m_leaves.clear();
  m_domain = domain;
  std::vector<size_t> idx = sample;
  grow(rows, targets, idx, 0, idx.size(), 0, options, rng);
  std::vector<double> low(domain.size()), high(domain.size());
  for (size_t f = 0; f < domain.size(); ++f) {
    low[f] = domain[f].low;
    high[f] = domain[f].high;
  }
  collectLeaves(0, low, high);
}

int RegressionTree::grow(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets,
                         std::vector<size_t> &idx, size_t begin, size_t end, int depth, const ForestOptions &options,
                         Rng &rng) {
  const size_t n = end - begin;
  double sum = 0;
  for (size_t i = begin; i < end; ++i) sum += targets[idx[i]];
  const double mean = sum / static_cast<double>(n);
  double impurity = 0;  // two passes: E[y^2] - mean^2 would not reach zero for a constant large y
  for (size_t i = begin; i < end; ++i) impurity += (targets[idx[i]] - mean) * (targets[idx[i]] - mean);
  impurity /= static_cast<double>(n);
  const int self = static_cast<int>(m_nodes.size());
  m_nodes.push_back(Node{});
  m_nodes[static_cast<size_t>(self)].value = mean;
  const size_t minLeaf = static_cast<size_t>(std::max(1, options.minSamplesLeaf));
  if (static_cast<int>(n) < options.minSamplesSplit || n < 2 * minLeaf || depth >= options.maxDepth ||
      impurity <= std::numeric_limits<double>::epsilon())
    return self;

  // Every feature is a candidate (scikit-learn's regressor default), visited in a random order
  // so that equally good splits go to a random feature, as there.
  std::vector<int> features(m_domain.size());
  std::iota(features.begin(), features.end(), 0);
  rng.shuffle(features);

  double bestProxy = -std::numeric_limits<double>::infinity();
  int bestFeature = -1;
  double bestThreshold = 0;
  std::vector<std::pair<double, double>> column(n);
  for (int f : features) {
    for (size_t i = 0; i < n; ++i) column[i] = {rows[idx[begin + i]][static_cast<size_t>(f)], targets[idx[begin + i]]};
    std::sort(column.begin(), column.end());
    if (column.back().first <= column.front().first + kFeatureThreshold) continue;
    double left = 0;
    for (size_t i = 0; i + 1 < n; ++i) {
      left += column[i].second;
      const size_t nLeft = i + 1, nRight = n - nLeft;
      if (nLeft < minLeaf || nRight < minLeaf) continue;
      if (column[i + 1].first <= column[i].first + kFeatureThreshold) continue;
      const double right = sum - left;
      // Maximising this maximises the decrease in squared error (scikit-learn's proxy).
      const double proxy = left * left / static_cast<double>(nLeft) + right * right / static_cast<double>(nRight);
      if (proxy > bestProxy) {
        bestProxy = proxy;
        bestFeature = f;
        bestThreshold = 0.5 * (column[i].first + column[i + 1].first);
        if (bestThreshold >= column[i + 1].first) bestThreshold = column[i].first;
      }
    }
  }
  if (bestFeature < 0) return self;

  const auto middle = std::partition(idx.begin() + static_cast<std::ptrdiff_t>(begin),
                                     idx.begin() + static_cast<std::ptrdiff_t>(end), [&](size_t row) {
                                       return rows[row][static_cast<size_t>(bestFeature)] <= bestThreshold;
                                     });
  const size_t split = static_cast<size_t>(middle - idx.begin());
  m_nodes[static_cast<size_t>(self)].feature = bestFeature;
  m_nodes[static_cast<size_t>(self)].threshold = bestThreshold;
  const int left = grow(rows, targets, idx, begin, split, depth + 1, options, rng);
  const int right = grow(rows, targets, idx, split, end, depth + 1, options, rng);
  m_nodes[static_cast<size_t>(self)].left = left;
  m_nodes[static_cast<size_t>(self)].right = right;
  return self;
}

void RegressionTree::collectLeaves(int node, std::vector<double> low, std::vector<double> high) {
  const Node &n = m_nodes[static_cast<size_t>(node)];
  if (n.feature < 0) {
    double volume = 1;
    for (size_t f = 0; f < low.size(); ++f) volume *= high[f] - low[f];
    m_leaves.push_back(Leaf{std::move(low), std::move(high), n.value, volume});
    return;
  }
  const size_t f = static_cast<size_t>(n.feature);
  std::vector<double> leftHigh = high, rightLow = low;
  leftHigh[f] = std::min(high[f], n.threshold);
  rightLow[f] = std::max(low[f], n.threshold);
  collectLeaves(n.left, low, leftHigh);
  collectLeaves(n.right, rightLow, high);
}

double RegressionTree::predict(const std::vector<double> &x) const {
  int node = 0;
  while (m_nodes[static_cast<size_t>(node)].feature >= 0) {
    const Node &n = m_nodes[static_cast<size_t>(node)];
    node = x[static_cast<size_t>(n.feature)] <= n.threshold ? n.left : n.right;
  }
  return m_nodes[static_cast<size_t>(node)].value;
}

double RegressionTree::marginal(const std::vector<int> &features, const std::vector<double> &point) const {
  // Each leaf whose box holds `point` in the given features contributes its value, weighted by
  // the volume of its box in the other features: the average over those features.
  double total = 0, weighted = 0;
  for (const Leaf &leaf : m_leaves) {
    bool inside = true;
    for (size_t k = 0; k < features.size() && inside; ++k) {
      const size_t f = static_cast<size_t>(features[k]);
      const double x = point[k];
      inside = (x > leaf.low[f] || (x == leaf.low[f] && leaf.low[f] == m_domain[f].low)) && x <= leaf.high[f];
    }
    if (!inside) continue;
    double weight = leaf.volume;
    for (int f : features) {
      const double width = leaf.high[static_cast<size_t>(f)] - leaf.low[static_cast<size_t>(f)];
      if (width > 0) weight /= width;
    }
    total += weight;
    weighted += weight * leaf.value;
  }
  return total > 0 ? weighted / total : std::numeric_limits<double>::quiet_NaN();
}

double RegressionTree::variance() const {
  std::vector<double> values, volumes;
  for (const Leaf &leaf : m_leaves) {
    values.push_back(leaf.value);
    volumes.push_back(leaf.volume);
  }
  return weightedVariance(values, volumes);
}

std::vector<double> RegressionTree::splits(int feature) const {
  std::vector<double> out;
  for (const Node &n : m_nodes)
    if (n.feature == feature) out.push_back(n.threshold);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double RegressionTree::marginalVariance(int feature) const {
  // The marginal is constant between consecutive thresholds, so its variance over the feature
  // is that of its value at each interval's midpoint, weighted by the interval's width.
  const FeatureRange &range = m_domain[static_cast<size_t>(feature)];
  std::vector<double> edges{range.low};
  for (double s : splits(feature)) edges.push_back(s);
  edges.push_back(range.high);
  std::vector<double> values, widths;
  for (size_t i = 0; i + 1 < edges.size(); ++i) {
    values.push_back(marginal({feature}, {0.5 * (edges[i] + edges[i + 1])}));
    widths.push_back(edges[i + 1] - edges[i]);
  }
  return weightedVariance(values, widths);
}

void RandomForest::fit(const std::vector<std::vector<double>> &rows, const std::vector<double> &targets,
                       const std::vector<FeatureRange> &domain) {
  m_trees.assign(static_cast<size_t>(std::max(1, m_options.nTrees)), RegressionTree{});
  for (size_t t = 0; t < m_trees.size(); ++t) {
    Rng rng(Rng::trialSeed(m_options.seed, static_cast<int>(t)));
    std::vector<size_t> sample(rows.size());
    if (m_options.bootstrap) {
      for (auto &s : sample) s = static_cast<size_t>(rng.below(static_cast<int64_t>(rows.size())));
    } else {
      std::iota(sample.begin(), sample.end(), size_t{0});
    }
    m_trees[t].fit(rows, targets, sample, domain, m_options, rng);
  }
}

double RandomForest::predict(const std::vector<double> &x) const {
  double sum = 0;
  for (const auto &tree : m_trees) sum += tree.predict(x);
  return sum / static_cast<double>(m_trees.size());
}

double RandomForest::marginal(const std::vector<int> &features, const std::vector<double> &point) const {
  double sum = 0;
  for (const auto &tree : m_trees) sum += tree.marginal(features, point);
  return sum / static_cast<double>(m_trees.size());
}

}  // namespace tw::search
