#pragma once
// How much of a node the canvas draws at a zoom, so that any text it draws can be read: the full
// label (id, op, shape, parameters) where its smallest text is at least kMinTextPixels on screen;
// the op name alone, larger and filling the box, where only that can be read; below that a box in
// the node's colour (the overview, a large model zoomed far out). The nodes, the edge labels and
// the view's zoom rules all ask these functions, so what is drawn and the zooms agree.
//
//   const double scale = screenScale(painter->worldTransform());
//   if (readableAt(scale, kBodyPixels)) ...  // the full label

#include <QFont>
#include <QSizeF>
#include <QStringList>

class QTransform;

namespace tw::ui {

// Text smaller than this on screen (device-independent pixels) is not drawn.
inline constexpr double kMinTextPixels = 9.0;
// The full label's fonts, in scene units (pixels at zoom 1): the id, and the op and shape lines.
inline constexpr int kTitlePixels = 14;
inline constexpr int kBodyPixels = 13;
// The op name alone, when the full label is too small: this size, or less where a long name must
// fit the box.
inline constexpr int kOpNameMaxPixels = 30;

enum class NodeDetail { Full, OpName, Box };

// Screen pixels per scene unit under a painter's world transform, from its linear part alone.
// (QStyleOptionGraphicsItem::levelOfDetailFromTransform maps unit vectors with the translation, so
// its rounding depends on where an item is: at a zoom on a threshold, nodes further down the
// canvas fell below it and lost their text while the nodes above kept theirs.)
double screenScale(const QTransform &transform);
// Whether text `pixels` scene units high is drawn at `scale`. The view's zooms are products of
// scale factors, so a zoom meant to sit on the threshold may miss it by a rounding step.
bool readableAt(double scale, double pixels);
// The zoom from which the full label is drawn.
double fullLabelZoom();

// The canvas font (the application's family) `pixels` scene units high.
QFont canvasFont(int pixels, bool bold);

// An op name laid out to fill a node's box: one line, or two split between the words of a
// CamelCase name ("Batch", "Norm2d") when that is larger; `pixels` is its font size in scene units.
struct OpNameLayout {
  QStringList lines;
  int pixels = 0;
};
OpNameLayout layOutOpName(const QString &op, QSizeF box);

// What a node shows at `scale` whose op name is laid out as `opName`.
NodeDetail detailAt(double scale, const OpNameLayout &opName);

}  // namespace tw::ui
