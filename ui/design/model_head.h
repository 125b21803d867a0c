#pragma once
// The model's classifier head, for Replace Head: the output node when it is a Linear, else the
// Linear that feeds the output through parameter-free nodes with one input each (Softmax,
// Dropout, an activation). Replacing it swaps that node for a fresh Linear with the given number
// of outputs under the same id (one undo step), so the rest of the graph and its weights stay.
//
//   QString error;
//   if (!ModelHead::replace(document, 10, &error)) status->setText(error);

#include <QCoreApplication>
#include <QString>

namespace tw::spec { struct Analysis; struct ModelSpec; }

namespace tw::ui {

class ModelDocument;

class ModelHead {
  Q_DECLARE_TR_FUNCTIONS(tw::ui::ModelHead)

 public:
  // The head's id, or "" with the reason in *why (no output, a node with parameters or several
  // inputs between the output and any Linear).
  static QString find(const spec::ModelSpec &spec, const spec::Analysis &analysis, QString *why = nullptr);
  // How many class scores the model gives: the output's size when it is one dimension per sample,
  // else 0 (a sequence, an image, or a model with problems).
  static qint64 classCount(const spec::Analysis &analysis);
  // Pushes ReplaceHeadCommand; false with *error when the model has no head or classes < 1. True
  // without a step when the head already has that many outputs.
  static bool replace(ModelDocument *document, qint64 classes, QString *error);
};

}  // namespace tw::ui
