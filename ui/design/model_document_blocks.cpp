// Grouping nodes into a reusable block and inserting a saved one: the part of ModelDocument
// that knows about block instance prefixes.

#include "ui/design/model_document.h"

#include "ui/design/commands/insert_nodes_command.h"

#include <QSet>
#include <QUndoStack>

#include <map>

namespace tw::ui {

namespace {

QString localId(const QString &id) { return id.section(QLatin1Char('.'), -1); }

}  // namespace

QString ModelDocument::blockPrefix(const QString &id) {
  const int dot = id.lastIndexOf(QLatin1Char('.'));
  return dot > 0 ? id.left(dot) : QString();
}

// A prefix no node uses yet: "dense", then "dense_2", "dense_3"...
static QString freeInstance(const ModelDocument &document, const QString &base) {
  auto used = [&](const QString &prefix) {
    for (const auto &n : document.spec().nodes) {
      const QString id = QString::fromStdString(n.id);
      if (id == prefix || id.startsWith(prefix + QLatin1Char('.'))) return true;
    }
    return false;
  };
  if (!used(base)) return base;
  for (int k = 2;; ++k)
    if (!used(base + QLatin1Char('_') + QString::number(k))) return base + QLatin1Char('_') + QString::number(k);
}

QString ModelDocument::groupIntoBlock(const QStringList &ids, const QString &blockName, QString *instance,
                                      QString *error) {
  auto fail = [&](const QString &message) {
    if (error) *error = message;
    return QString();
  };
  if (ids.isEmpty()) return fail(tr("Select the nodes to group first."));
  QSet<QString> members(ids.begin(), ids.end());
  std::vector<const spec::Node *> ordered;  // file order keeps the block's data flow order
  for (const auto &n : m_spec.nodes)
    if (members.contains(QString::fromStdString(n.id))) ordered.push_back(&n);
  if (ordered.size() != static_cast<size_t>(members.size())) return fail(tr("A selected node no longer exists."));
  for (const spec::Node *n : ordered)
    if (n->op == "Input") return fail(tr("%1 is an Input: a block takes its inputs from the model.").arg(QString::fromStdString(n->id)));
  // Members keep their own names inside the block; two with the same last part need telling apart.
  std::map<QString, QString> local;
  QSet<QString> takenLocal;
  for (const spec::Node *n : ordered) {
    const QString id = QString::fromStdString(n->id);
    QString name = localId(id);
    for (int k = 2; takenLocal.contains(name); ++k) name = localId(id) + QString::number(k);
    takenLocal.insert(name);
    local[id] = name;
  }

  spec::ModelSpec block;
  block.name = blockName.toStdString();
  for (const spec::Node *n : ordered) {
    spec::Node member = *n;
    member.id = local[QString::fromStdString(n->id)].toStdString();
    std::vector<std::string> inputs;
    for (const auto &input : n->inputs)
      if (local.count(QString::fromStdString(input))) inputs.push_back(local[QString::fromStdString(input)].toStdString());
    member.inputs = inputs;
    block.nodes.push_back(member);
  }
  block.output = block.nodes.back().id;

  QStringList from;  // copied: renaming edits the nodes `ordered` points at
  for (const spec::Node *n : ordered) from << QString::fromStdString(n->id);
  const QString prefix = freeInstance(*this, blockName);
  // One undo step; each rename re-points the inputs and the output that name the node.
  m_undo->beginMacro(tr("Group into block %1").arg(prefix));
  for (const QString &id : from) renameNode(id, prefix + QLatin1Char('.') + local[id]);
  m_undo->endMacro();
  if (instance) *instance = prefix;
  return QString::fromStdString(spec::toYaml(block));
}

QStringList ModelDocument::insertBlock(const QString &blockName, const QString &yaml, QPointF at) {
  spec::ModelSpec part;
  try {
    part = spec::parseModelYaml(yaml.toStdString(), blockName.toStdString() + ".block.yaml");
  } catch (const std::exception &) {
    return {};
  }
  if (part.nodes.empty()) return {};
  const QString prefix = freeInstance(*this, blockName);
  const QHash<QString, QPointF> layout = layeredPositions(part);
  std::map<std::string, std::string> renamed;
  for (const auto &n : part.nodes) renamed[n.id] = (prefix + QLatin1Char('.') + QString::fromStdString(n.id)).toStdString();
  std::vector<spec::Node> nodes;
  std::vector<QPointF> positions;
  QStringList ids;
  for (auto n : part.nodes) {
    positions.push_back(at + layout.value(QString::fromStdString(n.id)));
    n.id = renamed[n.id];
    for (auto &input : n.inputs) input = renamed.count(input) ? renamed[input] : input;
    ids << QString::fromStdString(n.id);
    nodes.push_back(std::move(n));
  }
  m_undo->push(new InsertNodesCommand(this, nodes, positions, tr("Insert block %1").arg(prefix)));
  return ids;
}

}  // namespace tw::ui
