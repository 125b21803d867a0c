#pragma once
// Editors for a sampler's or pruner's typed options, generated from the catalog's OptionSpecs
// (core/search/catalog.h): a spin box for Int and Float within the option's bounds, a check box
// for Bool, a combo box for Choice, each starting at the default and explained by its doc. A
// sampler added to the catalog gets its editors here without a change in Studio.
//
//   editor->setSpecs(findSampler("tpe")->options);
//   sweep.samplerOptions = editor->values();   // only the options changed from their defaults

#include "core/search/catalog.h"

#include <QWidget>

class QFormLayout;

namespace tw::ui {

class OptionEditor : public QWidget {
  Q_OBJECT

 public:
  explicit OptionEditor(QWidget *parent = nullptr);

  // Replaces the editors; `skip` names options the form shows elsewhere (the sampler's seed).
  void setSpecs(const std::vector<search::OptionSpec> &specs, const std::vector<std::string> &skip = {});
  // The options whose value differs from their default, as a sweep file writes them.
  search::OptionValues values() const;
  // Sets the editor of `key` from text as written; false when there is none or it does not fit.
  bool setValue(const std::string &key, const std::string &text);
  // The editor of an option (its objectName is the option's key), or nullptr.
  QWidget *editor(const std::string &key) const;
  int editorCount() const;

 Q_SIGNALS:
  void edited();

 private:
  std::string textOf(const search::OptionSpec &spec, const QWidget *editor) const;

  QFormLayout *m_form;
  std::vector<search::OptionSpec> m_specs;
  std::vector<QWidget *> m_editors;  // parallel to m_specs
};

}  // namespace tw::ui
