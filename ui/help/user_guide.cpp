#include "ui/help/user_guide.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace tw::ui {

QString markdownSection(const QString &markdown, const QString &heading) {
  const QRegularExpression start(QStringLiteral("^## %1[ \\t]*$").arg(QRegularExpression::escape(heading)),
                                 QRegularExpression::MultilineOption);
  const QRegularExpressionMatch found = start.match(markdown);
  if (!found.hasMatch()) return markdown;
  const QRegularExpression next(QStringLiteral("^## "), QRegularExpression::MultilineOption);
  const QRegularExpressionMatch end = next.match(markdown, found.capturedEnd());
  const qsizetype stop = end.hasMatch() ? end.capturedStart() : markdown.size();
  return markdown.mid(found.capturedStart(), stop - found.capturedStart()).trimmed();
}

QString studioGuideMarkdown() {
  QFile readme(QStringLiteral(":/guide/README.md"));
  if (!readme.open(QIODevice::ReadOnly)) return {};  // only when the build left it out
  return markdownSection(QString::fromUtf8(readme.readAll()), QStringLiteral("Studio"));
}

UserGuideDialog::UserGuideDialog(QWidget *parent) : QDialog(parent), m_browser(new QTextBrowser(this)) {
  setObjectName(QStringLiteral("userGuideDialog"));
  setWindowTitle(tr("Torchwright Studio User Guide"));
  m_browser->setObjectName(QStringLiteral("userGuideText"));
  m_browser->setOpenExternalLinks(true);
  const QString guide = studioGuideMarkdown();
  if (guide.isEmpty())
    m_browser->setPlainText(tr("The guide is missing from this build; see README.md in Torchwright's sources."));
  else
    m_browser->setMarkdown(guide);
  auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_browser, 1);
  layout->addWidget(buttons);
  resize(760, 620);
}

}  // namespace tw::ui
