#pragma once
// `torchwright-worker --import FILE --out MODEL.model.yaml [--input-shape C,H,W] [--json]`: an ONNX
// file as a model file plus a weights file beside it (MODEL.weights.pt, which `train.init_from`
// reads), and the import report on stdout. The CLI's `import` has already refused bad usage; a
// file the importer refuses leaves nothing written (exit 1).

#include <string>

namespace tw::worker {

int importModel(int argc, char **argv);

}  // namespace tw::worker
