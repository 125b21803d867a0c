#pragma once
// The normal distribution's pieces that TPE's Parzen estimators need, accurate in the tails
// (log-space where a probability would underflow), written once here rather than inside a sampler.

#include "core/search/rng.h"

namespace tw::search {

double normalCdf(double x);     // Phi(x)
double logNormalCdf(double x);  // log Phi(x), finite far into the lower tail
double normalQuantile(double p);  // Phi^-1(p), p in (0, 1)
// log(Phi(b) - Phi(a)) for a <= b, without cancellation in either tail.
double logGaussMass(double a, double b);

// A draw from N(mu, sigma) truncated to [low, high] (by inversion: one uniform per draw).
double sampleTruncatedNormal(Rng &rng, double mu, double sigma, double low, double high);
// log density of that truncated normal at x (x inside [low, high]).
double truncatedNormalLogPdf(double x, double mu, double sigma, double low, double high);

}  // namespace tw::search
