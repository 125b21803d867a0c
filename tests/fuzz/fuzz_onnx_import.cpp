// `torchwright import`: ONNX protobuf, the graph, folding and fusion patterns, attention finding,
// shape evaluation and the op mappers. An imported model must also pass our own analysis.
#include "core/engine/import/onnx_import.h"
#include "core/spec/analysis.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(onnx_import) {
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz.onnx");
  tw::fuzz::expectRefusalOnly(path, [&] {
    tw::engine::ImportOptions options;
    options.inputShape = {1, 8, 8};
    const tw::engine::ImportedModel imported = tw::engine::importOnnx(path, options);
    const tw::spec::Analysis analysis = tw::spec::analyze(imported.spec);
    if (!analysis.ok()) tw::fuzz::fail("an imported model fails its own analysis: " + analysis.diagnostics.front().message);
  });
  return 0;
}
