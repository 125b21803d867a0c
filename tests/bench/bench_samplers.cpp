// Sampler quality and overhead, driven through Study ask/tell as users' sweeps are.
//
//   cmake --build build --target bench_samplers
//   build/bin/bench_samplers [--seeds 10] [--first-seed 1] [--trials 50] [--problems branin,hartmann6,network,...]
//                            [--overhead tpe@1000,...] [--no-overhead] [SAMPLER[:key=value,...] ...]
//
// Problems (minimised, regret = best value - known minimum): Branin (2-D), Hartmann-6 (6-D), and the
// mixed space of issue 13 (opt in {sgd, adam, rmsprop, adagrad}, lr log-uniform in [1e-5, 1], n int
// in [1, 100]; off[opt] + 0.5 (log10 lr - c[opt])^2 + ((n - 37) / 25)^2, minimum 0), and three the
// TPE was not tuned on (issue 25): Styblinski-Tang 5-D, Rosenbrock 4-D and a conditional network
// design (network() below). Without SAMPLER arguments every catalog sampler runs on every problem
// it handles (categorical ones need `categorical`), and one with `multivariate` or `group` flags
// also runs with each flag turned the other way. Prints the median and quartiles of the best regret
// after 10, 25 and 50 trials, the milliseconds per ask of each --overhead sampler at N completed
// trials, and one JSON line (with the catalog's option defaults and each TPE run's model).
#include "core/search/catalog.h"
#include "core/search/study.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace tw::search;

namespace {

struct Problem {
  std::string name;
  SearchSpace space;
  std::function<double(const Params &)> f;
  double minimum;
};

double branin(const Params &p) {
  const double x1 = p.at("x1"), x2 = p.at("x2");
  const double b = 5.1 / (4 * M_PI * M_PI), c = 5 / M_PI, t = 1 / (8 * M_PI);
  return std::pow(x2 - b * x1 * x1 + c * x1 - 6, 2) + 10 * (1 - t) * std::cos(x1) + 10;
}

double hartmann6(const Params &p) {
  static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static const double A[4][6] = {{10, 3, 17, 3.5, 1.7, 8}, {0.05, 10, 17, 0.1, 8, 14},
                                 {3, 3.5, 1.7, 10, 17, 8}, {17, 8, 0.05, 10, 0.1, 14}};
  static const double P[4][6] = {{1312, 1696, 5569, 124, 8283, 5886}, {2329, 4135, 8307, 3736, 1004, 9991},
                                 {2348, 1451, 3522, 2883, 3047, 6650}, {4047, 8828, 8732, 5743, 1091, 381}};
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    double inner = 0;
    for (int j = 0; j < 6; ++j) inner += A[i][j] * std::pow(p.at("x" + std::to_string(j)) - 1e-4 * P[i][j], 2);
    sum += alpha[i] * std::exp(-inner);
  }
  return -sum;
}

double mixed(const Params &p) {
  static const double off[4] = {0.3, 0.0, 0.1, 0.5}, c[4] = {-1.5, -3.0, -3.5, -2.0};
  const auto opt = static_cast<size_t>(std::lround(p.at("opt")));
  return off[opt] + 0.5 * std::pow(std::log10(p.at("lr")) - c[opt], 2) + std::pow((p.at("n") - 37) / 25, 2);
}

// Objectives the TPE was not tuned on (issue 25). Styblinski-Tang, 5-D on [-5, 5]: one good corner
// among 2^5 local minima, minimum -39.16616570377142 per dimension at x_i = -2.903534.
double styblinskiTang(const Params &p) {
  double sum = 0;
  for (int j = 0; j < 5; ++j) {
    const double x = p.at("x" + std::to_string(j));
    sum += x * x * x * x - 16 * x * x + 5 * x;
  }
  return 0.5 * sum;
}

