#include "ui/sweeps/option_editor.h"

#include "ui/common/number_format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QSpinBox>

#include <algorithm>
#include <climits>
#include <cmath>

namespace tw::ui {

namespace {

// An option's value as every number Studio shows (number_format.h: "1", "0,25"), not "1.000000";
// the six decimals stay what it keeps and steps.
class ShownNumberSpinBox : public QDoubleSpinBox {
 public:
  using QDoubleSpinBox::QDoubleSpinBox;
  QString textFromValue(double value) const override { return formatNumber(value, decimals()); }
};

double parsed(const std::string &text, double fallback) {
  try {
    return std::stod(text);
  } catch (const std::exception &) {
    return fallback;
  }
}

bool flagOf(const std::string &text) { return text == "true" || text == "yes" || text == "on"; }

}  // namespace

OptionEditor::OptionEditor(QWidget *parent) : QWidget(parent), m_form(new QFormLayout(this)) {
  m_form->setContentsMargins(0, 0, 0, 0);
}

void OptionEditor::setSpecs(const std::vector<search::OptionSpec> &specs, const std::vector<std::string> &skip) {
  while (m_form->rowCount() > 0) m_form->removeRow(0);
  m_specs.clear();
  m_editors.clear();
  for (const search::OptionSpec &spec : specs) {
    if (std::find(skip.begin(), skip.end(), spec.key) != skip.end()) continue;
    QWidget *editor = nullptr;
    switch (spec.kind) {
      case search::OptionKind::Int: {
        auto *box = new QSpinBox(this);
        box->setRange(static_cast<int>(std::max<double>(INT_MIN, spec.min.value_or(INT_MIN))),
                      static_cast<int>(std::min<double>(INT_MAX, spec.max.value_or(INT_MAX))));
        box->setValue(static_cast<int>(parsed(spec.defaultText, 0)));
        connect(box, &QSpinBox::valueChanged, this, &OptionEditor::edited);
        editor = box;
        break;
      }
      case search::OptionKind::Float: {
        auto *box = new ShownNumberSpinBox(this);
        box->setDecimals(6);
        box->setRange(spec.min.value_or(-1e12), spec.max.value_or(1e12));
        box->setValue(parsed(spec.defaultText, 0.0));
        connect(box, &QDoubleSpinBox::valueChanged, this, &OptionEditor::edited);
        editor = box;
        break;
      }
      case search::OptionKind::Bool: {
        auto *box = new QCheckBox(this);
        box->setChecked(flagOf(spec.defaultText));
        connect(box, &QCheckBox::toggled, this, &OptionEditor::edited);
        editor = box;
        break;
      }
      case search::OptionKind::Choice: {
        auto *box = new QComboBox(this);
        for (const auto &choice : spec.choices) box->addItem(QString::fromStdString(choice));
        box->setCurrentText(QString::fromStdString(spec.defaultText));
        connect(box, &QComboBox::currentTextChanged, this, &OptionEditor::edited);
        editor = box;
        break;
      }
    }
    editor->setObjectName(QString::fromStdString(spec.key));
    // The catalog's doc is English text from the core; it is shown as the catalog gives it.
    editor->setToolTip(QString::fromStdString(spec.doc));
    m_form->addRow(QString::fromStdString(spec.key), editor);
    m_specs.push_back(spec);
    m_editors.push_back(editor);
  }
}

std::string OptionEditor::textOf(const search::OptionSpec &spec, const QWidget *editor) const {
  switch (spec.kind) {
    case search::OptionKind::Int: return std::to_string(static_cast<const QSpinBox *>(editor)->value());
    case search::OptionKind::Float: {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.10g", static_cast<const QDoubleSpinBox *>(editor)->value());
      return buffer;
    }
    case search::OptionKind::Bool: return static_cast<const QCheckBox *>(editor)->isChecked() ? "true" : "false";
    case search::OptionKind::Choice: return static_cast<const QComboBox *>(editor)->currentText().toStdString();
  }
  return {};
}

search::OptionValues OptionEditor::values() const {
  search::OptionValues values;
  for (size_t i = 0; i < m_specs.size(); ++i) {
    const search::OptionSpec &spec = m_specs[i];
    const std::string text = textOf(spec, m_editors[i]);
    const bool isDefault = spec.kind == search::OptionKind::Bool   ? flagOf(text) == flagOf(spec.defaultText)
                           : spec.kind == search::OptionKind::Choice ? text == spec.defaultText
                                                                     : parsed(text, NAN) == parsed(spec.defaultText, NAN);
    if (!isDefault) values[spec.key] = text;
  }
  return values;
}

bool OptionEditor::setValue(const std::string &key, const std::string &text) {
  for (size_t i = 0; i < m_specs.size(); ++i) {
    if (m_specs[i].key != key) continue;
    QWidget *editor = m_editors[i];
    switch (m_specs[i].kind) {
      case search::OptionKind::Int: static_cast<QSpinBox *>(editor)->setValue(static_cast<int>(parsed(text, 0))); break;
      case search::OptionKind::Float: static_cast<QDoubleSpinBox *>(editor)->setValue(parsed(text, 0.0)); break;
      case search::OptionKind::Bool: static_cast<QCheckBox *>(editor)->setChecked(flagOf(text)); break;
      case search::OptionKind::Choice: {
        auto *box = static_cast<QComboBox *>(editor);
        const int index = box->findText(QString::fromStdString(text));
        if (index < 0) return false;
        box->setCurrentIndex(index);
        break;
      }
    }
    return true;
  }
  return false;
}

QWidget *OptionEditor::editor(const std::string &key) const {
  for (size_t i = 0; i < m_specs.size(); ++i)
    if (m_specs[i].key == key) return m_editors[i];
  return nullptr;
}

int OptionEditor::editorCount() const { return static_cast<int>(m_editors.size()); }

}  // namespace tw::ui
