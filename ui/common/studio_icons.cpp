#include "ui/common/studio_icons.h"

#include <QFile>
#include <QLoggingCategory>

namespace tw::ui {

namespace {
Q_LOGGING_CATEGORY(lcIcons, "tw.ui.icons")

QIcon ownIcon(const QString &name) {
  const QString path = QStringLiteral(":/icons/%1.svg").arg(name);
  if (!QFile::exists(path)) qCWarning(lcIcons) << "no icon" << path;  // a name without its SVG
  return QIcon(path);
}
}  // namespace

QIcon studioIcon(const char *name) {
  const QString themed = QString::fromLatin1(name);
  return QIcon::fromTheme(themed, ownIcon(themed));
}

QIcon opCategoryIcon(spec::OpCategory category) {
  switch (category) {
    case spec::OpCategory::Input: return ownIcon(QStringLiteral("tw-category-input"));
    case spec::OpCategory::Layer: return ownIcon(QStringLiteral("tw-category-layer"));
    case spec::OpCategory::Activation: return ownIcon(QStringLiteral("tw-category-activation"));
    case spec::OpCategory::Normalization: return ownIcon(QStringLiteral("tw-category-normalization"));
    case spec::OpCategory::Pooling: return ownIcon(QStringLiteral("tw-category-pooling"));
    case spec::OpCategory::Merge: return ownIcon(QStringLiteral("tw-category-merge"));
    case spec::OpCategory::Reshape: return ownIcon(QStringLiteral("tw-category-reshape"));
    case spec::OpCategory::Block: return ownIcon(QStringLiteral("tw-category-block"));
  }
  return {};
}

QIcon myBlocksIcon() { return ownIcon(QStringLiteral("tw-category-my-block")); }

}  // namespace tw::ui
