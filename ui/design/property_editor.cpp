#include "ui/design/property_editor.h"

#include "core/spec/registry.h"
#include "ui/design/fine_tuning_fields.h"
#include "ui/design/param_field.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QSignalBlocker>
#include <QScrollArea>
#include <QVBoxLayout>

namespace tw::ui {

namespace {

Q_LOGGING_CATEGORY(lcProperties, "tw.ui.properties")

}  // namespace

PropertyEditor::PropertyEditor(QWidget *parent) : QWidget(parent) {
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);

  m_hint = new QLabel(tr("Select a node to edit its properties."), this);
  m_hint->setAlignment(Qt::AlignCenter);
  m_hint->setWordWrap(true);
  m_hint->setEnabled(false);  // the style's muted colour: a hint, not content
  layout->addWidget(m_hint, 1);

  m_scroll = new QScrollArea(this);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);
  auto *body = new QWidget(m_scroll);
  auto *bodyLayout = new QVBoxLayout(body);
  bodyLayout->setContentsMargins(8, 8, 8, 8);

  m_problem = new QLabel(body);
  m_problem->setObjectName(QStringLiteral("nodeProblem"));
  m_problem->setWordWrap(true);
  m_problem->setTextFormat(Qt::PlainText);
  m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QPalette red = m_problem->palette();
  red.setColor(QPalette::WindowText, QColor(0xc0, 0x39, 0x2b));
  m_problem->setPalette(red);
  bodyLayout->addWidget(m_problem);

  m_title = new QLabel(body);
  QFont titleFont = font();
  titleFont.setBold(true);
  titleFont.setPointSizeF(font().pointSizeF() * 1.15);
  m_title->setFont(titleFont);
  bodyLayout->addWidget(m_title);
  m_doc = new QLabel(body);
  m_doc->setWordWrap(true);
  m_doc->setTextFormat(Qt::PlainText);
  bodyLayout->addWidget(m_doc);

  m_form = new QFormLayout();
  m_form->setLabelAlignment(Qt::AlignLeft);
  m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_form->setRowWrapPolicy(QFormLayout::DontWrapRows);
  m_idEdit = new QLineEdit(body);
  m_idEdit->setObjectName(QStringLiteral("nodeId"));
  m_idEdit->setToolTip(tr("Unique name of the node; other nodes name it in their inputs."));
  auto *idLabel = new QLabel(QStringLiteral("id"), body);  // the file's key, like the parameter names
  idLabel->setBuddy(m_idEdit);
  m_form->addRow(idLabel, m_idEdit);
  connect(m_idEdit, &QLineEdit::editingFinished, this, &PropertyEditor::commitId);
  bodyLayout->addLayout(m_form);
  // Below the op's own parameters: the keys every node with parameters has, whatever its op.
  m_fineTuning = new FineTuningFields(body);
  connect(m_fineTuning, &FineTuningFields::trainableEdited, this,
          [this](bool trainable) { Q_EMIT trainableEdited(m_nodeId, trainable); });
  connect(m_fineTuning, &FineTuningFields::lrFactorEdited, this,
          [this](double factor) { Q_EMIT lrFactorEdited(m_nodeId, factor); });
  connect(m_fineTuning, &FineTuningFields::lrFactorRefused, this, [this](const QString &message) {
    Q_EMIT paramRefused(m_nodeId, QStringLiteral("lr_factor"), message);
  });
  // Memory for compute, for any node but an input (model_spec.h's checkpoint_activations).
  m_checkpoint = new QCheckBox(tr("Recompute activations in the backward pass"), body);
  m_checkpoint->setObjectName(QStringLiteral("checkpointActivations"));
  m_checkpoint->setToolTip(tr("Keep only what enters this node during training and compute the rest again "
                              "when the gradients are computed: less memory, more time "
                              "(checkpoint_activations in the model file)."));
  connect(m_checkpoint, &QCheckBox::toggled, this, [this](bool on) { Q_EMIT checkpointEdited(m_nodeId, on); });
  bodyLayout->addWidget(m_fineTuning);
  bodyLayout->addWidget(m_checkpoint);
  bodyLayout->addStretch(1);
  m_scroll->setWidget(body);
  layout->addWidget(m_scroll, 1);

  clear();
}

void PropertyEditor::clear() {
  m_nodeId.clear();
  m_scroll->hide();
  m_hint->show();
}

