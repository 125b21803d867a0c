#include "core/search/analysis_axis.h"

#include <cmath>
#include <cstdio>

namespace tw::search {

namespace {

std::string tickText(double v) {
  if (std::fabs(v) < 1e-12) v = 0.0;  // k * step can land a hair off zero
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

// Multiples of `step` within [low, high], as k * step so no error accumulates.
std::vector<double> multiples(double low, double high, double step) {
  std::vector<double> out;
  const double slack = step * 1e-9;
  for (double k = std::ceil((low - slack) / step); k * step <= high + slack; k += 1.0) out.push_back(k * step);
  return out;
}

}  // namespace

double niceStep(double range, int count) {
  if (!(range > 0)) return 1.0;
  const double raw = range / std::max(1, count);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double factor = norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0;
  return factor * magnitude;
}

AnalysisAxis paramAxis(const ParamSpec &spec) {
  AnalysisAxis axis;
  axis.label = spec.key;
  if (spec.type == ParamType::Categorical) {
    axis.categorical = true;
    for (size_t i = 0; i < spec.choices.size(); ++i)
      axis.ticks.push_back({toUnit(spec, static_cast<double>(i)), spec.choices[i]});
    return axis;
  }
  axis.log = spec.log;
  const auto label = [&](double v) {
    return spec.type == ParamType::Int ? std::to_string(std::llround(v)) : tickText(v);
  };
  std::vector<double> values;
  if (spec.high <= spec.low) {
    values = {spec.low};
  } else if (spec.log) {
    const int first = static_cast<int>(std::ceil(std::log10(spec.low) - 1e-9));
    const int last = static_cast<int>(std::floor(std::log10(spec.high) + 1e-9));
    const int every = std::max(1, (last - first + 1 + 5) / 6);  // at most about six decades labelled
    for (int k = first; k <= last; k += every) values.push_back(std::pow(10.0, k));
    if (values.size() < 2) {
      values.clear();
      for (int k = first - 1; k <= last; ++k)
        for (double m : {1.0, 2.0, 5.0}) {
          const double v = m * std::pow(10.0, k);
          if (v >= spec.low * (1 - 1e-9) && v <= spec.high * (1 + 1e-9)) values.push_back(v);
        }
    }
  } else {
    double step = niceStep(spec.high - spec.low, 4);
    if (spec.type == ParamType::Int) step = std::max(1.0, std::round(step));
    values = multiples(spec.low, spec.high, step);
  }
  for (double v : values) {
    if (spec.type == ParamType::Int && v != std::round(v)) continue;
    axis.ticks.push_back({toUnit(spec, v), label(v)});
  }
  return axis;
}

double valueAxisUnit(double value, double low, double high) {
  return high > low ? (value - low) / (high - low) : 0.5;
}

AnalysisAxis valueAxis(const std::string &label, double low, double high) {
  AnalysisAxis axis;
  axis.label = label;
  if (!(high > low)) {
    axis.ticks.push_back({0.5, tickText(low)});
    return axis;
  }
  for (double v : multiples(low, high, niceStep(high - low, 4)))
    axis.ticks.push_back({valueAxisUnit(v, low, high), tickText(v)});
  return axis;
}

}  // namespace tw::search
