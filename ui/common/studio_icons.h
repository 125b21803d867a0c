#pragma once
// Studio's icons: the system's freedesktop icon theme where it has the icon, else the one drawn
// for Studio in resources/icons/ (embedded), so every action has an icon on any machine.
//
//   action->setIcon(studioIcon("document-save"));
//   item->setIcon(0, opCategoryIcon(spec::OpCategory::Pooling));

#include "core/spec/registry.h"

#include <QIcon>

namespace tw::ui {

// `name` is a freedesktop icon name (document-open, zoom-in) or one of Studio's own (tw-arrange);
// resources/icons/<name>.svg must exist.
QIcon studioIcon(const char *name);
// The palette's category icons (Studio's own: themes have no icons for layers and pooling).
QIcon opCategoryIcon(spec::OpCategory category);
// The palette's "My Blocks", the user's saved blocks.
QIcon myBlocksIcon();

}  // namespace tw::ui
