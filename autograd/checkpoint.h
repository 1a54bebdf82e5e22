// Gradient checkpointing: trade compute for memory. checkpoint(fn, inputs) runs fn without
// recording its graph, so none of fn's intermediate tensors outlive the forward; backward
// runs fn again, this time recording, and backpropagates through that fresh graph.
//
//   Tensor y = autograd::checkpoint([&](const std::vector<Tensor>& in) {
//     return layer->forward(in[0]);
//   }, {x});
//
// It follows the rules of PyTorch's non-reentrant torch.utils.checkpoint:
//   - On entry the state of every generator fn may draw from is copied (the default one
//     always, and those passed in). The recomputation starts from that copy, so dropout
//     draws the same masks twice; afterwards each generator is put back where it was, so
//     that later draws equal those of an unchecked run. With the same seed, gradients are
//     bit-identical to running fn directly, and so is the generator's state after backward.
//   - The autocast mode on entry (autograd/autocast_mode.h) is the recomputation's too, so
//     its products round as the forward's did, wherever backward() is called.
//   - fn may capture anything else: masks, flags, modules. Only `inputs` are differentiated
//     through the checkpoint's edges; the parameters fn reads get their gradients when the
//     recomputation is backpropagated (into their .grad, as by backward()).
//   - Nesting works: a checkpoint inside fn is itself recomputed, lazily, during the outer
//     one's backward.
//   - An input written in place between the forward and the backward (its storage's
//     version moved) would make the recomputation differ: backward throws attic::Error.
// Unlike PyTorch's, the parameters inside fn are reached by backward() only: autograd::grad
// with explicit inputs would not see them. Second derivatives through a checkpoint are
// refused (create_graph).
#pragma once

#include <functional>
#include <vector>

#include "tensor/random.h"
#include "tensor/tensor.h"

namespace attic::autograd {

using CheckpointFn = std::function<Tensor(const std::vector<Tensor>&)>;

// fn(inputs) -> one tensor, whose graph is recorded only in backward. generators: those fn
// draws from besides the default generator. Outside grad mode it is simply fn(inputs).
Tensor checkpoint(const CheckpointFn& fn, const std::vector<Tensor>& inputs,
                  const std::vector<Generator*>& generators = {});

}  // namespace attic::autograd
