#include "ui/common/studio_icons.h"
#include "ui/design/design_page.h"

#include "ui/design/block_library.h"
#include "ui/design/graph_scene.h"
#include "ui/design/graph_view.h"
#include "ui/design/model_document.h"
#include "ui/design/node_item.h"
#include "ui/design/op_palette.h"
#include "ui/design/property_editor.h"
#include "ui/design/yaml_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QInputDialog>
#include <QGraphicsItem>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMimeData>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace tw::ui {

namespace {
const char *kModelMime = "application/x-torchwright-model";
const char *kFlowKey = "design/flow";  // "down" or "across"
}  // namespace

DesignPage::DesignPage(QWidget *parent)
    : QWidget(parent), m_document(new ModelDocument(this)), m_scene(new GraphScene(m_document, this)),
      m_view(new GraphView(m_scene, m_document, this)), m_palette(new OpPalette(this)),
      m_properties(new PropertyEditor(this)), m_yaml(new YamlView(m_document, this)), m_sideTabs(new QTabWidget(this)),
      m_toolBar(new QToolBar(tr("Design"), this)), m_status(new QLabel(this)), m_splitter(new QSplitter(this)),
      m_blocks(new BlockLibrary(this)) {
  m_sideTabs->addTab(m_properties, tr("Properties"));
  m_sideTabs->addTab(m_yaml, tr("YAML"));
  m_splitter->addWidget(m_palette);
  m_splitter->addWidget(m_view);
  m_splitter->addWidget(m_sideTabs);
  m_splitter->setStretchFactor(1, 1);
  m_splitter->setSizes({200, 700, 320});
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_toolBar);
  layout->addWidget(m_splitter, 1);
  layout->addWidget(m_status);
  createActions();
  createImportActions();

  connect(m_palette, &OpPalette::opActivated, this, [this](const QString &op) {
    // Activated (not dropped): after the selected node along the flow, or in the middle of the
    // view; either way in free space beside whatever is already there.
    const QSizeF size(NodeItem::kWidth, NodeItem::kHeight);
    QPointF at = m_view->mapToScene(m_view->viewport()->rect().center()) - QPointF(size.width() / 2, size.height() / 2);
    if (!m_currentNode.isEmpty()) {
      const double step = layerStep(m_document->flow(), size);
      at = m_document->position(m_currentNode) +
           (m_document->flow() == LayoutFlow::TopToBottom ? QPointF(0, step) : QPointF(step, 0));
    }
    at = m_scene->freeSpotNear(at);
    const QString from = m_currentNode;
    if (op.startsWith(QLatin1String(OpPalette::kBlockPrefix))) {
      insertBlock(op.mid(static_cast<int>(qstrlen(OpPalette::kBlockPrefix))), at, from);
      return;
    }
    const QString id = from.isEmpty() ? m_document->addNode(op, at) : m_document->addNodeAfter(op, at, from);
    m_scene->selectNode(id);
  });
  connect(m_scene, &GraphScene::currentNodeChanged, this, [this](const QString &id) {
    m_currentNode = id;
    showCurrentNode();
  });
  // The scene re-announces the current node after every change it syncs, which refreshes the
  // property form; the page itself only updates its status line.
  connect(m_document, &ModelDocument::changed, this, &DesignPage::updateStatus);
  connect(m_properties, &PropertyEditor::paramEdited, m_document, &ModelDocument::setParam);
  connect(m_properties, &PropertyEditor::paramReset, m_document, &ModelDocument::resetParam);
  connect(m_properties, &PropertyEditor::trainableEdited, m_document, &ModelDocument::setTrainable);
  connect(m_properties, &PropertyEditor::lrFactorEdited, m_document, &ModelDocument::setLrFactor);
  connect(m_properties, &PropertyEditor::checkpointEdited, m_document, &ModelDocument::setCheckpointActivations);
  connect(m_properties, &PropertyEditor::paramRefused, this,
          [this](const QString &node, const QString &param, const QString &message) {
            m_status->setText(tr("%1, %2: %3. Not applied; the model keeps its value.").arg(node, param, message));
          });
  connect(m_properties, &PropertyEditor::idEdited, this, [this](const QString &from, const QString &to) {
    if (m_document->renameNode(from, to)) {
      m_scene->selectNode(to);
    } else {
      m_status->setText(tr("Cannot rename %1 to %2: the name is taken, or not letters, digits, '_', '-' and '.' "
                           "starting with a letter.").arg(from, to));
      showCurrentNode();
    }
  });
  // A dropped edge that was refused, or replaced another, says so where the person looks next.
  connect(m_scene, &GraphScene::edgeDropSaid, m_status, &QLabel::setText);
  connect(m_view, &GraphView::blockDropped, this, [this](const QString &name, QPointF at) { insertBlock(name, at); });
  connect(m_blocks, &BlockLibrary::changed, this, [this] { m_palette->setBlocks(m_blocks->names()); });
  m_palette->setBlocks(m_blocks->names());
  const bool across = QSettings().value(QLatin1String(kFlowKey)).toString() == QLatin1String("across");
  {
    const QSignalBlocker quiet(m_leftToRight);  // the setting as it is, not an edit of it
    m_leftToRight->setChecked(across);
  }
  applyFlow(across ? LayoutFlow::LeftToRight : LayoutFlow::TopToBottom);
  m_document->loadTemplate(QStringLiteral("mlp"), nullptr);
  m_view->showModel();
  updateStatus();
}

