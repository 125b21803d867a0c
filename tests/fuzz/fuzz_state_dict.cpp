// torch.save files from elsewhere (`init_from` a PyTorch state_dict): LibTorch's zip reader and
// our own pickle reader, which must never run what the file names.
#include "core/engine/state_dict_reader.h"
#include "tests/fuzz/fuzz_target.h"

TW_FUZZ_TARGET(state_dict) {
  const std::string path = tw::fuzz::inputFile(data, size, "fuzz-state-dict.pt");
  tw::fuzz::expectRefusalOnly(path, [&] { tw::engine::readStateDict(path); });
  return 0;
}