// Rosenbrock, 4-D on [-2.048, 2.048]: a curved valley whose coordinates only pay off together;
// minimum 0 at (1, 1, 1, 1).
double rosenbrock(const Params &p) {
  double sum = 0;
  for (int j = 0; j < 3; ++j) {
    const double x = p.at("x" + std::to_string(j)), next = p.at("x" + std::to_string(j + 1));
    sum += 100 * std::pow(next - x * x, 2) + std::pow(1 - x, 2);
  }
  return sum;
}

// A made-up network design: `arch` chooses which parameters exist (a conditional space, as a sweep
// over model families has), lr is log-scaled and its best value moves with the batch size (the
// linear scaling rule), and within each family two parameters interact. Minimum 0: cnn, batch 64,
// lr 1e-3, 5 layers of 64 channels, kernel 3.
double network(const Params &p) {
  static const double base[3] = {0.15, 0.0, 0.05}, lrAt64[3] = {-2.5, -3.0, -3.5};
  static const double kernelCost[3] = {0.0, 0.05, 0.1}, headsCost[4] = {0.1, 0.05, 0.0, 0.02};
  const auto arch = static_cast<size_t>(std::lround(p.at("arch")));
  const double batch = std::log2(p.at("batch"));
  const double bestLr = lrAt64[arch] + 0.5 * std::log10(p.at("batch") / 64);
  double f = base[arch] + 0.5 * std::pow(std::log10(p.at("lr")) - bestLr, 2) + 0.02 * std::pow(batch - 6, 2);
  if (arch == 0) {  // mlp: wider wants more dropout
    const double width = std::log2(p.at("mlp_width"));
    f += 0.3 * std::pow((width - 9) / 3, 2) + 2 * std::pow(p.at("mlp_dropout") - (0.1 + 0.05 * (width - 4)), 2);
  } else if (arch == 1) {  // cnn: deeper wants more channels
    const double depth = p.at("cnn_depth");
    f += 0.05 * std::pow(depth - 5, 2) + 0.3 * std::pow((std::log2(p.at("cnn_channels")) - (4 + 0.4 * depth)) / 2, 2) +
         kernelCost[static_cast<size_t>(std::lround(p.at("cnn_kernel")))];
  } else {  // transformer
    f += headsCost[static_cast<size_t>(std::lround(p.at("tf_heads")))] +
         0.1 * std::pow(std::log10(p.at("tf_warmup")) - 3, 2) + 0.1 * std::pow((std::log10(p.at("tf_wd")) + 4) / 2, 2);
  }
  return f;
}

ParamSpec choice(const std::string &key, std::vector<std::string> choices) {
  ParamSpec spec{key, ParamType::Categorical};
  spec.choices = std::move(choices);
  return spec;
}

ParamSpec when(ParamSpec spec, const std::string &arch) {
  spec.when = {{"arch", {arch}}};
  return spec;
}

std::vector<Problem> problems() {
  std::vector<Problem> out;
  Problem b{"branin", {}, branin, 0.397887357729739};
  b.space.params = {{"x1", ParamType::Float, -5, 10}, {"x2", ParamType::Float, 0, 15}};
  out.push_back(b);
  Problem h{"hartmann6", {}, hartmann6, -3.32236801141551};
  for (int j = 0; j < 6; ++j) h.space.params.push_back({"x" + std::to_string(j), ParamType::Float, 0, 1});
  out.push_back(h);
  Problem m{"mixed", {}, mixed, 0.0};
  ParamSpec opt{"opt", ParamType::Categorical};
  opt.choices = {"sgd", "adam", "rmsprop", "adagrad"};
  m.space.params = {opt, {"lr", ParamType::Float, 1e-5, 1, true}, {"n", ParamType::Int, 1, 100}};
  out.push_back(m);
  Problem st{"styblinski5", {}, styblinskiTang, -39.16616570377142 * 5};
  for (int j = 0; j < 5; ++j) st.space.params.push_back({"x" + std::to_string(j), ParamType::Float, -5, 5});
  out.push_back(st);
  Problem r{"rosenbrock4", {}, rosenbrock, 0.0};
  for (int j = 0; j < 4; ++j) r.space.params.push_back({"x" + std::to_string(j), ParamType::Float, -2.048, 2.048});
  out.push_back(r);
  Problem n{"network", {}, network, 0.0};
  n.space.params = {choice("arch", {"mlp", "cnn", "transformer"}),
                    {"lr", ParamType::Float, 1e-5, 1, true},
                    {"batch", ParamType::Int, 8, 1024, true},
                    when({"mlp_width", ParamType::Int, 16, 2048, true}, "mlp"),
                    when({"mlp_dropout", ParamType::Float, 0, 0.8}, "mlp"),
                    when({"cnn_channels", ParamType::Int, 8, 256, false, 8}, "cnn"),
                    when(choice("cnn_kernel", {"3", "5", "7"}), "cnn"),
                    when({"cnn_depth", ParamType::Int, 1, 8}, "cnn"),
                    when(choice("tf_heads", {"1", "2", "4", "8"}), "transformer"),
                    when({"tf_warmup", ParamType::Float, 1, 1e4, true}, "transformer"),
                    when({"tf_wd", ParamType::Float, 1e-6, 0.1, true}, "transformer")};
  out.push_back(n);
  return out;
}

