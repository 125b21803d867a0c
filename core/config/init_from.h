#pragma once
// What `train.init_from` names: the weights a run starts from instead of the seed's.
//
//   train: {init_from: run:mlp-baseline@best}        # a recorded run's best checkpoint (or @last,
//                                                    # or @epoch-N kept with train.keep_epochs)
//   train: {init_from: ../pretrained/resnet18.pt}    # a Torchwright checkpoint or a PyTorch
//                                                    # state_dict (torch.save(model.state_dict()))
//
// The run reference is resolved against the tracking store when the run is recorded
// (app/common/init_source.h); the engine reads the file (engine/weight_transfer.h). Torch-free.

#include <string>

namespace tw::config {

struct InitFrom {
  std::string run;         // the run's name or id prefix, for "run:" references
  std::string checkpoint;  // "best", "last" or "epoch-N" (config/checkpoint_choice.h), for "run:" references
  std::string file;        // a weights file otherwise
  std::string problem;     // why the text does not read; empty when it does
  bool empty() const { return run.empty() && file.empty(); }
};

// "run:<run>[@best|@last|@epoch-N]" (best when not given) or a file path; "" reads as empty.
InitFrom parseInitFrom(const std::string &text);
bool isRunReference(const std::string &text);

}  // namespace tw::config
