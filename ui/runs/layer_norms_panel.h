#pragma once
// The Layer Norms tab: each parameter tensor's L2 norm per epoch as a heat map (rows the
// tensors, columns the epochs), for the weights or the gradients, the way TensorBoard's
// histograms show a layer drifting, dying or exploding over training. Read on a worker thread
// when a run is shown and again whenever a live run finishes an epoch.

#include "ui/runs/layer_norms.h"

#include <QString>
#include <QWidget>

#include <cstdint>

class QComboBox;
class QLabel;

namespace tw::ui {

class GridHeatmap;
class StoreCall;
struct RunSnapshot;

class LayerNormsPanel : public QWidget {
  Q_OBJECT

 public:
  enum class Kind { Weights, Gradients };

  explicit LayerNormsPanel(QWidget *parent = nullptr);

  void setDatabasePath(const QString &path) { m_dbPath = path; }
  // Reads the run's norms when it is another run or has finished another epoch since.
  void showRun(const RunSnapshot &snapshot);
  void clear();
  void setKind(Kind kind);
  Kind kind() const;

  GridHeatmap *heatmap() const { return m_heatmap; }
  QComboBox *kindSelector() const { return m_kind; }

 Q_SIGNALS:
  void loaded();

 private:
  struct Reading {
    LayerNormGrid weights, gradients;
    QString error;
  };
  void read();
  void showGrid();

  QString m_dbPath;
  int64_t m_runId = 0;
  double m_epochsRead = -1;  // the run's "epoch" metric when last read
  StoreCall *m_reader;  // one read at a time; a newer run's read supersedes the older
  Reading m_reading;
  QComboBox *m_kind;
  GridHeatmap *m_heatmap;
  QLabel *m_status;
};

}  // namespace tw::ui
