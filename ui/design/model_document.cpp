#include "ui/design/model_document.h"

#include "core/spec/names.h"
#include "core/spec/registry.h"
#include "ui/design/commands/insert_nodes_command.h"
#include "ui/design/commands/move_nodes_command.h"
#include "ui/design/commands/remove_nodes_command.h"
#include "ui/design/commands/rename_node_command.h"
#include "ui/design/commands/set_checkpoint_command.h"
#include "ui/design/commands/replace_model_command.h"
#include "ui/design/commands/set_fine_tuning_command.h"
#include "ui/design/commands/set_param_command.h"
#include "ui/design/model_templates.h"
#include "ui/design/node_item.h"

#include <QFile>
#include <QSaveFile>
#include <QSet>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <map>

namespace tw::ui {

namespace {

// A first value for a parameter the registry requires but gives no default: what a person would
// most likely type, so that a node dropped on the canvas is valid at once.
std::optional<spec::ParamValue> startingValue(const spec::ParamDef &def) {
  if (def.defaultValue || def.inferred) return std::nullopt;
  static const std::map<std::string, spec::ParamValue> kCommon = {
      {"out_features", int64_t(64)}, {"out_channels", int64_t(16)}, {"kernel_size", spec::IntList{3, 3}},
      {"num_embeddings", int64_t(1000)}, {"embedding_dim", int64_t(64)}, {"shape", spec::IntList{1, 28, 28}},
      {"output_size", spec::IntList{1, 1}}};
  if (auto it = kCommon.find(def.name); it != kCommon.end()) return it->second;
  const int64_t low = def.min ? static_cast<int64_t>(*def.min) : 1;
  switch (def.type) {
    case spec::ParamType::Int: return std::max<int64_t>(low, 1);
    case spec::ParamType::Float: return def.min ? *def.min : 0.0;
    case spec::ParamType::Bool: return false;
    case spec::ParamType::String: return def.choices.empty() ? std::string() : def.choices.front();
    case spec::ParamType::IntPair: return spec::IntList{std::max<int64_t>(low, 1), std::max<int64_t>(low, 1)};
    case spec::ParamType::IntList: return spec::IntList{1};
  }
  return std::nullopt;
}

QString messageOf(const spec::Diagnostic &d) {
  const QString message = QString::fromStdString(d.message);
  return d.field.empty() ? message : QStringLiteral("%1: %2").arg(QString::fromStdString(d.field), message);
}

}  // namespace

ModelDocument::ModelDocument(QObject *parent) : QObject(parent), m_undo(new QUndoStack(this)) {
  m_spec.name = "model";
  m_savedYaml = toYaml();
  refresh();
}

ModelDocument::~ModelDocument() = default;

bool ModelDocument::isModified() const { return toYaml() != m_savedYaml; }

const spec::Node *ModelDocument::node(const QString &id) const { return m_spec.find(id.toStdString()); }

QString ModelDocument::problemOf(const QString &id) const {
  const std::string key = id.toStdString();
  for (const auto &d : m_analysis.diagnostics)
    if (d.node == key) return messageOf(d);
  return {};
}

QStringList ModelDocument::modelProblems() const {
  QStringList problems;
  for (const auto &d : m_analysis.diagnostics)
    if (d.node.empty() || !m_spec.find(d.node)) problems << messageOf(d);
  return problems;
}

// --- undoable edits ----------------------------------------------------------------------------

spec::Node ModelDocument::newNode(const QString &op) const {
  spec::Node node;
  node.op = op.toStdString();
  node.id = uniqueId(op.toLower()).toStdString();
  if (const spec::OpDef *def = spec::Registry::instance().find(node.op)) {
    for (const auto &param : def->params)
      if (auto value = startingValue(param)) node.params[param.name] = *value;
  }
  return node;
}

QString ModelDocument::addNode(const QString &op, QPointF position) {
  const spec::Node node = newNode(op);
  const QString id = QString::fromStdString(node.id);
  m_undo->push(new InsertNodesCommand(this, {node}, {position}, tr("Add %1").arg(op)));
  return id;
}

void ModelDocument::removeNodes(const QStringList &ids) {
  QStringList existing;
  for (const QString &id : ids)
    if (node(id)) existing << id;
  if (!existing.isEmpty()) m_undo->push(new RemoveNodesCommand(this, existing));
}

void ModelDocument::setParam(const QString &id, const QString &param, const spec::ParamValue &value) {
  const spec::Node *n = node(id);
  if (!n) return;
  auto it = n->params.find(param.toStdString());
  if (it != n->params.end() && it->second == value) return;
  m_undo->push(new SetParamCommand(this, id, param, value));
}

void ModelDocument::resetParam(const QString &id, const QString &param) {
  const spec::Node *n = node(id);
  if (!n || !n->params.count(param.toStdString())) return;
  m_undo->push(new SetParamCommand(this, id, param, std::nullopt));
}

void ModelDocument::setTrainable(const QString &id, bool trainable) {
  const spec::Node *n = node(id);
  if (!n || n->trainable == trainable) return;
  const QString text = trainable ? tr("Unfreeze %1").arg(id) : tr("Freeze %1").arg(id);
  m_undo->push(new SetFineTuningCommand(this, id, trainable, n->lrFactor, text));
}

void ModelDocument::setLrFactor(const QString &id, double lrFactor) {
  const spec::Node *n = node(id);
  if (!n || n->lrFactor == lrFactor || !(lrFactor > 0.0) || !std::isfinite(lrFactor)) return;
  m_undo->push(new SetFineTuningCommand(this, id, n->trainable, lrFactor, tr("Set %1.lr_factor").arg(id)));
}

void ModelDocument::setCheckpointActivations(const QString &id, bool on) {
  const spec::Node *n = node(id);
  if (!n || n->checkpointSegment.empty() != on) return;
  const QString text = on ? tr("Recompute %1's activations").arg(id) : tr("Keep %1's activations").arg(id);
  m_undo->push(new SetCheckpointCommand(this, id, on, text));
}

bool ModelDocument::renameNode(const QString &id, const QString &newId) {
  const QString name = newId.trimmed();
  if (!node(id) || name == id || node(name) || !spec::isPortableName(name.toStdString())) return false;
  m_undo->push(new RenameNodeCommand(this, id, name));
  return true;
}

void ModelDocument::moveNodes(const QHash<QString, QPointF> &to) {
  QHash<QString, QPointF> moved;
  for (auto it = to.begin(); it != to.end(); ++it)
    if (node(it.key()) && position(it.key()) != it.value()) moved.insert(it.key(), it.value());
  if (!moved.isEmpty())
    m_undo->push(new MoveNodesCommand(this, moved, moved.size() == 1 ? tr("Move %1").arg(moved.begin().key())
                                                                     : tr("Move %1 nodes").arg(moved.size())));
}

void ModelDocument::autoLayout() {
  m_undo->push(new MoveNodesCommand(this, layeredPositions(m_spec), tr("Arrange automatically")));
}

QString ModelDocument::copyNodes(const QStringList &ids) const {
  spec::ModelSpec part;
  part.name = "clipboard";
  for (const auto &n : m_spec.nodes) {
    if (!ids.contains(QString::fromStdString(n.id))) continue;
    spec::Node copy = n;
    copy.inputs.erase(std::remove_if(copy.inputs.begin(), copy.inputs.end(),
                                     [&](const std::string &input) { return !ids.contains(QString::fromStdString(input)); }),
                      copy.inputs.end());
    part.nodes.push_back(copy);
  }
  return part.nodes.empty() ? QString() : QString::fromStdString(spec::toYaml(part));
}

QStringList ModelDocument::pasteNodes(const QString &yaml, QPointF offset) {
  spec::ModelSpec part;
  try {
    part = spec::parseModelYaml(yaml.toStdString());
  } catch (const std::exception &) {
    return {};  // not a model: nothing to paste
  }
  // Fresh ids, reserved as they are handed out, and the inner edges following them.
  std::map<std::string, std::string> renamed;
  QSet<QString> taken;
  for (auto &n : part.nodes) {
    QString id = uniqueId(QString::fromStdString(n.id));
    for (int k = 2; taken.contains(id); ++k) id = uniqueId(QString::fromStdString(n.id) + QString::number(k));
    taken.insert(id);
    renamed[n.id] = id.toStdString();
  }
  const QHash<QString, QPointF> layout = layeredPositions(part);
  std::vector<spec::Node> nodes;
  std::vector<QPointF> positions;
  QStringList ids;
  for (auto &n : part.nodes) {
    const QPointF at = offset + layout.value(QString::fromStdString(n.id));
    n.id = renamed[n.id];
    for (auto &input : n.inputs) input = renamed.count(input) ? renamed[input] : input;
    nodes.push_back(n);
    positions.push_back(at);
    ids << QString::fromStdString(n.id);
  }
  if (!nodes.empty()) m_undo->push(new InsertNodesCommand(this, nodes, positions, tr("Paste")));
  return ids;
}

QString ModelDocument::setYaml(const QString &text, int *line, int *column) {
  spec::ModelSpec parsed;
  if (line) *line = 0;
  if (column) *column = 0;
  try {
    parsed = spec::parseModelYaml(text.toStdString(), m_filePath.toStdString());
  } catch (const spec::SpecError &e) {
    if (e.diagnostics().empty()) return QString::fromUtf8(e.what());
    // The place apart from the message: the view says it in words and marks the line.
    spec::Diagnostic first = e.diagnostics().front();
    if (line) *line = first.where.line;
    if (column) *column = first.where.column;
    first.where = {};
    return QString::fromStdString(first.format());
  } catch (const std::exception &e) {
    return QString::fromUtf8(e.what());
  }
  if (toYaml() == QString::fromStdString(spec::toYaml(parsed))) return {};  // nothing changed
  // Nodes keep their place; new ones go where the automatic layout puts them.
  QHash<QString, QPointF> positions = layeredPositions(parsed);
  for (auto it = positions.begin(); it != positions.end(); ++it)
    if (m_positions.contains(it.key())) it.value() = m_positions.value(it.key());
  m_undo->push(new ReplaceModelCommand(this, parsed, positions, tr("Edit YAML")));
  return {};
}

// --- files -------------------------------------------------------------------------------------

bool ModelDocument::load(const QString &path, QString *error) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    if (error) *error = tr("Cannot open %1: %2").arg(path, file.errorString());
    return false;
  }
  try {
    spec::ModelSpec parsed = spec::parseModelYaml(file.readAll().toStdString(), path.toStdString());
    newModel(parsed);
  } catch (const spec::SpecError &e) {
    if (error) *error = QString::fromStdString(spec::formatDiagnostics(e.diagnostics()));
    return false;
  } catch (const std::exception &e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  m_filePath = path;
  Q_EMIT fileChanged(path);
  return true;
}

