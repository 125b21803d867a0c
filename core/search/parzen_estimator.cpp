#include "core/search/parzen_estimator.h"

#include "core/search/truncated_normal.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tw::search {

namespace {

constexpr double kEps = 1e-12;
constexpr double kSigma0Magnitude = 0.2;  // Optuna's constant in Scott's rule

bool isCategorical(const ParamSpec *spec) { return spec->type == ParamType::Categorical; }

// Width of one value's cell in the unit image when the density is scored by cell mass: ints and
// stepped floats on a linear scale. A log int is modelled as continuous and rounded, as Optuna does.
double cellWidth(const ParamSpec &spec) {
  if (spec.type == ParamType::Categorical || spec.log) return 0.0;
  const long long n = cardinality(spec);
  return n > 0 ? 1.0 / static_cast<double>(n) : 0.0;
}

// Optuna's bandwidths for one parameter: each kernel as wide as the larger gap to its sorted
// neighbours (the domain ends count as neighbours), the outermost ones from their inner gap
// unless consider_endpoints.
std::vector<double> neighbourSigmas(const std::vector<double> &mus, bool considerEndpoints) {
  std::vector<size_t> order(mus.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return mus[a] < mus[b]; });
  std::vector<double> with(mus.size() + 2);
  with.front() = 0.0;
  with.back() = 1.0;
  for (size_t i = 0; i < order.size(); ++i) with[i + 1] = mus[order[i]];
  std::vector<double> sorted(mus.size());
  for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = std::max(with[i + 1] - with[i], with[i + 2] - with[i + 1]);
  if (!considerEndpoints && with.size() >= 4) {
    sorted.front() = with[2] - with[1];
    sorted.back() = with[with.size() - 2] - with[with.size() - 3];
  }
  std::vector<double> sigmas(mus.size());
  for (size_t i = 0; i < order.size(); ++i) sigmas[order[i]] = sorted[i];
  return sigmas;
}

}  // namespace

std::vector<double> defaultTpeWeights(size_t n) {
  std::vector<double> w(n, 1.0);
  if (n >= 25) {
    // numpy.linspace(1 / n, 1, n - 25)
    const size_t ramp = n - 25;
    for (size_t i = 0; i < ramp; ++i)
      w[i] = ramp == 1 ? 1.0 / n : 1.0 / n + (1.0 - 1.0 / n) * static_cast<double>(i) / static_cast<double>(ramp - 1);
  }
  return w;
}

double snapUnit(const ParamSpec &spec, double unit) {
  if (spec.type == ParamType::Categorical) return unit;
  if (spec.type == ParamType::Float && spec.step <= 0) return std::clamp(unit, 0.0, 1.0);
  return toUnit(spec, fromUnit(spec, unit));
}

ParzenEstimator::ParzenEstimator(std::vector<const ParamSpec *> params, const std::vector<std::vector<double>> &observations,
                                 const ParzenOptions &options, std::vector<double> weights)
    : m_params(std::move(params)) {
  const size_t n = observations.size();
  const bool prior = options.considerPrior || n == 0;
  m_components = n + (prior ? 1 : 0);

  if (weights.empty()) weights = defaultTpeWeights(n);
  weights.resize(n);
  if (prior) weights.push_back(options.priorWeight);
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  m_weights = weights;
  // All-zero weights (prior_weight 0 and nothing observed) leave nothing to prefer: flat.
  for (double &w : m_weights) w = total > 0 ? w / total : 1.0 / static_cast<double>(m_weights.size());
  for (double w : m_weights) m_logWeights.push_back(w > 0 ? std::log(w) : -std::numeric_limits<double>::infinity());

  const size_t dims = m_params.size();
  m_mus.resize(dims);
  m_sigmas.resize(dims);
  m_logMass.resize(dims);
  m_categorical.resize(dims);
  m_cell.resize(dims);
  // Scott's rule for the joint estimator, as in BOHB.
  const double sigma0 =
      kSigma0Magnitude * std::pow(static_cast<double>(std::max<size_t>(n, 1)), -1.0 / (static_cast<double>(dims) + 4.0));

  for (size_t j = 0; j < dims; ++j) {
    const ParamSpec &spec = *m_params[j];
    if (isCategorical(&spec)) {
      const size_t choices = spec.choices.size();
      const double fill = options.priorWeight / static_cast<double>(prior ? n + 1 : n);
      auto &rows = m_categorical[j];
      rows.assign(m_components, std::vector<double>(choices, fill));
      for (size_t i = 0; i < n; ++i) {
        const auto index = static_cast<size_t>(std::clamp<long>(std::lround(observations[i][j]), 0, long(choices) - 1));
        rows[i][index] += 1.0;
      }
      for (auto &row : rows) {
        const double sum = std::accumulate(row.begin(), row.end(), 0.0);
        for (double &p : row) p = sum > 0 ? p / sum : 1.0 / static_cast<double>(choices);
      }
      continue;
    }
    m_cell[j] = cellWidth(spec);
    std::vector<double> mus(m_components);
    for (size_t i = 0; i < n; ++i) mus[i] = observations[i][j];
    if (prior) mus[n] = 0.5;
    std::vector<double> sigmas = options.multivariate ? std::vector<double>(m_components, sigma0)
                                                      : neighbourSigmas(mus, options.considerEndpoints);
    const double minSigma =
        options.considerMagicClip ? 1.0 / std::min(100.0, 1.0 + static_cast<double>(m_components)) : kEps;
    for (double &s : sigmas) s = std::clamp(s, minSigma, 1.0);
    if (prior) sigmas[n] = 1.0;
    std::vector<double> logMass(m_components);
    for (size_t i = 0; i < m_components; ++i) logMass[i] = logGaussMass(-mus[i] / sigmas[i], (1.0 - mus[i]) / sigmas[i]);
    m_mus[j] = std::move(mus);
    m_sigmas[j] = std::move(sigmas);
    m_logMass[j] = std::move(logMass);
  }
}