// "tpe:multivariate=true,n_startup_trials=5" -> the entry and its options.
struct SamplerChoice {
  std::string label;
  const SamplerEntry *entry = nullptr;
  OptionValues options;
};

SamplerChoice parseChoice(const std::string &text) {
  SamplerChoice c;
  c.label = text;
  const auto colon = text.find(':');
  const std::string name = text.substr(0, colon);
  c.entry = findSampler(name);
  if (!c.entry) {
    std::string known;
    for (const auto &e : samplerCatalog()) known += " " + e.name;
    std::fprintf(stderr, "bench_samplers: unknown sampler '%s' (known:%s)\n", name.c_str(), known.c_str());
    std::exit(2);
  }
  if (colon != std::string::npos) {
    std::stringstream rest(text.substr(colon + 1));
    std::string item;
    while (std::getline(rest, item, ',')) {
      const auto eq = item.find('=');
      if (eq == std::string::npos) continue;
      c.options[item.substr(0, eq)] = item.substr(eq + 1);
    }
  }
  const auto problems = checkOptions(c.entry->options, c.options);
  if (!problems.empty()) {
    std::fprintf(stderr, "bench_samplers: %s: %s\n", text.c_str(), problems.front().c_str());
    std::exit(2);
  }
  return c;
}

// Every sampler with its defaults, and for one with `multivariate` or `group` flags each flag
// turned the other way too, so the default is measured against its alternatives in the same run.
std::vector<SamplerChoice> defaultChoices() {
  std::vector<SamplerChoice> out;
  for (const auto &e : samplerCatalog()) {
    if (e.name == "grid") continue;  // an enumeration, not an optimiser: its order, not its skill, decides
    out.push_back(parseChoice(e.name));
    for (const auto &o : e.options)
      if ((o.key == "multivariate" || o.key == "group") && o.kind == OptionKind::Bool)
        out.push_back(parseChoice(e.name + ":" + o.key + "=" + (o.defaultText == "true" ? "false" : "true")));
  }
  return out;
}

// {"tpe": {"multivariate": "true", ...}, ...}: what a label's missing options mean, so that
// bench_samplers_optuna.py --like reads our labels as we do.
std::string defaultsJson() {
  std::string json = "{";
  for (const auto &e : samplerCatalog()) {
    json += std::string(json.size() > 1 ? ", " : "") + "\"" + e.name + "\": {";
    for (size_t i = 0; i < e.options.size(); ++i)
      json += std::string(i ? ", " : "") + "\"" + e.options[i].key + "\": \"" + e.options[i].defaultText + "\"";
    json += "}";
  }
  return json + "}";
}

