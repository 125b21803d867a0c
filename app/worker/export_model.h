#pragma once
// `torchwright-worker --export-model MODEL.model.yaml`: a model file exported without a run, as
// `torchwright import` leaves one or the designer saves one. Its weights come from the file named
// by --weights, else from `<stem>.weights.pt` beside it when that exists, else from --seed; a
// weights file must give every tensor of the model (a partial one is refused, listing what is
// missing). The file is checked like a run's export, on random inputs of the model's shape.

namespace tw::worker {

int exportModelFile(int argc, char **argv);

}  // namespace tw::worker