bool DesignPage::groupSelection(const QString &name) {
  QString instance, error;
  if (!BlockLibrary::isValidName(name)) {
    m_status->setText(tr("'%1' is not a block name: use letters, digits, '_' and '-', starting with a letter.").arg(name));
    return false;
  }
  const QString yaml = m_document->groupIntoBlock(m_scene->selectedNodeIds(), name, &instance, &error);
  if (yaml.isEmpty() || !m_blocks->save(name, yaml, &error)) {
    m_status->setText(tr("Cannot group into a block: %1").arg(error));
    return false;
  }
  m_status->setText(tr("Grouped as %1; the block %2 is in the palette under My Blocks.").arg(instance, name));
  return true;
}

QStringList DesignPage::insertBlock(const QString &name, QPointF at, const QString &after) {
  const QString yaml = m_blocks->yaml(name);
  const QStringList ids = yaml.isEmpty() ? QStringList() : m_document->insertBlock(name, yaml, at);
  if (ids.isEmpty()) {
    m_status->setText(tr("Cannot read the block %1 from %2.").arg(name, QDir::toNativeSeparators(m_blocks->directory())));
    return {};
  }
  if (!after.isEmpty()) m_document->connectNodes(after, ids.front());
  m_scene->clearSelection();
  for (const QString &id : ids)
    if (QGraphicsItem *item = m_scene->nodeItem(id)) item->setSelected(true);
  return ids;
}

void DesignPage::askGroupSelection() {
  if (m_scene->selectedNodeIds().isEmpty()) {
    m_status->setText(tr("Select the nodes to group first."));
    return;
  }
  bool ok = false;
  const QString name = QInputDialog::getText(this, tr("Group into Block"),
                                             tr("Block name (reusable from the palette under My Blocks):"),
                                             QLineEdit::Normal, QStringLiteral("block"), &ok);
  if (ok) groupSelection(name.trimmed());
}

DesignPage::~DesignPage() {
  // The document is deleted before the scene (children go in creation order): the scene must not
  // report selection changes into a page whose document is gone.
  m_scene->blockSignals(true);
  m_view->setScene(nullptr);
  delete m_scene;
}

