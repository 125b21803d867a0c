#include "ui/runs/report_writer.h"

#include "app/common/run_report.h"
#include "ui/common/store_call.h"

#include <QFile>
#include <QSaveFile>

#include <stdexcept>

namespace tw::ui {

// Every report asked for reports back, even when another was asked for meanwhile.
ReportWriter::ReportWriter(QObject *parent) : QObject(parent), m_call(new StoreCall(this, StoreCall::Delivery::Every)) {}

bool ReportWriter::busy() const { return m_call->busy(); }

void ReportWriter::write(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &file) {
  m_call->run<QString>(
      databasePath,
      [runIds, file](tracking::Store &store) {
        std::vector<tracking::RunRecord> runs;
        for (int64_t id : runIds) {
          auto run = store.run(id);
          if (!run) throw std::runtime_error("run " + std::to_string(id) + " is no longer in the store");
          runs.push_back(*run);
        }
        const std::string html = app::runReport(store, runs);
        // Whole or not at all: a reader never sees half a page.
        QSaveFile out(file);
        if (!out.open(QIODevice::WriteOnly) || out.write(html.data(), qint64(html.size())) != qint64(html.size()) ||
            !out.commit())
          throw std::runtime_error("cannot write " + file.toStdString() + ": " + out.errorString().toStdString());
        return file;
      },
      [this](const QString &written) { Q_EMIT finished(true, written); },
      [this](const QString &error) { Q_EMIT finished(false, error); });
}

}  // namespace tw::ui
