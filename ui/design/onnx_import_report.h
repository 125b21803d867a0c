#pragma once
// What `torchwright import --json` printed, read into plain structs for the import dialog's
// report table (the JSON is core/engine/import/import_report.cpp's), and what a refusal asks for.
//
//   OnnxImportReport report;
//   if (parseImportReport(out, &report, &error)) table->show(report.rows);

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace tw::ui {

struct OnnxImportRow {
  QString name, opType;  // the ONNX node
  QString fate;          // "mapped", "folded", "constant" or "dropped"
  QString node, op;      // the model node it became or was folded into, and its registry op
  QString note;
};

struct OnnxImportReport {
  QString onnxFile, modelFile, weightsFile;
  int opset = 0;
  qint64 modelNodes = 0, parameters = 0;
  double seconds = 0.0;
  QList<OnnxImportRow> rows;
};

class OnnxImportText {
  Q_DECLARE_TR_FUNCTIONS(tw::ui::OnnxImportText)

 public:
  // False with *error when `json` is not the report.
  static bool parse(const QString &json, OnnxImportReport *report, QString *error);
  // What became of the node, in words ("conv1 (Conv2d)", "folded into bn (BatchNorm2d)").
  static QString became(const OnnxImportRow &row);
  // Whether a refusal asks for one sample's shape (the file leaves a dimension open).
  static bool asksForInputShape(const QString &refusal);
};

}  // namespace tw::ui
