// What the Launch page shows about its inputs stays true of them: an edit that changes what the
// data preview read clears the preview (its split counts, pictures and any error), an edit clears
// a refusal of the earlier inputs, and the early-stopping monitor offers the metrics the task as
// now set up records. A number a field refuses is said at once, with the table's range.

#include "ui/launch/launch_page.h"

#include "core/config/run_task.h"
#include "ui/design/model_document.h"
#include "ui/launch/config_sections.h"
#include "ui/launch/config_widgets.h"
#include "ui/launch/data_preview.h"
#include "ui/launch/model_source.h"
#include "ui/launch/range_spin_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSpinBox>

namespace tw::ui {

void LaunchPage::watchFormEdits() {
  for (QWidget *widget : findChildren<QWidget *>()) {
    const QString key = widget->property(kConfigKeyProperty).toString();
    if (key.isEmpty()) continue;
    auto edited = [this, key] { onFormEdited(key); };
    if (auto *box = qobject_cast<QComboBox *>(widget)) connect(box, &QComboBox::currentTextChanged, this, edited);
    else if (auto *box = qobject_cast<QSpinBox *>(widget)) connect(box, &QSpinBox::valueChanged, this, edited);
    else if (auto *box = qobject_cast<QDoubleSpinBox *>(widget)) connect(box, &QDoubleSpinBox::valueChanged, this, edited);
    else if (auto *box = qobject_cast<QCheckBox *>(widget)) connect(box, &QCheckBox::toggled, this, edited);
    else if (auto *edit = qobject_cast<QLineEdit *>(widget)) connect(edit, &QLineEdit::textChanged, this, edited);
    auto refused = [this](const QString &message) {
      m_inputRefusal = message;
      showRefusal(message);
    };
    if (auto *box = qobject_cast<RangeSpinBox *>(widget)) connect(box, &RangeSpinBox::refused, this, refused);
    if (auto *box = qobject_cast<RangeDoubleSpinBox *>(widget)) connect(box, &RangeDoubleSpinBox::refused, this, refused);
  }
  // The model is an input of the launch check too.
  auto modelEdited = [this] { onFormEdited(QStringLiteral("model")); };
  connect(m_model, &ModelDocument::changed, this, modelEdited);
  connect(m_modelSource->choice(), &QComboBox::currentIndexChanged, this, modelEdited);
  connect(m_modelSource->fileField(), &QLineEdit::textChanged, this, modelEdited);
  refreshMonitorChoices();
}

void LaunchPage::onFormEdited(const QString &key) {
  m_inputRefusal.clear();
  if (m_refusalShown) setStatus(QString(), false);  // it spoke of inputs that are no longer there
  if (!sameData(previewRequest(), m_preview->request())) m_preview->clear();
  // Another data source may have other classes: the offer waits for the next check or preview.
  if (key.startsWith(QLatin1String("data."))) offerHeadFit(0);
  if (key == QLatin1String("data.dataset") || key == QLatin1String("data.task") || key == QLatin1String("train.top_k"))
    refreshMonitorChoices();
}

void LaunchPage::refreshMonitorChoices() {
  config::DataOptions data;
  data.dataset = m_dataset->currentText().toStdString();
  data.task = m_csvTask->currentText().toStdString();
  int64_t topK = config::TrainOptions().topK;
  if (auto *box = qobject_cast<QSpinBox *>(configField(QStringLiteral("train.top_k")))) topK = box->value();
  QStringList choices;
  for (const std::string &metric : config::monitorKeys(data, topK)) choices << QString::fromStdString(metric);
  m_sections->setMonitorChoices(choices);
}

}  // namespace tw::ui
