#include "ui/design/graph_layout.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace tw::ui {

namespace {

// A long edge's slot in each layer it passes through: narrow, so lanes pack beside the nodes.
constexpr double kLaneWidth = 28.0;
constexpr double kLaneGap = 18.0;
constexpr double kLanePull = 0.05;  // how much a lane moves a node, and weighs against one
constexpr int kOrderingRounds = 16;
constexpr int kPlacementRounds = 6;

struct Vertex {
  int layer = 0;
  bool lane = false;          // a point of a long edge, not a node
  std::vector<int> up, down;  // neighbours in the layers before and after
  int order = 0;              // index inside its layer
  double cross = 0;           // centre, across the flow
};

struct Layered {
  std::vector<Vertex> v;
  std::vector<std::vector<int>> layers;
};

// The graph's edges as lists of each node's inputs and readers, with the edges that close a cycle
// left out (the validator reports the cycle; the drawing still needs an order).
void acyclicEdges(const std::vector<LayoutNode> &nodes, std::vector<std::vector<int>> &preds,
                  std::vector<std::vector<int>> &succs) {
  const int n = static_cast<int>(nodes.size());
  QHash<QString, int> index;
  for (int i = 0; i < n; ++i)
    if (!index.contains(nodes[size_t(i)].id)) index.insert(nodes[size_t(i)].id, i);
  preds.assign(size_t(n), {});
  succs.assign(size_t(n), {});
  for (int i = 0; i < n; ++i) {
    for (const QString &input : nodes[size_t(i)].inputs) {
      const int u = index.value(input, -1);
      auto &p = preds[size_t(i)];
      if (u < 0 || u == i || std::find(p.begin(), p.end(), u) != p.end()) continue;
      p.push_back(u);
      succs[size_t(u)].push_back(i);
    }
  }
  std::vector<int> state(size_t(n), 0);  // 0 unseen, 1 on the stack, 2 done
  std::vector<std::pair<int, int>> back;
  for (int s = 0; s < n; ++s) {
    if (state[size_t(s)]) continue;
    std::vector<std::pair<int, size_t>> stack{{s, 0}};
    state[size_t(s)] = 1;
    while (!stack.empty()) {
      const int u = stack.back().first;
      const size_t k = stack.back().second++;
      if (k < succs[size_t(u)].size()) {
        const int w = succs[size_t(u)][k];
        if (state[size_t(w)] == 1) back.emplace_back(u, w);
        else if (state[size_t(w)] == 0) {
          state[size_t(w)] = 1;
          stack.emplace_back(w, 0);
        }
      } else {
        state[size_t(u)] = 2;
        stack.pop_back();
      }
    }
  }
  for (const auto &[u, w] : back) {
    auto &s = succs[size_t(u)];
    s.erase(std::remove(s.begin(), s.end(), w), s.end());
    auto &p = preds[size_t(w)];
    p.erase(std::remove(p.begin(), p.end(), u), p.end());
  }
}

// Longest path from the inputs; then every other source moves down to just before its first
// reader, so a second input or a constant sits beside where it is used, not at the top.
std::vector<int> assignLayers(const std::vector<std::vector<int>> &preds, const std::vector<std::vector<int>> &succs) {
  const size_t n = preds.size();
  std::vector<int> layer(n, 0), pending(n, 0), queue;
  for (size_t i = 0; i < n; ++i) {
    pending[i] = static_cast<int>(preds[i].size());
    if (!pending[i]) queue.push_back(static_cast<int>(i));
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const int u = queue[head];
    for (int w : succs[size_t(u)]) {
      layer[size_t(w)] = std::max(layer[size_t(w)], layer[size_t(u)] + 1);
      if (--pending[size_t(w)] == 0) queue.push_back(w);
    }
  }
  for (size_t i = 0; i < n; ++i) {
    if (!preds[i].empty() || succs[i].empty()) continue;
    int first = std::numeric_limits<int>::max();
    for (int w : succs[i]) first = std::min(first, layer[size_t(w)]);
    layer[i] = first - 1;
  }
  return layer;
}

Layered buildLayered(const std::vector<std::vector<int>> &preds, const std::vector<int> &layer) {
  Layered g;
  const size_t n = preds.size();
  g.v.resize(n);
  for (size_t i = 0; i < n; ++i) g.v[i].layer = layer[i];
  for (size_t to = 0; to < n; ++to) {
    for (int from : preds[to]) {
      int previous = from;
      for (int l = layer[size_t(from)] + 1; l < layer[to]; ++l) {
        Vertex lane;
        lane.layer = l;
        lane.lane = true;
        lane.up.push_back(previous);
        g.v.push_back(lane);
        const int id = static_cast<int>(g.v.size()) - 1;
        g.v[size_t(previous)].down.push_back(id);
        previous = id;
      }
      g.v[size_t(previous)].down.push_back(static_cast<int>(to));
      g.v[to].up.push_back(previous);
    }
  }
  int deepest = 0;
  for (const Vertex &x : g.v) deepest = std::max(deepest, x.layer);
  g.layers.assign(size_t(deepest) + 1, {});
  // First order: depth first from the inputs in file order, so a chain's members line up and a
  // skip connection's lane comes after the chain it skips.
  std::vector<bool> placed(g.v.size(), false);
  auto visit = [&](int start) {
    std::vector<int> stack{start};
    while (!stack.empty()) {
      const int u = stack.back();
      stack.pop_back();
      if (placed[size_t(u)]) continue;
      placed[size_t(u)] = true;
      g.layers[size_t(g.v[size_t(u)].layer)].push_back(u);
      const auto &down = g.v[size_t(u)].down;
      for (auto it = down.rbegin(); it != down.rend(); ++it)
        if (!placed[size_t(*it)]) stack.push_back(*it);
    }
  };
  for (size_t i = 0; i < n; ++i)
    if (g.v[i].up.empty()) visit(static_cast<int>(i));
  for (size_t i = 0; i < g.v.size(); ++i) visit(static_cast<int>(i));
  for (auto &members : g.layers)
    for (size_t k = 0; k < members.size(); ++k) g.v[size_t(members[k])].order = static_cast<int>(k);
  return g;
}

int crossingsBetween(const Layered &g, size_t upper) {
  std::vector<std::pair<int, int>> edges;
  for (int u : g.layers[upper])
    for (int w : g.v[size_t(u)].down) edges.emplace_back(g.v[size_t(u)].order, g.v[size_t(w)].order);
  int count = 0;
  for (size_t a = 0; a < edges.size(); ++a)
    for (size_t b = a + 1; b < edges.size(); ++b)
      if ((edges[a].first - edges[b].first) * (edges[a].second - edges[b].second) < 0) ++count;
  return count;
}

int totalCrossings(const Layered &g) {
  int total = 0;
  for (size_t l = 0; l + 1 < g.layers.size(); ++l) total += crossingsBetween(g, l);
  return total;
}

void renumber(Layered &g, size_t layer) {
  for (size_t k = 0; k < g.layers[layer].size(); ++k) g.v[size_t(g.layers[layer][k])].order = static_cast<int>(k);
}

// Orders a layer by the mean position of each member's neighbours on one side; a member without
// any keeps its place.
void sortByBarycentre(Layered &g, size_t layer, bool byUpper) {
  auto &members = g.layers[layer];
  std::vector<std::pair<double, int>> keyed;
  for (int u : members) {
    const auto &nb = byUpper ? g.v[size_t(u)].up : g.v[size_t(u)].down;
    double key = g.v[size_t(u)].order;
    if (!nb.empty()) {
      double sum = 0;
      for (int w : nb) sum += g.v[size_t(w)].order;
      key = sum / static_cast<double>(nb.size());
    }
    keyed.emplace_back(key, u);
  }
  std::stable_sort(keyed.begin(), keyed.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
  for (size_t k = 0; k < keyed.size(); ++k) members[k] = keyed[k].second;
  renumber(g, layer);
}

// Crossings among the edges of u and w (u placed before w) to one neighbouring layer.
int pairCrossings(const Layered &g, int u, int w, bool upper) {
  const auto &a = upper ? g.v[size_t(u)].up : g.v[size_t(u)].down;
  const auto &b = upper ? g.v[size_t(w)].up : g.v[size_t(w)].down;
  int count = 0;
  for (int x : a)
    for (int y : b)
      if (g.v[size_t(x)].order > g.v[size_t(y)].order) ++count;
  return count;
}

// Swaps neighbours in a layer while a swap removes crossings.
void transpose(Layered &g) {
  for (int pass = 0; pass < 8; ++pass) {
    bool improved = false;
    for (size_t l = 0; l < g.layers.size(); ++l) {
      auto &members = g.layers[l];
      for (size_t k = 0; k + 1 < members.size(); ++k) {
        const int u = members[k], w = members[k + 1];
        const int now = pairCrossings(g, u, w, true) + pairCrossings(g, u, w, false);
        const int swapped = pairCrossings(g, w, u, true) + pairCrossings(g, w, u, false);
        if (swapped < now) {
          std::swap(members[k], members[k + 1]);
          renumber(g, l);
          improved = true;
        }
      }
    }
    if (!improved) return;
  }
}

int orderLayers(Layered &g) {
  int best = totalCrossings(g);
  std::vector<std::vector<int>> bestLayers = g.layers;
  for (int round = 0; round < kOrderingRounds && best > 0; ++round) {
    const bool downward = round % 2 == 0;
    if (downward) {
      for (size_t l = 1; l < g.layers.size(); ++l) sortByBarycentre(g, l, true);
    } else {
      for (size_t l = g.layers.size() - 1; l-- > 0;) sortByBarycentre(g, l, false);
    }
    transpose(g);
    const int now = totalCrossings(g);
    if (now < best) {
      best = now;
      bestLayers = g.layers;
    }
  }
  g.layers = bestLayers;
  for (size_t l = 0; l < g.layers.size(); ++l) renumber(g, l);
  return best;
}

// Positions across the flow: each member as near the mean of its neighbours as the spacing lets
// it, solved per layer as a weighted isotonic regression (pool adjacent violators). Lanes weigh
// little and pull little, so a chain stays straight and the skip connection steps around it.
void placeAcross(Layered &g, double nodeSize, double nodeGap) {
  auto size = [&](int u) { return g.v[size_t(u)].lane ? kLaneWidth : nodeSize; };
  auto gap = [&](int a, int b) { return g.v[size_t(a)].lane || g.v[size_t(b)].lane ? kLaneGap : nodeGap; };
  for (const auto &members : g.layers) {
    double at = 0;
    for (size_t k = 0; k < members.size(); ++k) {
      if (k) at += (size(members[k - 1]) + size(members[k])) / 2 + gap(members[k - 1], members[k]);
      g.v[size_t(members[k])].cross = at;
    }
    for (int u : members) g.v[size_t(u)].cross -= at / 2;
  }
  auto settle = [&](size_t layer, bool byUpper) {
    const auto &members = g.layers[layer];
    const size_t m = members.size();
    std::vector<double> target(m), weight(m), offset(m, 0.0);
    for (size_t k = 0; k < m; ++k) {
      const Vertex &x = g.v[size_t(members[k])];
      const auto &nb = byUpper ? x.up : x.down;
      double sum = 0, total = 0;
      for (int w : nb) {
        const double pull = !x.lane && g.v[size_t(w)].lane ? kLanePull : 1.0;
        sum += pull * g.v[size_t(w)].cross;
        total += pull;
      }
      if (k) offset[k] = offset[k - 1] + (size(members[k - 1]) + size(members[k])) / 2 + gap(members[k - 1], members[k]);
      target[k] = (total > 0 ? sum / total : x.cross) - offset[k];
      weight[k] = x.lane ? kLanePull : 1.0;
    }
    struct Block {
      double weight, sum;
      size_t count;
    };
    std::vector<Block> blocks;
    for (size_t k = 0; k < m; ++k) {
      blocks.push_back({weight[k], weight[k] * target[k], 1});
      while (blocks.size() > 1) {
        const Block &last = blocks.back(), &before = blocks[blocks.size() - 2];
        if (before.sum / before.weight <= last.sum / last.weight) break;
        const Block merged{before.weight + last.weight, before.sum + last.sum, before.count + last.count};
        blocks.pop_back();
        blocks.back() = merged;
      }
    }
    size_t k = 0;
    for (const Block &b : blocks)
      for (size_t i = 0; i < b.count; ++i, ++k) g.v[size_t(members[k])].cross = b.sum / b.weight + offset[k];
  };
  for (int round = 0; round < kPlacementRounds; ++round) {
    for (size_t l = 1; l < g.layers.size(); ++l) settle(l, true);
    for (size_t l = g.layers.size() - 1; l-- > 0;) settle(l, false);
  }
  for (size_t l = 1; l < g.layers.size(); ++l) settle(l, true);
}

}  // namespace

double layerStep(LayoutFlow flow, QSizeF nodeSize) {
  // Room between layers for the edge and its shape label.
  return flow == LayoutFlow::TopToBottom ? nodeSize.height() + 56 : nodeSize.width() + 100;
}

double neighbourStep(LayoutFlow flow, QSizeF nodeSize) {
  return flow == LayoutFlow::TopToBottom ? nodeSize.width() + 40 : nodeSize.height() + 36;
}

LayeredLayout layOutGraph(const std::vector<LayoutNode> &nodes, LayoutFlow flow, QSizeF nodeSize) {
  LayeredLayout result;
  if (nodes.empty()) return result;
  std::vector<std::vector<int>> preds, succs;
  acyclicEdges(nodes, preds, succs);
  const std::vector<int> layer = assignLayers(preds, succs);
  Layered g = buildLayered(preds, layer);
  result.crossings = orderLayers(g);
  const bool down = flow == LayoutFlow::TopToBottom;
  const double across = down ? nodeSize.width() : nodeSize.height();
  placeAcross(g, across, neighbourStep(flow, nodeSize) - across);

  double low = std::numeric_limits<double>::max();
  for (size_t i = 0; i < nodes.size(); ++i) low = std::min(low, g.v[i].cross - across / 2);
  const double step = layerStep(flow, nodeSize);
  for (size_t i = 0; i < nodes.size(); ++i) {
    const double along = g.v[i].layer * step;
    const double side = std::round(g.v[i].cross - across / 2 - low);
    result.positions.insert(nodes[i].id, down ? QPointF(side, along) : QPointF(along, side));
    result.layers.insert(nodes[i].id, g.v[i].layer);
  }
  return result;
}

QPointF freeSpot(const QList<QRectF> &occupied, QPointF preferred, LayoutFlow flow, QSizeF nodeSize) {
  const QPointF sideways = flow == LayoutFlow::TopToBottom ? QPointF(neighbourStep(flow, nodeSize), 0)
                                                           : QPointF(0, neighbourStep(flow, nodeSize));
  auto isFree = [&](QPointF at) {
    const QRectF wanted = QRectF(at, nodeSize).adjusted(-12, -12, 12, 12);
    return std::none_of(occupied.begin(), occupied.end(), [&](const QRectF &r) { return r.intersects(wanted); });
  };
  for (int k = 0; k < 64; ++k) {
    // 0, +1, -1, +2, -2 ... steps across the flow
    const int steps = (k + 1) / 2 * (k % 2 ? 1 : -1);
    const QPointF at = preferred + sideways * steps;
    if (isFree(at)) return at;
  }
  return preferred + sideways * 33;
}

}  // namespace tw::ui
