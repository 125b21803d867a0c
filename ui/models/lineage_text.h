#pragma once
// A registered version's lineage as a person reads it: what it is, the file and whether it is
// unchanged, the run, the data it was trained on, its recorded metrics (formatNumber, in the
// locale) and how it was exported, as an HTML form for the Models page's lineage pane. The
// registry stores metrics and export details as JSON; nobody should have to read that.
//
//   lineage->setHtml(lineageHtml(entry));

#include "ui/models/registry_reader.h"

#include <QString>

namespace tw::ui {

QString lineageHtml(const RegistryEntry &entry);

}  // namespace tw::ui
