// The Launch page's Replace Head offer: when the form's data has another number of classes than
// the Design page's model gives scores, a button beside Launch swaps the model's classifier layer
// (model_head.h, one undo step on the Design page). A model file named on the form is not the
// design, so it gets no offer.

#include "ui/launch/launch_page.h"

#include "ui/design/model_document.h"
#include "ui/design/model_head.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/model_source.h"

#include <QPushButton>

namespace tw::ui {

void LaunchPage::createHeadOffer() {
  m_replaceHead = new QPushButton(this);
  m_replaceHead->setObjectName(QStringLiteral("replaceHeadButton"));
  m_replaceHead->hide();
  connect(m_replaceHead, &QPushButton::clicked, this, [this] {
    const qint64 classes = m_dataClasses;
    QString error;
    if (!ModelHead::replace(m_model, classes, &error)) {
      setStatus(tr("Cannot replace the head: %1").arg(error), true);
      return;
    }
    setStatus(tr("The model's head now gives %1 class scores; Undo on the Design page takes it back.").arg(classes), false);
  });
  // The preview counts the classes of the data it read.
  connect(m_preview, &DataPreview::previewed, this, [this] {
    const auto &counts = m_preview->result().classCounts;
    if (!counts.empty()) offerHeadFit(qint64(counts.size()));
  });
  connect(m_model, &ModelDocument::changed, this, &LaunchPage::updateHeadOffer);
}

void LaunchPage::offerHeadFit(qint64 dataClasses) {
  if (dataClasses != m_dataClasses) Q_EMIT datasetClassesKnown(dataClasses);
  m_dataClasses = dataClasses;
  updateHeadOffer();
}

void LaunchPage::updateHeadOffer() {
  const qint64 model = ModelHead::classCount(m_model->analysis());
  const bool offer = m_dataClasses > 0 && model > 0 && model != m_dataClasses && !m_modelSource->usesFile() &&
                     !ModelHead::find(m_model->spec(), m_model->analysis()).isEmpty();
  if (offer) {
    m_replaceHead->setText(tr("Replace head (%1 classes)").arg(m_dataClasses));
    m_replaceHead->setToolTip(tr("The model gives %1 class scores but the data has %2 classes: make its last "
                                 "Linear layer a new one with %2 outputs (undoable on the Design page)")
                                  .arg(model)
                                  .arg(m_dataClasses));
  }
  m_replaceHead->setVisible(offer);
}

}  // namespace tw::ui
