#include "ui/sweeps/base_run_box.h"

#include "core/config/config_fields.h"
#include "ui/design/model_document.h"
#include "ui/launch/launch_page.h"
#include "ui/launch/model_source.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace tw::ui {

BaseRunBox::BaseRunBox(LaunchPage *launch, ModelDocument *model, QWidget *parent)
    : QGroupBox(tr("Each trial trains"), parent), m_launch(launch), m_model(model), m_label(new QLabel(this)),
      m_change(new QPushButton(tr("Change on Launch Page"), this)) {
  setObjectName(QStringLiteral("baseRunBox"));
  m_label->setObjectName(QStringLiteral("baseRunText"));
  m_label->setWordWrap(true);
  m_label->setTextFormat(Qt::PlainText);
  m_change->setToolTip(tr("The sweep starts from the Launch page's run: its model, data and every setting the "
                          "search space does not change"));
  auto *layout = new QHBoxLayout(this);
  layout->addWidget(m_label, 1);
  layout->addWidget(m_change);
  connect(m_change, &QPushButton::clicked, this, &BaseRunBox::changeRequested);
  refresh();
}

QString BaseRunBox::modelText() const {
  const ModelSource *source = m_launch->modelSource();
  if (source->usesFile()) {
    const QString file = source->modelFile();
    if (file.isEmpty()) return tr("none yet (choose a model file on the Launch page)");
    return tr("the file %1").arg(QFileInfo(file).fileName());
  }
  const QString name = QString::fromStdString(m_model->spec().name);
  return name.isEmpty() ? tr("the Design page's design") : tr("“%1”, the Design page's design").arg(name);
}

QString BaseRunBox::dataText() const {
  const QString dataset = m_launch->dataset()->currentText();
  const QString path = m_launch->dataPath()->text().trimmed();
  // The config table says which sources read data.path (CSV, image folders, ...).
  if (!path.isEmpty() && config::appliesToSource("data.path", dataset.toStdString()))
    return tr("%1 from %2").arg(dataset, QDir::toNativeSeparators(path));
  return dataset;
}

void BaseRunBox::refresh() {
  m_label->setText(tr("Model: %1. Data: %2. Every other setting is the Launch page's, except the keys "
                      "searched below.")
                       .arg(modelText(), dataText()));
  const ModelSource *source = m_launch->modelSource();
  m_label->setToolTip(source->usesFile() ? QDir::toNativeSeparators(source->modelFile()) : QString());
}

}  // namespace tw::ui
