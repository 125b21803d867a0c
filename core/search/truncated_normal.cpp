#include "core/search/truncated_normal.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tw::search {

namespace {
constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))
}

double normalCdf(double x) { return 0.5 * std::erfc(-x / M_SQRT2); }

double logNormalCdf(double x) {
  if (x > 6) return std::log1p(-normalCdf(-x));
  if (x > -20) return std::log(normalCdf(x));
  // Asymptotic series of the lower tail (as SciPy's log_ndtr and Optuna's _log_ndtr use).
  const double logLhs = -0.5 * x * x - std::log(-x) - kLogSqrt2Pi;
  double last = 0.0, total = 1.0, numerator = 1.0, denominator = 1.0, sign = 1.0;
  const double inverseSquare = 1.0 / (x * x);
  for (int i = 1; std::fabs(last - total) > std::numeric_limits<double>::epsilon() && i < 100; ++i) {
    last = total;
    sign = -sign;
    denominator *= inverseSquare;
    numerator *= 2 * i - 1;
    total += sign * numerator * denominator;
  }
  return logLhs + std::log(total);
}

double normalQuantile(double p) {
  if (p <= 0) return -std::numeric_limits<double>::infinity();
  if (p >= 1) return std::numeric_limits<double>::infinity();
  // Acklam's rational approximation, then one Halley step on erfc for full double precision.
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double pLow = 0.02425;
  double x;
  if (p < pLow) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - pLow) {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const double q = std::sqrt(-2 * std::log1p(-p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const double e = normalCdf(x) - p;
  const double u = e * std::sqrt(2 * M_PI) * std::exp(0.5 * x * x);
  return x - u / (1 + 0.5 * x * u);
}

double logGaussMass(double a, double b) {
  // Work in the left tail, where the cdf keeps its relative precision.
  if (a > 0) return logGaussMass(-b, -a);
  if (b <= 0) {
    const double logB = logNormalCdf(b), logA = logNormalCdf(a);
    if (logA == -std::numeric_limits<double>::infinity()) return logB;
    return logB + std::log1p(-std::exp(logA - logB));
  }
  return std::log1p(-normalCdf(a) - normalCdf(-b));
}

double sampleTruncatedNormal(Rng &rng, double mu, double sigma, double low, double high) {
  double a = (low - mu) / sigma, b = (high - mu) / sigma;
  // Mirror a draw wholly in the right tail into the left one, where Phi is precise.
  const bool mirror = a > 0;
  if (mirror) {
    const double oldA = a;
    a = -b;
    b = -oldA;
  }
  const double pa = normalCdf(a), pb = normalCdf(b);
  const double u = rng.uniform();
  double z = pb > pa ? normalQuantile(pa + u * (pb - pa)) : 0.5 * (a + b);
  if (!std::isfinite(z)) z = u < 0.5 ? a : b;
  z = std::clamp(z, a, b);
  return mu + sigma * (mirror ? -z : z);
}

double truncatedNormalLogPdf(double x, double mu, double sigma, double low, double high) {
  const double z = (x - mu) / sigma;
  return -0.5 * z * z - kLogSqrt2Pi - std::log(sigma) - logGaussMass((low - mu) / sigma, (high - mu) / sigma);
}

}  // namespace tw::search
