// What every dataset in data/ hands the training loop: which part of the data to draw
// from, and a batch of inputs with their targets.
#pragma once

#include "tensor/tensor.h"

namespace attic {

// Train is what the model learns from; Val is held out to measure how well it generalizes.
enum class Split { Train, Val };

// "train" or "val", for messages and logs.
inline const char* split_name(Split split) { return split == Split::Train ? "train" : "val"; }

// x: the inputs; y: the targets the model should predict from them.
struct Batch {
  Tensor x;
  Tensor y;
};

}  // namespace attic