// Which model a sampler with `multivariate` and `group` flags fits on `space`: "independent",
// "multivariate" or "multivariate+group"; empty for other samplers. Without conditional parameters
// group's one group is the whole space: the multivariate model.
std::string modelName(const SamplerChoice &c, const SearchSpace &space) {
  bool multivariate = false, group = false, conditional = false;
  for (const auto &o : c.entry->options) multivariate = multivariate || o.key == "multivariate", group = group || o.key == "group";
  for (const auto &p : space.params) conditional = conditional || !p.when.empty();
  if (!multivariate) return "";
  const OptionReader read(c.entry->options, c.options);
  if (!read.flag("multivariate")) return "independent";
  return conditional && group && read.flag("group") ? "multivariate+group" : "multivariate";
}

// numpy.percentile's default (linear interpolation).
double percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q / 100.0 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

bool handles(const SamplerEntry &e, const Problem &p) {
  if (e.categorical) return true;
  for (const auto &spec : p.space.params)
    if (spec.type == ParamType::Categorical) return false;
  return true;
}

// Wall and CPU milliseconds per ask: on a shared machine the wall time also counts other work.
struct AskTime {
  double wallMs = 0, cpuMs = 0;
};

AskTime msPerAsk(const SamplerChoice &c, const Problem &p, int completed, int asks) {
  // The history: `completed` random trials, so the measurement does not wait on the sampler itself.
  Study filler(p.space, {Direction::Minimize}, findSampler("random")->make({}), nullptr, 1);
  for (int i = 0; i < completed; ++i) {
    const Trial &t = filler.ask();
    filler.tell(t.number, {p.f(t.params)});
  }
  std::vector<Trial> trials = filler.trials();
  auto sampler = c.entry->make(c.options);
  const std::vector<Direction> dirs{Direction::Minimize};
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();
  for (int i = 0; i < asks; ++i) {
    const int number = static_cast<int>(trials.size());
    Trial t;
    t.number = number;
    t.params = nextTrialParams(*sampler, p.space, dirs, trials, number, 1);
    t.state = TrialState::Complete;
    t.values = {p.f(t.params)};
    trials.push_back(std::move(t));
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const double cpuMs = 1000.0 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  return {ms / asks, cpuMs / asks};
}

}  // namespace

