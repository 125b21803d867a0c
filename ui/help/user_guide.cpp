#include "ui/help/user_guide.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QVBoxLayout>

#include <utility>
#include <vector>

namespace tw::ui {

namespace {

// Screenshots are 1280 px wide; in the dialog they are scaled to a width that reads without
// scrolling sideways.
constexpr int kImageWidth = 700;

QString readResource(const QString &path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(file.readAll());
}

void fitImages(QTextDocument *document, int width) {
  std::vector<std::pair<int, int>> spans;  // position, length of each image fragment
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it)
      if (it.fragment().charFormat().isImageFormat()) spans.emplace_back(it.fragment().position(), it.fragment().length());
  QTextCursor cursor(document);
  for (const auto &[position, length] : spans) {
    cursor.setPosition(position);
    cursor.setPosition(position + length, QTextCursor::KeepAnchor);
    QTextImageFormat format = cursor.charFormat().toImageFormat();
    format.setWidth(width);  // the height follows the image's aspect ratio
    cursor.setCharFormat(format);
  }
}

}  // namespace

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

QString guideLanguage() {
  // The translation says which guide goes with it: its translator writes the language's code.
  return QCoreApplication::translate("tw::ui::UserGuideDialog", "en",
                                     "the language code of the user guide for this translation "
                                     "(docs/user_guide_<code>.md)");
}

QString guideResourceRoot() { return QStringLiteral(":/guide"); }

QString studioGuideMarkdown(const QString &language) {
  if (language != QLatin1String("en")) {
    const QString own = readResource(guideResourceRoot() + QStringLiteral("/docs/user_guide_%1.md").arg(language));
    if (!own.isEmpty()) return own.trimmed();
  }
  const QString readme = readResource(guideResourceRoot() + QStringLiteral("/README.md"));
  if (readme.isEmpty()) return {};  // only when the build left it out
  const QString tour = markdownSection(readme, QStringLiteral("A tour of Studio"));
  const QString studio = markdownSection(readme, QStringLiteral("Studio"));
  if (tour == readme || studio == readme) return studio;  // a heading was renamed: the whole README
  return tour + QStringLiteral("\n\n") + studio;
}

QStringList documentImages(const QTextDocument *document) {
  QStringList images;
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it)
      if (it.fragment().charFormat().isImageFormat()) images << it.fragment().charFormat().toImageFormat().name();
  return images;
}

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent), m_browser(new QTextBrowser(this)), m_close(new QPushButton(tr("Close"), this)) {
  setObjectName(QStringLiteral("userGuideDialog"));
  setWindowTitle(tr("Torchwright Studio User Guide"));
  m_browser->setObjectName(QStringLiteral("userGuideText"));
  m_browser->setOpenExternalLinks(true);
  // "docs/studio/runs.png" in the Markdown is read from the binary's copy.
  m_browser->setSearchPaths({guideResourceRoot()});
  const QString guide = studioGuideMarkdown();
  if (guide.isEmpty()) {
    m_browser->setPlainText(tr("The guide is missing from this build; see README.md in Torchwright's sources."));
  } else {
    m_browser->setMarkdown(guide);
    fitImages(m_browser->document(), kImageWidth);
  }
  auto *buttons = new QDialogButtonBox(this);
  buttons->addButton(m_close, QDialogButtonBox::RejectRole);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(m_browser, 1);
  layout->addWidget(buttons);
  resize(780, 640);
}

}  // namespace tw::ui
