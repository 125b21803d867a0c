// Model files: the YAML parser, block expansion and the analysis (cycles, shapes, ranges), and
// the promise that a model that parses writes back to YAML that parses to the same model.
#include "core/spec/analysis.h"
#include "core/spec/model_spec.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(model_yaml) {
  const std::string text = tw::fuzz::bytes(data, size);
  tw::fuzz::expectRefusalOnly("fuzz.model.yaml", [&] {
    const tw::spec::ModelSpec spec = tw::spec::parseModelYaml(text, "fuzz.model.yaml");
    const tw::spec::Analysis analysis = tw::spec::analyze(spec);
    if (analysis.ok()) tw::spec::formatSummary(spec, analysis);
    const std::string written = tw::spec::toYaml(spec);
    tw::spec::ModelSpec again;
    try {
      again = tw::spec::parseModelYaml(written, "written.model.yaml");
    } catch (const std::runtime_error &e) {
      tw::fuzz::fail(std::string("a parsed model wrote YAML that does not parse: ") + e.what());
    }
    const std::string rewritten = tw::spec::toYaml(again);
    if (rewritten != written)
      tw::fuzz::fail("a parsed model does not survive writing and reading back:\n" + written + "---- became\n" + rewritten);
  });
  return 0;
}