bool ModelDocument::save(const QString &path, QString *error) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly) || file.write(toYaml().toUtf8()) < 0 || !file.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, file.errorString());
    return false;
  }
  m_filePath = path;
  m_undo->setClean();
  m_savedYaml = toYaml();
  Q_EMIT fileChanged(path);
  return true;
}

void ModelDocument::newModel(const spec::ModelSpec &spec) {
  m_undo->clear();
  m_filePath.clear();
  spec::ModelSpec named = spec;
  if (named.name.empty()) named.name = "model";  // what the parser would call it on reload
  replaceSpecRaw(named, layeredPositions(named));
  m_savedYaml = toYaml();
  refresh();
  m_undo->setClean();
  Q_EMIT fileChanged(QString());
}

QStringList ModelDocument::templateNames() { return modelTemplateNames(); }
QString ModelDocument::templateTitle(const QString &name) { return modelTemplateTitle(name); }

bool ModelDocument::templateSpec(const QString &name, spec::ModelSpec *spec, QString *error) {
  const QString yaml = modelTemplateYaml(name);
  if (yaml.isEmpty()) {
    if (error) *error = tr("No template named %1").arg(name);
    return false;
  }
  try {
    *spec = spec::parseModelYaml(yaml.toStdString());
  } catch (const std::exception &e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  return true;
}

bool ModelDocument::loadTemplate(const QString &name, QString *error) {
  spec::ModelSpec spec;
  if (!templateSpec(name, &spec, error)) return false;
  newModel(spec);
  return true;
}

void ModelDocument::replaceModel(const spec::ModelSpec &spec, const QString &text) {
  spec::ModelSpec named = spec;
  if (named.name.empty()) named.name = "model";
  m_savedYaml = QString::fromStdString(spec::toYaml(named));  // before the push, whose change() reads it
  m_undo->push(new ReplaceModelCommand(this, named, layeredPositions(named), text, true));
}

QString ModelDocument::toYaml() const { return QString::fromStdString(spec::toYaml(m_spec)); }

// --- raw mutators ------------------------------------------------------------------------------

int ModelDocument::indexOf(const QString &id) const {
  const std::string key = id.toStdString();
  for (size_t i = 0; i < m_spec.nodes.size(); ++i)
    if (m_spec.nodes[i].id == key) return static_cast<int>(i);
  return -1;
}

void ModelDocument::insertNodeRaw(int index, const spec::Node &node, QPointF position) {
  index = std::clamp(index, 0, static_cast<int>(m_spec.nodes.size()));
  m_spec.nodes.insert(m_spec.nodes.begin() + index, node);
  m_positions.insert(QString::fromStdString(node.id), position);
}

spec::Node ModelDocument::removeNodeRaw(const QString &id) {
  const int index = indexOf(id);
  if (index < 0) return {};
  spec::Node removed = m_spec.nodes[size_t(index)];
  m_spec.nodes.erase(m_spec.nodes.begin() + index);
  m_positions.remove(id);
  return removed;
}

void ModelDocument::replaceNodeRaw(const spec::Node &node) {
  const int index = indexOf(QString::fromStdString(node.id));
  if (index >= 0) m_spec.nodes[size_t(index)] = node;
}

void ModelDocument::setPositionRaw(const QString &id, QPointF position) {
  if (node(id)) m_positions.insert(id, position);
}

void ModelDocument::replaceSpecRaw(const spec::ModelSpec &spec, const QHash<QString, QPointF> &positions) {
  m_spec = spec;
  m_positions = positions;
}

void ModelDocument::setFilePathRaw(const QString &path) {
  if (path == m_filePath) return;
  m_filePath = path;
  Q_EMIT fileChanged(path);
}

QString ModelDocument::uniqueId(const QString &base) const {
  QString stem = base;
  stem.replace(QLatin1Char(' '), QLatin1Char('_'));
  if (stem.isEmpty()) stem = QStringLiteral("node");
  if (!node(stem) && !stem.at(stem.size() - 1).isDigit()) return stem;
  for (int k = 1;; ++k) {
    const QString id = stem + QString::number(k);
    if (!node(id)) return id;
  }
}

void ModelDocument::refresh() {
  keepOutputValid();
  m_analysis = spec::analyze(m_spec);
  Q_EMIT changed();
}

// The output is the graph's sink: the node nothing reads. When edits make another node the one
// sink (a layer appended after the old output), the output follows it.
void ModelDocument::keepOutputValid() {
  QSet<std::string> consumed;
  for (const auto &n : m_spec.nodes)
    for (const auto &input : n.inputs) consumed.insert(input);
  const spec::Node *current = m_spec.find(m_spec.output);
  if (current && !consumed.contains(current->id)) return;
  m_spec.output.clear();
  for (auto it = m_spec.nodes.rbegin(); it != m_spec.nodes.rend(); ++it) {
    if (!consumed.contains(it->id)) {
      m_spec.output = it->id;
      break;
    }
  }
}

QHash<QString, QPointF> ModelDocument::layeredPositions(const spec::ModelSpec &spec) const {
  std::vector<LayoutNode> nodes;
  nodes.reserve(spec.nodes.size());
  for (const auto &n : spec.nodes) {
    LayoutNode node{QString::fromStdString(n.id), {}};
    for (const auto &input : n.inputs) node.inputs << QString::fromStdString(input);
    nodes.push_back(node);
  }
  return layOutGraph(nodes, m_flow, QSizeF(NodeItem::kWidth, NodeItem::kHeight)).positions;
}

}  // namespace tw::ui