void DesignPage::createActions() {
  // Icons beside the words: the icons make the toolbar quick to scan, the words keep it clear.
  m_toolBar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  auto *templates = new QMenu(tr("New"), this);
  templates->addAction(tr("Empty Model"), this, [this] { newModel(QString()); });
  templates->addSection(tr("From a template"));
  for (const QString &name : ModelDocument::templateNames())
    templates->addAction(ModelDocument::templateTitle(name), this, [this, name] { newModel(name); });
  auto *newButton = new QToolButton(this);
  newButton->setText(tr("New"));
  newButton->setIcon(studioIcon("document-new"));
  newButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  newButton->setToolTip(tr("Start an empty model or one from a template (undoable)"));
  newButton->setMenu(templates);
  newButton->setPopupMode(QToolButton::InstantPopup);
  m_toolBar->addWidget(newButton);

  auto add = [this](const char *icon, const QString &text, QKeySequence key, auto slot) {
    QAction *action = m_toolBar->addAction(studioIcon(icon), text, this, slot);
    action->setShortcut(key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addAction(action);
    return action;
  };
  // Ctrl+O is the standard Open, and on a designer the thing opened is a model; the window's File
  // menu holds this same action (Open Workspace is Ctrl+Shift+O there), so the key works on every
  // page and is bound once: two actions with one key would be ambiguous and neither would fire.
  m_openAction = add("document-open", tr("Open &Model…"), QKeySequence::Open, [this] { openDialog(); });
  m_openAction->setObjectName(QStringLiteral("openModelAction"));
  m_openAction->setShortcutContext(Qt::WindowShortcut);
  m_openAction->setIconText(tr("Open…"));
  m_openAction->setToolTip(
      tr("Open a model file (%1)").arg(m_openAction->shortcut().toString(QKeySequence::NativeText)));
  add("document-save", tr("Save"), QKeySequence::Save, [this] { save(); });
  add("document-save-as", tr("Save As…"), QKeySequence::SaveAs, [this] { saveAs(); });
  m_toolBar->addSeparator();
  // Plain "Undo"/"Redo" on the buttons, the edit in the tooltip: QUndoStack's own actions put the
  // whole command text on the button, which the toolbar then elides mid-word.
  QUndoStack *stack = m_document->undoStack();
  auto *undo = new QAction(studioIcon("edit-undo"), tr("Undo"), this);
  undo->setShortcut(QKeySequence::Undo);
  undo->setEnabled(stack->canUndo());
  connect(undo, &QAction::triggered, stack, &QUndoStack::undo);
  connect(stack, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
  connect(stack, &QUndoStack::undoTextChanged, undo,
          [undo](const QString &text) { undo->setToolTip(tr("Undo %1").arg(text)); });
  auto *redo = new QAction(studioIcon("edit-redo"), tr("Redo"), this);
  redo->setShortcut(QKeySequence::Redo);
  redo->setEnabled(stack->canRedo());
  connect(redo, &QAction::triggered, stack, &QUndoStack::redo);
  connect(stack, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
  connect(stack, &QUndoStack::redoTextChanged, redo,
          [redo](const QString &text) { redo->setToolTip(tr("Redo %1").arg(text)); });
  for (QAction *a : {undo, redo}) {
    a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_toolBar->addAction(a);
    addAction(a);
  }
  add("edit-delete", tr("Delete"), QKeySequence::Delete, [this] { m_scene->deleteSelection(); });
  add("edit-copy", tr("Copy"), QKeySequence::Copy, [this] { copySelection(); });
  add("edit-paste", tr("Paste"), QKeySequence::Paste, [this] { paste(); });
  // On the canvas only: in the YAML view and the property form Ctrl+A still selects text.
  auto *selectAllAction = new QAction(tr("Select All"), m_view);
  selectAllAction->setShortcut(QKeySequence::SelectAll);
  selectAllAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  connect(selectAllAction, &QAction::triggered, this, &DesignPage::selectAll);
  m_view->addAction(selectAllAction);
  add("object-group", tr("Group into Block…"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { askGroupSelection(); })
      ->setToolTip(tr("Save the selected nodes as a reusable block and frame them as one (Ctrl+G)"));
  m_toolBar->addSeparator();
  add("tw-arrange", tr("Arrange"), QKeySequence(Qt::CTRL | Qt::Key_L), [this] {
    m_document->autoLayout();
    m_view->showModel();
  })->setToolTip(tr("Lay the model out in layers along the data flow (Ctrl+L)"));
  m_leftToRight = m_toolBar->addAction(studioIcon("tw-flow-right"), tr("Left to Right"));
  m_leftToRight->setCheckable(true);
  m_leftToRight->setToolTip(tr("Lay models out from left to right instead of top to bottom"));
  connect(m_leftToRight, &QAction::toggled, this,
          [this](bool on) { setFlow(on ? LayoutFlow::LeftToRight : LayoutFlow::TopToBottom); });
  add("zoom-fit-best", tr("Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), [this] { m_view->fitModel(); })
      ->setToolTip(tr("Show the whole model, zoomed out no further than its op names can be read (Ctrl+0); "
                      "Zoom Out goes further"));
  add("zoom-in", tr("Zoom In"), QKeySequence::ZoomIn, [this] { m_view->zoomBy(1.25); });
  add("zoom-out", tr("Zoom Out"), QKeySequence::ZoomOut, [this] { m_view->zoomBy(0.8); });
}

void DesignPage::showCurrentNode() {
  const spec::Node *node = m_currentNode.isEmpty() ? nullptr : m_document->node(m_currentNode);
  if (!node) {
    m_properties->clear();
    return;
  }
  m_properties->showNode(*node, m_document->analysis().find(node->id), m_document->problemOf(m_currentNode));
}

QString DesignPage::statusText() const { return m_status->text(); }

void DesignPage::updateStatus() {
  const auto &analysis = m_document->analysis();
  const int nodes = static_cast<int>(m_document->spec().nodes.size());
  QString text = tr("Nodes: %1").arg(nodes);
  if (analysis.ok()) {
    const QLocale locale;
    const qint64 total = analysis.totalParams, trainable = analysis.trainableParams;
    // The split only once something is frozen: until then every parameter is trainable.
    text += QStringLiteral(" · ") +
            (trainable == total ? tr("Parameters: %1").arg(locale.toString(total))
                                : tr("Parameters: %1 (%2 trainable, %3 frozen)")
                                      .arg(locale.toString(total), locale.toString(trainable),
                                           locale.toString(total - trainable)));
  } else {
    const auto &first = analysis.diagnostics.front();
    text += QStringLiteral(" · ") + tr("Problems: %1 · %2")
                                        .arg(analysis.diagnostics.size())
                                        .arg(QString::fromStdString(first.node.empty() ? first.message
                                                                                        : first.node + ": " + first.message));
  }
  if (!m_document->filePath().isEmpty()) text += QStringLiteral(" · ") + m_document->filePath();
  if (m_document->isModified()) text += QStringLiteral(" *");
  m_status->setText(text);
}

void DesignPage::applyFlow(LayoutFlow flow) {
  m_document->setFlow(flow);
  m_scene->setFlow(flow);
}

void DesignPage::setFlow(LayoutFlow flow) {
  const bool across = flow == LayoutFlow::LeftToRight;
  if (m_leftToRight->isChecked() != across) {
    m_leftToRight->setChecked(across);  // comes back here through toggled()
    return;
  }
  QSettings().setValue(QLatin1String(kFlowKey), across ? QStringLiteral("across") : QStringLiteral("down"));
  if (flow == m_document->flow()) return;
  applyFlow(flow);
  m_document->autoLayout();
  m_view->showModel();
}

void DesignPage::selectAll() {
  for (QGraphicsItem *item : m_scene->items())
    if (item->flags() & QGraphicsItem::ItemIsSelectable) item->setSelected(true);
}

void DesignPage::copySelection() {
  const QString yaml = m_document->copyNodes(m_scene->selectedNodeIds());
  if (yaml.isEmpty()) return;
  auto *data = new QMimeData;
  data->setData(kModelMime, yaml.toUtf8());
  data->setText(yaml);  // other programs get the YAML as text
  QApplication::clipboard()->setMimeData(data);
  m_pasteCount = 0;
}

void DesignPage::paste() {
  const QMimeData *data = QApplication::clipboard()->mimeData();
  if (!data) return;
  const QString yaml = data->hasFormat(kModelMime) ? QString::fromUtf8(data->data(kModelMime)) : data->text();
  // Each paste lands a little further along, so copies do not hide one another.
  ++m_pasteCount;
  QPointF origin = m_view->mapToScene(m_view->viewport()->rect().center());
  const QStringList ids = m_document->pasteNodes(yaml, origin + QPointF(30, 30) * m_pasteCount);
  m_scene->clearSelection();
  for (const QString &id : ids)
    if (NodeItem *item = m_scene->nodeItem(id)) item->setSelected(true);
}

QByteArray DesignPage::saveState() const { return m_splitter->saveState(); }
bool DesignPage::restoreState(const QByteArray &state) { return m_splitter->restoreState(state); }

}  // namespace tw::ui
