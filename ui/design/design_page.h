#pragma once
// The Design page: compose a network on a node-graph canvas. Palette of every registry op on the
// left, canvas in the middle, the selected node's properties and the YAML of the whole model on
// the right. Every edit is undoable; shapes, parameter counts and problems update as you edit.

#include "ui/design/graph_layout.h"

#include <QWidget>

class QAction;
class QLabel;
class QMenu;
class QSplitter;
class QTabWidget;
class QToolBar;

namespace tw::ui {

class BlockLibrary;
class GraphScene;
class ImportDialog;
class GraphView;
class ModelDocument;
class OpPalette;
class PropertyEditor;
class YamlView;

class DesignPage : public QWidget {
  Q_OBJECT

 public:
  explicit DesignPage(QWidget *parent = nullptr);
  ~DesignPage() override;

  ModelDocument *document() const { return m_document; }
  GraphScene *scene() const { return m_scene; }
  GraphView *view() const { return m_view; }
  OpPalette *palette() const { return m_palette; }
  PropertyEditor *properties() const { return m_properties; }
  YamlView *yamlView() const { return m_yaml; }
  QToolBar *toolBar() const { return m_toolBar; }
  QString statusText() const;
  BlockLibrary *blockLibrary() const { return m_blocks; }

  // Groups the selected nodes into a block named `name`, saved in the library; false with the
  // reason in the status line when they cannot be grouped.
  bool groupSelection(const QString &name);
  // Inserts a library block at `at` (scene coordinates); connects it after `after` when given.
  QStringList insertBlock(const QString &name, QPointF at, const QString &after = {});

  // New: an empty model ("") or a template, after asking whether to save unsaved edits; one undo
  // step. False when the user cancelled.
  bool newModel(const QString &templateName);
  // Asks, when the open model has unsaved edits, whether to save them first; false: cancelled.
  bool confirmReplace();
  // The direction models are laid out in; kept in the settings, applied by re-arranging.
  void setFlow(LayoutFlow flow);
  QAction *leftToRightAction() const { return m_leftToRight; }
  // Open Model… (Ctrl+O, from any page): the toolbar's Open and the window's File menu hold this
  // one action, so the key is bound once and both show it.
  QAction *openAction() const { return m_openAction; }

  // File > Import ONNX… (design_page_import.cpp): asks about unsaved edits, then the ONNX file,
  // then runs the import in ImportDialog; the written model file opens here. `onnxFile` given
  // (tests, a dropped file) skips the file dialog. The dialog, or nullptr when cancelled.
  QAction *importAction() const { return m_importAction; }
  ImportDialog *importOnnx(const QString &onnxFile = {});
  // Replace Head… (the window's Model menu and a node's context menu): the classifier layer
  // (model_head.h) becomes a Linear with `classes` outputs, one undo step; false with the reason
  // in the status line. askReplaceHead asks for the count, `suggested` (0: the model's own) first.
  QAction *replaceHeadAction() const { return m_replaceHeadAction; }
  bool replaceHead(qint64 classes);
  void askReplaceHead(qint64 suggested = 0);
  // The class count a launched or previewed dataset has (0: unknown); askReplaceHead offers it.
  void setDatasetClassCount(qint64 classes) { m_datasetClasses = classes; }
  // A node's context menu on the canvas (Replace Head… on the head and what follows it, Delete);
  // the caller owns it.
  QMenu *nodeMenu(const QString &id);

  bool openFile(const QString &path, QString *error);
  bool saveFile(const QString &path, QString *error);
  // Open and Save As start in the open model's folder, else the workspace's models folder
  // (<workspace>/models), never the process's current folder.
  void setWorkspace(const QString &dir);
  QString dialogFolder() const;
  void copySelection();
  void paste();
  // Ctrl+A on the canvas: every node and edge.
  void selectAll();

  QByteArray saveState() const;
  bool restoreState(const QByteArray &state);

 Q_SIGNALS:
  // The page is about to ask something (the model dialog, opened from the File menu on another
  // page): the window shows it first, so the person sees which model is replaced.
  void showRequested();

 private:
  void createActions();
  void showCurrentNode();
  void updateStatus();
  void openDialog();
  void save();
  void saveAs();
  void askGroupSelection();
  void applyFlow(LayoutFlow flow);
  void createImportActions();
  void showNodeMenu(const QPoint &at);

  ModelDocument *m_document;
  GraphScene *m_scene;
  GraphView *m_view;
  OpPalette *m_palette;
  PropertyEditor *m_properties;
  YamlView *m_yaml;
  QTabWidget *m_sideTabs;
  QToolBar *m_toolBar;
  QLabel *m_status;
  QSplitter *m_splitter;
  BlockLibrary *m_blocks;
  QAction *m_leftToRight = nullptr;
  QAction *m_openAction = nullptr;
  QAction *m_importAction = nullptr;
  QAction *m_replaceHeadAction = nullptr;
  qint64 m_datasetClasses = 0;
  QString m_currentNode;
  QString m_workspace;
  int m_pasteCount = 0;
};

}  // namespace tw::ui
