// TensorBoard event files, as `runs import tensorboard` reads them: the bytes once as a whole
// file (record framing, length and data CRCs), and once as one record's Event framed with valid
// CRCs, so that the fuzzer reaches the protocol-buffer reading behind the checksums (scalars,
// TensorFlow 2's tensors, the HParams plugin's session start).
#include "tests/fuzz/fuzz_target.h"
#include "tracking/tensorboard_events.h"

#include <string>

TW_FUZZ_TARGET(event_file) {
  const std::string whole = tw::fuzz::inputFile(data, size, "fuzz.tfevents");
  tw::fuzz::expectRefusalOnly("fuzz.tfevents", [&] { tw::tracking::readEventFile(whole); });
  const std::string framed = tw::tracking::tfRecord(tw::fuzz::bytes(data, size));
  const std::string record = tw::fuzz::inputFile(reinterpret_cast<const uint8_t *>(framed.data()), framed.size(),
                                                 "fuzz-record.tfevents");
  tw::fuzz::expectRefusalOnly("fuzz-record.tfevents", [&] { tw::tracking::readEventFile(record); });
  return 0;
}
