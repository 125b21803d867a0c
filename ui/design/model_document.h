#pragma once
// The model being designed: a spec::ModelSpec, where its nodes sit on the canvas, and the undo
// stack of every edit. Edits go through the QUndoCommand classes in ui/design/commands/, which
// call the raw mutators below; after each one the document re-analyses the graph (shapes,
// parameter counts, problems) and says changed(). The canvas, the property editor and the YAML
// view all follow that one signal, so they cannot drift apart.
//
//   ModelDocument doc;
//   QString conv = doc.addNode("Conv2d", {200, 0});
//   doc.connectNodes(input, conv);
//   doc.undoStack()->undo();

#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "ui/design/graph_layout.h"

#include <QHash>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QStringList>

class QUndoStack;

namespace tw::ui {

class ModelDocument : public QObject {
  Q_OBJECT

 public:
  explicit ModelDocument(QObject *parent = nullptr);
  ~ModelDocument() override;

  const spec::ModelSpec &spec() const { return m_spec; }
  const spec::Analysis &analysis() const { return m_analysis; }
  QUndoStack *undoStack() const { return m_undo; }
  QString filePath() const { return m_filePath; }
  // Whether the model differs from what was last opened, saved or started with New. Only what the
  // file holds counts: arranging the nodes is undoable but changes no file.
  bool isModified() const;

  const spec::Node *node(const QString &id) const;
  QPointF position(const QString &id) const { return m_positions.value(id); }
  // The first problem the validator found with this node ("" when none).
  QString problemOf(const QString &id) const;
  // Problems not tied to one node (cycles, the output).
  QStringList modelProblems() const;

  // --- Undoable edits; each pushes one command. ---
  QString addNode(const QString &op, QPointF position);  // returns the new node's id
  void removeNodes(const QStringList &ids);
  // Edges (model_document_edges.cpp).
  bool connectNodes(const QString &from, const QString &to);  // false: not allowed (cycle, same node, full)
  void disconnectNodes(const QString &from, const QString &to);
  // An edge dropped from `from`'s output onto `to`: a new input, or, when `to` takes one input
  // and has it, that edge replaced (one undo step). False with the reason in *said when neither
  // can be; true with *said saying what was replaced ("" for a new edge).
  bool connectOrReplace(const QString &from, const QString &to, QString *said);
  // A palette op added with `after` selected: when `after` has exactly one reader, the new node
  // goes between them (after -> new -> reader, the reader and what follows it moved one layer
  // on), else it is connected after `after` beside its readers. One undo step; the new id.
  QString addNodeAfter(const QString &op, QPointF at, const QString &after);
  // The nodes that read `id`'s output, each once per input that reads it.
  QStringList readersOf(const QString &id) const;
  void setParam(const QString &id, const QString &param, const spec::ParamValue &value);
  void resetParam(const QString &id, const QString &param);
  // The fine-tuning keys (model_spec.h), one undo step each; no step when the node has the value
  // already. A factor that is not a finite number above 0 is ignored: the form refuses it first.
  void setTrainable(const QString &id, bool trainable);
  void setLrFactor(const QString &id, double lrFactor);
  // `checkpoint_activations` on (the node its own segment) or off; one undo step, none when the
  // node is so already.
  void setCheckpointActivations(const QString &id, bool on);
  // false: taken, or not a portable name (spec::isPortableName)
  bool renameNode(const QString &id, const QString &newId);
  void moveNodes(const QHash<QString, QPointF> &to);
  // Every node where the layered layout puts it (graph_layout.h), one undo step.
  void autoLayout();
  // The direction automatic layouts run in: a view preference, not part of the model or its history.
  LayoutFlow flow() const { return m_flow; }
  void setFlow(LayoutFlow flow) { m_flow = flow; }
  // Nodes copied by copyNodes() as YAML; paste inserts them with fresh ids, inner edges kept.
  QString copyNodes(const QStringList &ids) const;
  QStringList pasteNodes(const QString &yaml, QPointF offset);
  // Blocks (model_document_blocks.cpp). Groups the nodes under one instance prefix
  // ("dense.fc", "dense.act"; one undo step) and returns the block's YAML for the library: the
  // members with ids local to the block, edges from outside left out. "" with *error when the
  // nodes cannot form a block.
  QString groupIntoBlock(const QStringList &ids, const QString &blockName, QString *instance, QString *error);
  // Adds a library block's nodes under a fresh instance prefix at `at`; returns their ids in
  // block order (the first is where the block's input goes).
  QStringList insertBlock(const QString &blockName, const QString &yaml, QPointF at);
  // "dense" for "dense.fc", "" for a node outside any block.
  static QString blockPrefix(const QString &id);
  // New: replaces the whole model (an empty one, a template) in one undo step; the document no
  // longer belongs to its file.
  void replaceModel(const spec::ModelSpec &spec, const QString &text);
  // Replaces the whole model with a parsed YAML text; returns the parse error, "" on success,
  // with the 1-based line and column it is at (0 when it has none).
  QString setYaml(const QString &text, int *line = nullptr, int *column = nullptr);

  // --- Files and templates (not undoable: they start a new history). ---
  bool load(const QString &path, QString *error);
  bool save(const QString &path, QString *error);
  void newModel(const spec::ModelSpec &spec);
  static QStringList templateNames();                    // "mlp", "lenet", "resnet", ...
  static QString templateTitle(const QString &name);     // translated
  static bool templateSpec(const QString &name, spec::ModelSpec *spec, QString *error);
  bool loadTemplate(const QString &name, QString *error);
  QString toYaml() const;

  // --- Raw mutators for the commands only: no undo, but re-analysis and changed(). ---
  int indexOf(const QString &id) const;
  void insertNodeRaw(int index, const spec::Node &node, QPointF position);
  spec::Node removeNodeRaw(const QString &id);
  void replaceNodeRaw(const spec::Node &node);  // same id
  void setPositionRaw(const QString &id, QPointF position);
  void setOutputRaw(const QString &id) { m_spec.output = id.toStdString(); }
  void replaceSpecRaw(const spec::ModelSpec &spec, const QHash<QString, QPointF> &positions);
  void setFilePathRaw(const QString &path);
  const QHash<QString, QPointF> &positions() const { return m_positions; }
  QString uniqueId(const QString &base) const;
  void refresh();  // re-analyse and emit changed()

 Q_SIGNALS:
  void changed();
  void fileChanged(const QString &path);

 private:
  void keepOutputValid();
  spec::Node newNode(const QString &op) const;
  // Whether `from` depends on `to` already (an edge from `from` to `to` would close a cycle).
  bool dependsOn(const QString &from, const QString &to) const;
  // Why `to` cannot take one more input, "" when it can.
  QString inputsFull(const spec::Node &to) const;
  QHash<QString, QPointF> layeredPositions(const spec::ModelSpec &spec) const;

  spec::ModelSpec m_spec;
  spec::Analysis m_analysis;
  QHash<QString, QPointF> m_positions;
  QUndoStack *m_undo;
  QString m_filePath;
  LayoutFlow m_flow = LayoutFlow::TopToBottom;
  QString m_savedYaml;
};

}  // namespace tw::ui
