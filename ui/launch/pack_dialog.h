#pragma once
// File > Pack Dataset…: `torchwright pack` in Studio. A source (an image folder, an IDX folder, a
// CSV file with its target column, or a run file), an output folder and a shard size; packing
// runs on a worker thread with a progress bar and can be cancelled, which removes the partial
// output. When it is done, Use in Launch puts the set into the Launch page's data section.
//
//   PackDialog dialog(this);
//   connect(&dialog, &PackDialog::useRequested, launch, &LaunchPage::useShardSet);
//   dialog.exec();

#include <QDialog>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace tw::ui {

class PackDialog : public QDialog {
  Q_OBJECT

 public:
  enum class State { Idle, Packing, Done, Failed, Cancelled };

  explicit PackDialog(QWidget *parent = nullptr);
  ~PackDialog() override;

  QLineEdit *sourceEdit() const { return m_source; }
  QLineEdit *outputEdit() const { return m_output; }
  QLineEdit *targetEdit() const { return m_target; }
  QSpinBox *shardSizeBox() const { return m_shardMb; }
  QCheckBox *decodedBox() const { return m_decoded; }
  QPushButton *packButton() const { return m_pack; }
  QPushButton *cancelButton() const { return m_cancel; }
  QPushButton *useButton() const { return m_use; }
  QProgressBar *progressBar() const { return m_progress; }
  QLabel *statusLabel() const { return m_status; }
  State state() const { return m_state; }

 public Q_SLOTS:
  void pack();
  void cancel();

 Q_SIGNALS:
  void useRequested(const QString &shardSet);
  void finished(tw::ui::PackDialog::State state);

 private:
  void setState(State state, const QString &text);
  void progressed(qint64 done, qint64 total);

  QLineEdit *m_source = nullptr, *m_output = nullptr, *m_target = nullptr;
  QSpinBox *m_shardMb = nullptr;
  QCheckBox *m_decoded = nullptr;
  QPushButton *m_pack = nullptr, *m_cancel = nullptr, *m_use = nullptr;
  QProgressBar *m_progress = nullptr;
  QLabel *m_status = nullptr;
  State m_state = State::Idle;
  // Shared with the packing thread, which may outlive a closed dialog until its next example.
  std::shared_ptr<std::atomic<bool>> m_stop;
};

}  // namespace tw::ui
