#pragma once
// TensorBoard's event files, written without TensorFlow: the TFRecord framing (each record's
// length and data followed by their masked CRC-32C) around hand-encoded `Event` protocol buffers
// (tensorflow/core/util/event.proto: wall_time 1, step 2, file_version 3, graph_def 4, summary 5; a
// summary's value: tag 1, simple_value 2, histo 5, tensor 8, metadata 9), and read back. The
// HParams plugin's summaries and the model graph are encoded by tensorboard_hparams.h and
// tensorboard_graph.h. No Qt, no LibTorch.
//
//   TensorBoardWriter events("/tmp/tb/my-run");   // events.out.tfevents.<seconds>.<host> in it
//   events.scalar("train/loss", 12, 0.53, 1733570000.25);
//   events.flush();

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace tw::tracking {

// CRC-32C (Castagnoli) of `size` bytes, and TensorFlow's mask over it (a CRC of data that holds
// CRCs is weak, so the stored one is rotated and offset).
uint32_t crc32c(const void *data, size_t size);
uint32_t maskedCrc32c(const void *data, size_t size);

// One framed record: length, its masked CRC, the data, the data's masked CRC.
std::string tfRecord(const std::string &data);

// What an event file holds that Torchwright keeps: its scalars, from a value's simple_value or a
// one-element float or double tensor (TensorFlow 2's form).
struct EventScalar {
  std::string tag;
  int64_t step = 0;
  double value = 0.0;
  double wallTime = 0.0;
};
struct EventFileContents {
  std::vector<EventScalar> scalars;
  // The hyperparameters of the HParams plugin's session start (tensorboard_hparams.h), if any.
  std::map<std::string, std::string> hparams;
  // Records that could not be read, each named by its index and byte offset: a record whose data
  // fails its CRC is skipped; one whose length fails it ends the file (nothing after can be framed).
  std::vector<std::string> problems;
};
// Throws std::runtime_error naming the file when it cannot be opened.
EventFileContents readEventFile(const std::string &path);

class TensorBoardWriter {
 public:
  // Creates `folder` and an event file in it, and writes the file-version event first. Throws
  // std::runtime_error naming the file when it cannot be written.
  explicit TensorBoardWriter(const std::string &folder, double wallTime = 0.0);
  ~TensorBoardWriter();
  TensorBoardWriter(const TensorBoardWriter &) = delete;
  TensorBoardWriter &operator=(const TensorBoardWriter &) = delete;

  void scalar(const std::string &tag, int64_t step, double value, double wallTime);
  // A distribution at a step (TensorBoard's Histograms and Distributions tabs): `values` in
  // `buckets` equal-width buckets between their least and greatest, as a HistogramProto.
  void histogram(const std::string &tag, int64_t step, const std::vector<double> &values, double wallTime,
                 int buckets = 30);
  // A serialized Summary (tensorboard_hparams.h makes the HParams plugin's), as one event.
  void summary(const std::string &summary, int64_t step, double wallTime);
  // A serialized GraphDef (tensorboard_graph.h): the Graphs tab's model.
  void graph(const std::string &graphDef, double wallTime);
  void flush();
  const std::string &path() const { return m_path; }

 private:
  void write(const std::string &event);

  std::string m_path;
  std::FILE *m_file = nullptr;
};

}  // namespace tw::tracking
