#include "core/validate/memory_estimate.h"

#include "core/config/number_text.h"
#include "core/config/optimizer_table.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

namespace tw::validate {

namespace {

int optimizerStates(const config::TrainOptions &t) {
  const config::OptimizerInfo *optimizer = config::findOptimizer(t.optimizer);
  return optimizer ? optimizer->stateTensors(t) : 0;
}

// Under autocast most activations are half width; inputs keep their own type.
double elementBytes(const spec::NodeInfo &node, const std::string &precision) {
  if (node.op == "Input") {
    auto it = node.params.find("dtype");
    const bool int64 = it != node.params.end() && std::holds_alternative<std::string>(it->second) &&
                       std::get<std::string>(it->second) == "int64";
    return int64 ? 8.0 : 4.0;
  }
  return precision == "fp32" ? 4.0 : 2.0;
}

double elements(const spec::Shape &shape) {
  double n = 1.0;
  for (int64_t d : shape) n *= static_cast<double>(d);
  return n;
}

}  // namespace

MemoryEstimate estimateMemory(const config::RunConfig &config, const spec::Analysis &analysis) {
  MemoryEstimate e;
  const double params = static_cast<double>(analysis.totalParams);
  e.parameters = params * 4.0;
  e.gradients = params * 4.0;
  e.optimizerStates = optimizerStates(config.train);
  e.optimizerState = params * 4.0 * e.optimizerStates;
  const int64_t ranks = std::max<int64_t>(1, config.distributed.nprocPerNode);
  e.batch = (config.data.batchSize + ranks - 1) / ranks;
  if (ranks > 1 && config.distributed.shard != "none") {
    e.shardRanks = static_cast<int>(ranks);
    e.optimizerState /= static_cast<double>(ranks);
    e.parameterShard = e.parameters / static_cast<double>(ranks);
    if (config.distributed.shard == "gradients" && config.train.accumulate <= 1) {
      e.gradientsSharded = true;
      // A bucket in flight is held twice (what this rank sends, what it receives), two at a time.
      const double inFlight = 4.0 * config.distributed.bucketMb * 1024.0 * 1024.0;
      e.gradients = e.gradients / static_cast<double>(ranks) + std::min(e.gradients, inFlight);
    }
  }
  // A checkpointed segment keeps only the outputs read outside it; its other outputs exist again
  // while the backward pass recomputes it, one segment at a time.
  std::map<std::string, std::string> segmentOf;
  for (const spec::NodeInfo &node : analysis.nodes) segmentOf[node.id] = node.checkpointSegment;
  std::set<std::string> readOutside;
  for (const spec::NodeInfo &node : analysis.nodes)
    for (const std::string &input : node.inputs)
      if (segmentOf[input] != node.checkpointSegment) readOutside.insert(input);
  const std::string output = analysis.output.empty() && !analysis.nodes.empty() ? analysis.nodes.back().id : analysis.output;
  double kept = 0.0;
  std::map<std::string, double> recomputed;
  for (const spec::NodeInfo &node : analysis.nodes) {
    const double bytes = elements(node.outputShape) * elementBytes(node, config.train.precision);
    if (node.checkpointSegment.empty() || readOutside.count(node.id) || node.id == output) kept += bytes;
    else recomputed[node.checkpointSegment] += bytes;
  }
  double largestSegment = 0.0;
  for (const auto &[segment, bytes] : recomputed) largestSegment = std::max(largestSegment, bytes);
  e.activations = (kept + largestSegment) * static_cast<double>(e.batch);
  e.checkpointedSegments = static_cast<int>(recomputed.size());
  return e;
}

std::string formatMemoryEstimate(const MemoryEstimate &e, const config::RunConfig &config) {
  char head[200];
  std::snprintf(head, sizeof head, "Memory estimate (per rank; batch %lld, %s, %s):\n", static_cast<long long>(e.batch),
                config.train.precision.c_str(), config.train.optimizer.c_str());
  std::string out = head;
  // Wide enough for "activations (N recomputed)", so the figures stay in one column.
  auto row = [&out](const std::string &what, double bytes) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-28s %12s\n", what.c_str(), config::formatBytes(bytes).c_str());
    out += line;
  };
  const std::string share = "1/" + std::to_string(e.shardRanks);
  row("parameters", e.parameters);
  row(e.gradientsSharded ? "gradients (" + share + " + buckets)" : std::string("gradients"), e.gradients);
  row("optimiser state (" + std::to_string(e.optimizerStates) + "x" + (e.shardRanks > 1 ? ", " + share : std::string()) + ")",
      e.optimizerState);
  if (e.shardRanks > 1) row("parameter shard (" + share + ")", e.parameterShard);
  row(e.checkpointedSegments > 0 ? "activations (" + std::to_string(e.checkpointedSegments) + " recomputed)"
                                  : std::string("activations"),
      e.activations);
  row("total", e.total());
  return out;
}

}  // namespace tw::validate
