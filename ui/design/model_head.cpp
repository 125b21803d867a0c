#include "ui/design/model_head.h"

#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "ui/design/commands/replace_head_command.h"
#include "ui/design/model_document.h"

#include <QSet>
#include <QUndoStack>

namespace tw::ui {

namespace {
const char *kLinear = "Linear";
}

QString ModelHead::find(const spec::ModelSpec &spec, const spec::Analysis &analysis, QString *why) {
  auto refuse = [why](const QString &reason) {
    if (why) *why = reason;
    return QString();
  };
  const spec::Node *node = spec.find(spec.output);
  if (!node) return refuse(tr("The model has no output node."));
  QSet<QString> seen;
  // Back from the output while nothing between it and the head learns anything: a Softmax or a
  // Dropout after the classifier leaves the classifier the layer to replace.
  while (node->op != kLinear) {
    const QString id = QString::fromStdString(node->id);
    if (seen.contains(id)) return refuse(tr("The model's graph has a cycle."));
    seen.insert(id);
    const spec::NodeInfo *info = analysis.find(node->id);
    if (info && info->paramCount > 0)
      return refuse(tr("%1 (%2) has parameters and comes after any Linear layer; the head to replace is the "
                       "Linear that feeds the output.").arg(id, QString::fromStdString(node->op)));
    if (node->inputs.size() != 1)
      return refuse(tr("%1 (%2) before the output does not have one input; the head to replace is the Linear that "
                       "feeds the output.").arg(id, QString::fromStdString(node->op)));
    node = spec.find(node->inputs.front());
    if (!node) return refuse(tr("%1 reads a node the model does not have.").arg(id));
  }
  return QString::fromStdString(node->id);
}

qint64 ModelHead::classCount(const spec::Analysis &analysis) {
  if (!analysis.ok()) return 0;
  const spec::NodeInfo *output = analysis.find(analysis.output);
  return output && output->outputShape.size() == 1 ? output->outputShape.front() : 0;
}

bool ModelHead::replace(ModelDocument *document, qint64 classes, QString *error) {
  if (classes < 1) {
    if (error) *error = tr("A head needs at least one output.");
    return false;
  }
  const QString id = find(document->spec(), document->analysis(), error);
  if (id.isEmpty()) return false;
  const spec::Node *old = document->node(id);
  // A fresh layer: its own out_features, in_features taken from the incoming shape again, the bias
  // as the old head had it. It trains (a new head starts from random weights); its rate factor stays.
  spec::Node head;
  head.id = old->id;
  head.op = kLinear;
  head.inputs = old->inputs;
  head.lrFactor = old->lrFactor;
  head.where = old->where;
  head.params["out_features"] = int64_t(classes);
  if (old->op == kLinear && spec::has(old->params, "bias")) head.params["bias"] = old->params.at("bias");
  const spec::NodeInfo *info = document->analysis().find(old->id);
  if (old->op == kLinear && old->trainable && info && info->outputShape.size() == 1 &&
      info->outputShape.front() == classes && spec::has(old->params, "out_features"))
    return true;  // already that head
  document->undoStack()->push(new ReplaceHeadCommand(document, head, tr("Replace head %1 (%2 classes)").arg(id).arg(classes)));
  return true;
}

}  // namespace tw::ui