std::vector<std::vector<double>> ParzenEstimator::sample(Rng &rng, int size) const {
  std::vector<std::vector<double>> samples(static_cast<size_t>(std::max(size, 0)), std::vector<double>(m_params.size()));
  for (auto &s : samples) {
    const size_t k = rng.weighted(m_weights);
    for (size_t j = 0; j < m_params.size(); ++j) {
      const ParamSpec &spec = *m_params[j];
      if (isCategorical(&spec)) {
        s[j] = static_cast<double>(rng.weighted(m_categorical[j][k]));
      } else {
        const double u = sampleTruncatedNormal(rng, m_mus[j][k], m_sigmas[j][k], 0.0, 1.0);
        s[j] = snapUnit(spec, u);
      }
    }
  }
  return samples;
}

double ParzenEstimator::kernelLogPdf(size_t k, size_t j, double x) const {
  if (isCategorical(m_params[j])) {
    const auto &row = m_categorical[j][k];
    const auto index = static_cast<size_t>(std::clamp<long>(std::lround(x), 0, long(row.size()) - 1));
    return std::log(row[index]);
  }
  const double mu = m_mus[j][k], sigma = m_sigmas[j][k];
  if (m_cell[j] > 0) {
    const double lower = std::max(x - 0.5 * m_cell[j], 0.0), upper = std::min(x + 0.5 * m_cell[j], 1.0);
    return logGaussMass((lower - mu) / sigma, (upper - mu) / sigma) - m_logMass[j][k];
  }
  const double z = (x - mu) / sigma;
  // No -log(sigma): Optuna 3.1's truncated normal log pdf leaves it out, so each continuous kernel
  // counts in proportion to its width. We keep that on purpose: it is the TPE whose figures the
  // issue's targets quote, and with normalised kernels our TPE measured clearly worse on Branin
  // and Hartmann-6 (tests/bench/bench_samplers, 40 seeds: median regret at 50 trials 0.31 and
  // 0.87 against 0.13 and 0.47). Discrete parameters use cell masses, which are normalised.
  return -0.5 * z * z - 0.91893853320467274178 - m_logMass[j][k];
}

std::vector<double> ParzenEstimator::logPdf(const std::vector<std::vector<double>> &samples) const {
  std::vector<double> out;
  out.reserve(samples.size());
  std::vector<double> terms(m_components);
  for (const auto &s : samples) {
    double top = -std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < m_components; ++k) {
      double t = m_logWeights[k];
      for (size_t j = 0; j < m_params.size(); ++j) t += kernelLogPdf(k, j, s[j]);
      terms[k] = t;
      top = std::max(top, t);
    }
    if (!std::isfinite(top)) {
      out.push_back(top);
      continue;
    }
    double sum = 0.0;
    for (double t : terms) sum += std::exp(t - top);
    out.push_back(top + std::log(sum));
  }
  return out;
}

}  // namespace tw::search
