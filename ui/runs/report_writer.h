#pragma once
// Studio's Export Report: the same self-contained HTML page as `torchwright report`
// (app/common/run_report.h), read from the store and written to disk off the UI thread through
// StoreCall; the page hears how it went.
//
//   m_report->write(session->databasePath(), {runA, runB}, "/home/me/report.html");
//   connect(m_report, &ReportWriter::finished, ...);   // (ok, the file or why not)

#include <QObject>
#include <QString>

#include <cstdint>
#include <vector>

namespace tw::ui {

class StoreCall;

class ReportWriter : public QObject {
  Q_OBJECT

 public:
  explicit ReportWriter(QObject *parent = nullptr);
  void write(const QString &databasePath, const std::vector<int64_t> &runIds, const QString &file);
  bool busy() const;

 Q_SIGNALS:
  void finished(bool ok, const QString &message);  // the file written, or why not

 private:
  StoreCall *m_call;
};

}  // namespace tw::ui