int main(int argc, char **argv) {
  int seeds = 10, trials = 50, firstSeed = 1;
  bool overhead = true;
  std::vector<std::string> wanted;
  for (const Problem &p : problems()) wanted.push_back(p.name);
  std::vector<std::string> overheadSpecs = {"tpe@1000", "tpe:multivariate=false@1000"};
  std::vector<SamplerChoice> choices;
  auto split = [](const std::string &s) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, ',');) out.push_back(item);
    return out;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seeds" && i + 1 < argc) seeds = std::atoi(argv[++i]);
    else if (a == "--first-seed" && i + 1 < argc) firstSeed = std::atoi(argv[++i]);
    else if (a == "--trials" && i + 1 < argc) trials = std::atoi(argv[++i]);
    else if (a == "--problems" && i + 1 < argc) wanted = split(argv[++i]);
    else if (a == "--overhead" && i + 1 < argc) overheadSpecs = split(argv[++i]);
    else if (a == "--no-overhead") overhead = false;
    else if (a.rfind("--", 0) == 0) {
      std::fprintf(stderr, "bench_samplers: unknown option %s\n", a.c_str());
      return 2;
    } else choices.push_back(parseChoice(a));
  }
  if (seeds < 1 || trials < 1 || firstSeed < 0) {
    std::fprintf(stderr, "bench_samplers: --seeds and --trials must be positive, --first-seed not negative\n");
    return 2;
  }
  if (choices.empty()) choices = defaultChoices();
  std::vector<int> checkpoints;
  for (int at : {10, 25, 50})
    if (at <= trials) checkpoints.push_back(at);
  if (checkpoints.empty() || checkpoints.back() != trials) checkpoints.push_back(trials);

  std::string json = "{\"bench\": \"samplers\", \"impl\": \"torchwright\", \"seeds\": " + std::to_string(seeds) +
                     ", \"first_seed\": " + std::to_string(firstSeed) + ", \"trials\": " + std::to_string(trials) +
                     ", \"default_sampler\": \"" + defaultSamplerName() +
                     "\", \"defaults\": " + defaultsJson() + ", \"results\": [";
  bool firstResult = true;
  std::printf("best regret over %d seeds: median [q1, q3]\n", seeds);
  std::printf("%-11s %-26s", "problem", "sampler");
  for (int at : checkpoints) std::printf("  %-30s", ("after " + std::to_string(at)).c_str());
  std::printf("\n");
  for (const Problem &p : problems()) {
    if (std::find(wanted.begin(), wanted.end(), p.name) == wanted.end()) continue;
    for (const SamplerChoice &c : choices) {
      if (!handles(*c.entry, p)) continue;
      std::vector<std::vector<double>> regrets(checkpoints.size());
      const auto start = std::chrono::steady_clock::now();
      for (int seed = firstSeed; seed < firstSeed + seeds; ++seed) {
        Study study(p.space, {Direction::Minimize}, c.entry->make(c.options), nullptr, static_cast<uint64_t>(seed));
        double best = INFINITY;
        size_t next = 0;
        for (int i = 1; i <= trials; ++i) {
          const Trial &t = study.ask();
          const double value = p.f(t.params);
          study.tell(t.number, {value});
          best = std::min(best, value);
          if (next < checkpoints.size() && i == checkpoints[next]) regrets[next++].push_back(best - p.minimum);
        }
      }
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("%-11s %-26s", p.name.c_str(), c.label.c_str());
      json += std::string(firstResult ? "" : ", ") + "{\"problem\": \"" + p.name + "\", \"sampler\": \"" + c.label +
              "\", \"model\": \"" + modelName(c, p.space) + "\", \"seconds\": " + std::to_string(seconds) + ", \"regret\": {";
      firstResult = false;
      for (size_t k = 0; k < checkpoints.size(); ++k) {
        const double q1 = percentile(regrets[k], 25), med = percentile(regrets[k], 50), q3 = percentile(regrets[k], 75);
        char cell[64];
        std::snprintf(cell, sizeof cell, "%.4g [%.3g, %.3g]", med, q1, q3);
        std::printf("  %-30s", cell);
        char entry[160];
        std::snprintf(entry, sizeof entry, "%s\"%d\": [%.6g, %.6g, %.6g]", k ? ", " : "", checkpoints[k], q1, med, q3);
        json += entry;
      }
      // Every seed's final regret, so the comparison can test whether a difference is more than noise.
      json += "}, \"final\": [";
      for (size_t i = 0; i < regrets.back().size(); ++i) {
        char value[32];
        std::snprintf(value, sizeof value, "%s%.6g", i ? ", " : "", regrets.back()[i]);
        json += value;
      }
      json += "]}";
      std::printf("  (%.1f s)\n", seconds);
      std::fflush(stdout);
    }
  }
  json += "], \"overhead_ms\": {";
  if (overhead) {
    std::printf("\nsampler overhead (Hartmann-6, history of random trials):\n");
    bool firstOverhead = true;
    for (const std::string &spec : overheadSpecs) {
      const auto at = spec.rfind('@');
      const int completed = at == std::string::npos ? 1000 : std::atoi(spec.c_str() + at + 1);
      const SamplerChoice c = parseChoice(spec.substr(0, at));
      const AskTime time = msPerAsk(c, problems()[1], completed, 20);  // Hartmann-6
      const double ms = time.wallMs;
      std::printf("  %-26s at %5d trials: %8.2f ms per ask (%.2f ms of CPU)\n", c.label.c_str(), completed, ms,
                  time.cpuMs);
      char entry[200];
      std::snprintf(entry, sizeof entry, "%s\"%s@%d\": %.4f", firstOverhead ? "" : ", ", c.label.c_str(), completed, ms);
      json += entry;
      firstOverhead = false;
    }
  }
  json += "}}";
  std::printf("%s\n", json.c_str());
  return 0;
}
