#include "ui/design/fine_tuning_fields.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace tw::ui {

namespace {

const QColor kRefused(0xc0, 0x39, 0x2b);  // ParamField's red for a refused value

}  // namespace

FineTuningFields::FineTuningFields(QWidget *parent) : QGroupBox(tr("Fine-tuning"), parent) {
  setObjectName(QStringLiteral("fineTuning"));
  m_trainable = new QCheckBox(this);
  m_trainable->setObjectName(QStringLiteral("trainable"));
  m_trainable->setToolTip(tr("Clear to freeze the node: training leaves its parameters as they are "
                             "(trainable: false in the model file)."));
  connect(m_trainable, &QCheckBox::toggled, this, [this](bool on) {
    m_factor->setEnabled(on);  // a frozen node has no learning rate to scale
    Q_EMIT trainableEdited(on);
  });

  m_factor = new QLineEdit(this);
  m_factor->setObjectName(QStringLiteral("lrFactor"));
  m_factor->setPlaceholderText(tr("default (1)"));
  m_factor->setClearButtonEnabled(true);  // emptied: back to the default
  m_factor->setToolTip(tr("The run's learning rate is multiplied by this for the node's parameters "
                          "(lr_factor in the model file): 0.1 trains it ten times slower. Above 0; "
                          "to stop training it, clear Trainable."));
  m_basePalette = m_factor->palette();
  connect(m_factor, &QLineEdit::editingFinished, this, &FineTuningFields::commitFactor);

  m_message = new QLabel(this);
  m_message->setObjectName(QStringLiteral("fieldProblem"));
  m_message->setWordWrap(true);
  m_message->setStyleSheet(QStringLiteral("color: #c0392b;"));
  m_message->hide();

  auto *factorColumn = new QVBoxLayout;
  factorColumn->setContentsMargins(0, 0, 0, 0);
  factorColumn->setSpacing(1);
  factorColumn->addWidget(m_factor);
  factorColumn->addWidget(m_message);
  auto *form = new QFormLayout(this);
  form->setLabelAlignment(Qt::AlignLeft);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setRowWrapPolicy(QFormLayout::DontWrapRows);
  auto *trainableLabel = new QLabel(tr("Trainable"), this);
  trainableLabel->setBuddy(m_trainable);
  trainableLabel->setToolTip(m_trainable->toolTip());
  form->addRow(trainableLabel, m_trainable);
  auto *factorLabel = new QLabel(tr("Learning-rate factor"), this);
  factorLabel->setBuddy(m_factor);
  factorLabel->setToolTip(m_factor->toolTip());
  form->addRow(factorLabel, factorColumn);
}

void FineTuningFields::showValues(bool trainable, double lrFactor) {
  const QSignalBlocker quietBox(m_trainable);
  const QSignalBlocker quietFactor(m_factor);
  m_trainable->setChecked(trainable);
  m_factor->setEnabled(trainable);
  m_shownFactor = lrFactor;
  // The default as a placeholder, as the parameter rows show theirs: only a written factor is text.
  m_factor->setText(lrFactor == 1.0 ? QString() : locale().toString(lrFactor, 'g', 12));
  showProblem({});
}

QString FineTuningFields::problem() const { return m_message->isVisible() ? m_message->text() : QString(); }

std::optional<double> FineTuningFields::parseFactor(const QString &text, QString *problem) const {
  problem->clear();
  const QString typed = text.trimmed();
  if (typed.isEmpty()) return 1.0;
  // The locale first, without group separators, so that "0.1" in German is not read as 1;
  // then the file's own form.
  QLocale local = locale();
  local.setNumberOptions(QLocale::RejectGroupSeparator);
  bool ok = false;
  double value = local.toDouble(typed, &ok);
  if (!ok) value = QLocale::c().toDouble(typed, &ok);
  if (!ok || !std::isfinite(value)) {
    *problem = tr("expected a number above 0, like 0.1");
    return std::nullopt;
  }
  if (value <= 0.0) {
    *problem = tr("must be above 0; to freeze the node, clear Trainable");
    return std::nullopt;
  }
  return value;
}

void FineTuningFields::commitFactor() {
  QString problem;
  const std::optional<double> factor = parseFactor(m_factor->text(), &problem);
  if (!factor) {
    // The typed text stays, red, for the person to fix; the node keeps its factor.
    showProblem(problem);
    Q_EMIT lrFactorRefused(problem);
    return;
  }
  showProblem({});
  if (*factor == m_shownFactor) return;
  m_shownFactor = *factor;
  Q_EMIT lrFactorEdited(*factor);
}

void FineTuningFields::showProblem(const QString &problem) {
  m_message->setText(problem);
  m_message->setVisible(!problem.isEmpty());
  QPalette palette = m_basePalette;
  if (!problem.isEmpty()) palette.setColor(QPalette::Text, kRefused);
  m_factor->setPalette(palette);
}

}  // namespace tw::ui
