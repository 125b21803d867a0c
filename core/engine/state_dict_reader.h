#pragma once
// PyTorch's torch.save files (the zip format, PyTorch 1.6 and later) read without Python and
// without running anything they contain: LibTorch's zip reader gives the pickle and the tensor
// records, and a small pickle reader of our own takes the opcodes torch.save writes. Classes it
// knows (OrderedDict, the tensor and parameter rebuilders, the storage types) become values;
// any other class stays an opaque value that is never called. LibTorch 1.13's own
// torch::pickle_load cannot be used: it reads an OrderedDict (every state_dict) as None and
// refuses a one-entry dict. Engine-internal.

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace tw::engine {

// Every tensor of the file's dictionary under its key, in the file's order. A dictionary whose
// values are not tensors but which holds one under "state_dict" or "model" (a training script's
// checkpoint) gives that one's tensors. Throws std::runtime_error naming the file and the problem
// (not a zip, an older torch.save format, a truncated record, no dictionary).
std::vector<std::pair<std::string, torch::Tensor>> readStateDict(const std::string &path);

}  // namespace tw::engine
