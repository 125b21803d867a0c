#pragma once
// The canvas's automatic layout: a layered (Sugiyama) drawing of the model graph, as Netron's
// dagre and Deep Network Designer draw networks. Nodes sit in layers along the data flow (a node
// one layer past its deepest input), an edge that skips layers gets a lane of its own through
// them, the order inside each layer is chosen to cross few edges (barycentre sweeps), and the
// nodes are then placed as close to their neighbours as the spacing allows, so a chain runs
// straight and a branch steps aside. Pure geometry: no widgets, so it is tested on its own.
//
//   LayeredLayout layout = layOutGraph({{"x", {}}, {"conv", {"x"}}, {"sum", {"conv", "x"}}},
//                                      LayoutFlow::TopToBottom, {190, 64});
//   layout.positions["conv"];  // its top-left corner; layout.crossings == 0

#include <QHash>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <vector>

namespace tw::ui {

enum class LayoutFlow { TopToBottom, LeftToRight };

struct LayoutNode {
  QString id;
  QStringList inputs;  // ids of the nodes it reads; unknown ids are ignored
};

struct LayeredLayout {
  QHash<QString, QPointF> positions;  // each node's top-left corner
  QHash<QString, int> layers;         // 0 for the inputs
  int crossings = 0;                  // edge crossings between adjacent layers, lanes included
};

LayeredLayout layOutGraph(const std::vector<LayoutNode> &nodes, LayoutFlow flow, QSizeF nodeSize);

// Distance from one layer to the next, and between neighbours in a layer, for a node size.
double layerStep(LayoutFlow flow, QSizeF nodeSize);
double neighbourStep(LayoutFlow flow, QSizeF nodeSize);

// Where a new node goes near `preferred` (a top-left corner) without touching any of `occupied`:
// the preferred spot when free, else the nearest free slot beside it across the flow.
QPointF freeSpot(const QList<QRectF> &occupied, QPointF preferred, LayoutFlow flow, QSizeF nodeSize);

}  // namespace tw::ui
