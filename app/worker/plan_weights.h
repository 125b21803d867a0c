#pragma once
// `torchwright-worker --plan-weights FILE --config RUN.yaml`: the mapping table of a weights file
// onto a run file's model (taken, of another shape, missing, unused), printed without training
// or writing anything; `torchwright check` shows it for train.init_from. Exit 1 when no tensor
// matches (another architecture) or the file cannot be read.

namespace tw::worker {

int planWeights(int argc, char **argv);

}  // namespace tw::worker
