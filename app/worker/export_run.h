#pragma once
// `torchwright-worker --export RUN`: writes a recorded run's model as TorchScript or ONNX, checks
// the file, and records it as an artifact of the run with its SHA-256. The CLI's `export` has
// already refused bad usage; what only LibTorch can tell (the checkpoint does not fit, an op the
// format cannot express) is refused here, before the file is written.

namespace tw::worker {

int exportRun(int argc, char **argv);

}  // namespace tw::worker