void PropertyEditor::rebuild(const QString &op) {
  // Rows after the id row belong to the previous op; removeRow deletes their widgets (and the
  // fields with them).
  while (m_form->rowCount() > 1) m_form->removeRow(m_form->rowCount() - 1);
  m_fields.clear();
  m_op = op;
  m_built = true;

  const spec::OpDef *def = spec::Registry::instance().find(op.toStdString());
  m_title->setText(op);
  m_doc->setText(def ? QString::fromStdString(def->doc) : tr("Unknown op: no properties to edit."));
  if (!def) return;
  QWidget *body = m_scroll->widget();
  for (const spec::ParamDef &param : def->params) {
    auto *field = new ParamField(param, body);
    const QString name = QString::fromStdString(param.name);
    // The lambdas read m_nodeId when they fire: a rename updates it without rebuilding.
    connect(field, &ParamField::edited, this, [this, name](const spec::ParamValue &value) {
      Q_EMIT paramEdited(m_nodeId, name, value);
    });
    connect(field, &ParamField::resetRequested, this, [this, name] { Q_EMIT paramReset(m_nodeId, name); });
    connect(field, &ParamField::refused, this,
            [this, name](const QString &message) { Q_EMIT paramRefused(m_nodeId, name, message); });
    m_form->addRow(field->label(), field);
    m_fields.push_back(field);
  }
}

void PropertyEditor::showNode(const spec::Node &node, const spec::NodeInfo *info, const QString &problem) {
  const QString op = QString::fromStdString(node.op);
  if (!m_built || op != m_op) rebuild(op);
  m_nodeId = QString::fromStdString(node.id);
  if (m_idEdit->text() != m_nodeId) m_idEdit->setText(m_nodeId);
  m_problem->setText(problem);
  m_problem->setVisible(!problem.isEmpty());

  if (info && info->id != node.id) {
    qCWarning(lcProperties) << "analysis of" << QString::fromStdString(info->id) << "given for node" << m_nodeId;
    info = nullptr;  // values of another node would be shown as this one's
  }
  for (ParamField *field : m_fields) {
    const std::string &name = field->def().name;
    const auto written = node.params.find(name);
    const spec::ParamValue *resolved = nullptr;
    if (info) {
      const auto it = info->params.find(name);
      if (it != info->params.end()) resolved = &it->second;
    }
    field->showValue(written != node.params.end() ? &written->second : nullptr, resolved);
  }
  // Nodes with weights get the group; one without keeps it while it has the keys set (a block
  // instance's `trainable: false` reaches its ReLU too), so they can be seen and taken back.
  const spec::OpDef *def = spec::Registry::instance().find(node.op);
  const bool hasWeights = (info && info->paramCount > 0) || (def && def->paramCount);
  m_fineTuning->setVisible(hasWeights || !node.trainable || node.lrFactor != 1.0);
  m_fineTuning->showValues(node.trainable, node.lrFactor);
  {
    const QSignalBlocker quiet(m_checkpoint);
    m_checkpoint->setChecked(!node.checkpointSegment.empty());
    m_checkpoint->setVisible(node.op != "Input");
    // A member of a checkpointed block instance is recomputed with the whole instance.
    const bool byInstance = !node.checkpointSegment.empty() && node.checkpointSegment != node.id;
    m_checkpoint->setText(byInstance ? tr("Recomputed in the backward pass with %1")
                                           .arg(QString::fromStdString(node.checkpointSegment))
                                     : tr("Recompute activations in the backward pass"));
  }
  m_hint->hide();
  m_scroll->show();
}

void PropertyEditor::commitId() {
  const QString newId = m_idEdit->text().trimmed();
  if (m_nodeId.isEmpty()) return;
  if (newId.isEmpty()) {
    m_idEdit->setText(m_nodeId);  // a node needs an id; put the old one back
    return;
  }
  if (newId == m_nodeId) return;
  Q_EMIT idEdited(m_nodeId, newId);
}

QWidget *PropertyEditor::editorFor(const QString &param) const {
  for (ParamField *field : m_fields)
    if (QString::fromStdString(field->def().name) == param) return field->editor();
  return nullptr;
}

QLineEdit *PropertyEditor::idEdit() const { return m_idEdit; }

}  // namespace tw::ui
