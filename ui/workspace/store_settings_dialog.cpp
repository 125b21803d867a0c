#include "ui/workspace/store_settings_dialog.h"

#include "tracking/store_location.h"
#include "tracking/workspace_store.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cstdlib>

namespace tw::ui {

StoreSettingsDialog::StoreSettingsDialog(const QString &workspaceDir, QWidget *parent)
    : QDialog(parent),
      m_workspace(workspaceDir),
      m_location(new QLineEdit(this)),
      m_problem(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)) {
  setWindowTitle(tr("Tracking Store"));
  m_location->setObjectName(QStringLiteral("storeLocation"));
  m_location->setPlaceholderText(tr("empty: the workspace's own tracking.db"));
  m_location->setMinimumWidth(420);
  m_problem->setObjectName(QStringLiteral("storeProblem"));
  m_problem->setWordWrap(true);
  m_problem->setStyleSheet(QStringLiteral("color: #c0392b"));
  try {
    m_location->setText(QString::fromStdString(tracking::configuredStore(workspaceDir.toStdString())));
  } catch (const std::exception &e) {
    m_problem->setText(QString::fromUtf8(e.what()));  // a file that does not read: fix it here
  }
  auto *explain = new QLabel(
      tr("Runs of this workspace are recorded in its own tracking.db, or in a PostgreSQL database that "
         "several machines share, given as postgresql://user@host:port/database. The password goes in "
         "~/.pgpass or PGPASSWORD, never here: the setting is stored in %1.")
          .arg(QDir::toNativeSeparators(QString::fromStdString(tracking::workspaceSettingsPath(workspaceDir.toStdString())))),
      this);
  explain->setWordWrap(true);
  auto *form = new QFormLayout;
  form->addRow(tr("Store:"), m_location);
  auto *layout = new QVBoxLayout(this);
  layout->addWidget(explain);
  layout->addLayout(form);
  if (const char *chosen = std::getenv("TW_STORE"); chosen && *chosen) {
    auto *overridden = new QLabel(tr("TW_STORE is set (%1): it wins over this setting until it is unset.")
                                      .arg(QString::fromStdString(tracking::shownLocation(chosen))),
                                  this);
    overridden->setWordWrap(true);
    layout->addWidget(overridden);
  }
  layout->addWidget(m_problem);
  layout->addWidget(m_buttons);
  connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
    if (apply()) accept();
  });
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(m_location, &QLineEdit::textChanged, m_problem, &QLabel::clear);
}

bool StoreSettingsDialog::apply() {
  try {
    tracking::setConfiguredStore(m_workspace.toStdString(), m_location->text().trimmed().toStdString());
    return true;
  } catch (const std::exception &e) {
    m_problem->setText(QString::fromUtf8(e.what()));
    return false;
  }
}

}  // namespace tw::ui
