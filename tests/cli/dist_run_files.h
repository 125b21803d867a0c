#pragma once
// The run files the distributed tests train with two ranks (test_cli_launch, test_cli_shard).

// No dropout and no augmentation: with them a rank's random stream covers only its share, so 2
// ranks would not draw what 1 rank draws. Batch 127 splits unevenly (63 + 64) and leaves a
// short last batch (1,800 = 14 x 127 + 22): the weighting of unequal shares is exercised too.
inline constexpr const char *kRunFile = R"(model:
  name: mlp
  nodes:
    - {id: image, op: Input, shape: [1, 28, 28]}
    - {id: flat, op: Flatten}
    - {id: fc1, op: Linear, out_features: 64}
    - {id: act, op: ReLU}
    - {id: logits, op: Linear, out_features: 10}
data: {dataset: fashion-mnist, train_limit: 2000, test_limit: 500, batch_size: 127}
train: {optimizer: adam, lr: 0.002, epochs: 2, seed: 5, threads: 1}
tracking: {experiment: dist}
)";

// Long enough to kill a rank in the middle: 9,000 images, 5 epochs, a checkpoint every 20 steps.
inline constexpr const char *kLongRunFile = R"(model:
  name: cnn
  nodes:
    - {id: image, op: Input, shape: [1, 28, 28]}
    - {id: conv, op: Conv2d, out_channels: 8, kernel_size: 3, padding: 1}
    - {id: bn, op: BatchNorm2d}
    - {id: relu, op: ReLU}
    - {id: pool, op: MaxPool2d, kernel_size: 2}
    - {id: flat, op: Flatten}
    - {id: logits, op: Linear, out_features: 10}
data: {dataset: fashion-mnist, train_limit: 10000, test_limit: 500, batch_size: 100}
train: {optimizer: adam, lr: 0.002, epochs: 5, seed: 7, threads: 1, checkpoint_every: 20}
tracking: {experiment: dist}
)";
