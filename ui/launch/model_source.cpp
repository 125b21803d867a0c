#include "ui/launch/model_source.h"

#include "ui/common/file_dialogs.h"
#include "ui/design/model_document.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace tw::ui {

ModelSource::ModelSource(ModelDocument *document, QWidget *parent)
    : QWidget(parent), m_document(document), m_choice(new QComboBox(this)), m_file(new QLineEdit(this)),
      m_browse(new QPushButton(tr("Browse…"), this)), m_summary(new QLabel(this)) {
  m_choice->setObjectName(QStringLiteral("modelSourceChoice"));
  m_choice->addItem(tr("Open design"));
  m_choice->addItem(tr("Model file…"));
  m_choice->setToolTip(tr("Train the Design page's model, or a model file the run file then names"));
  m_file->setPlaceholderText(tr("a .model.yaml file"));
  m_browse->setObjectName(QStringLiteral("browseModelButton"));
  m_summary->setObjectName(QStringLiteral("modelSummary"));
  m_summary->setWordWrap(true);
  auto *row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(m_choice);
  row->addWidget(m_file, 1);
  row->addWidget(m_browse);
  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row);
  layout->addWidget(m_summary);
  connect(m_choice, &QComboBox::currentIndexChanged, this, &ModelSource::refresh);
  connect(m_file, &QLineEdit::textChanged, this, &ModelSource::refresh);
  connect(m_browse, &QPushButton::clicked, this, &ModelSource::browse);
  connect(m_document, &ModelDocument::changed, this, &ModelSource::refresh);
  refresh();
}

bool ModelSource::usesFile() const { return m_choice->currentIndex() == 1; }

QString ModelSource::modelFile() const { return m_file->text().trimmed(); }

void ModelSource::setModelFile(const QString &path) {
  m_file->setText(path);
  m_choice->setCurrentIndex(1);
}

void ModelSource::useOpenDesign() { m_choice->setCurrentIndex(0); }

QString ModelSource::summary() const { return m_summary->text(); }

// A wrapped label inside a form row is given one line's height by the form; it asks for the
// lines its text needs at the width it has.
void ModelSource::fitSummaryHeight() { m_summary->setMinimumHeight(m_summary->heightForWidth(m_summary->width())); }

void ModelSource::resizeEvent(QResizeEvent *event) {
  QWidget::resizeEvent(event);
  fitSummaryHeight();
}

void ModelSource::refresh() {
  m_file->setVisible(usesFile());
  m_browse->setVisible(usesFile());
  if (usesFile()) {
    m_summary->setText(modelFile().isEmpty() ? tr("Model: choose a model file")
                                             : tr("Model: file %1").arg(QDir::toNativeSeparators(modelFile())));
    fitSummaryHeight();
    return;
  }
  const auto &spec = m_document->spec();
  const QString name = spec.name.empty() ? tr("(unnamed)") : QString::fromStdString(spec.name);
  m_summary->setText(tr("Model: the open design %1 (%2 nodes)").arg(name).arg(spec.nodes.size()));
  fitSummaryHeight();
}

void ModelSource::browse() {
  const QString start = modelFile().isEmpty() ? m_startFolder : QFileInfo(modelFile()).absolutePath();
  const QString chosen = chooseOpenFile(this, tr("Model File"), start,
                                        tr("Model files (*.model.yaml *.yaml);;All files (*)"));
  if (!chosen.isEmpty()) setModelFile(QDir::toNativeSeparators(chosen));
}

}  // namespace tw::ui
