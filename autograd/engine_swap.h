// The swap-in point of the backward engine: Tensor::backward() runs the engine installed
// here, or the library's own (run_backward, autograd/engine.cpp) when none is. The book's
// chapter 3 exercise plugs its topological-sort backward in here, and a GPT's loss.backward()
// then runs on it. (The kernels' swap-in points are in tensor/swap_in.h.)
#pragma once

#include "tensor/tensor.h"

namespace attic::autograd {

// root: the tensor backward() was called on; grad, retain_graph, create_graph: its arguments.
using BackwardEngine = void (*)(const Tensor& root, const Tensor& grad, bool retain_graph,
                                bool create_graph);

// Installs an engine (nullptr: the library's again) and returns the one it replaces.
// Process-wide: set it before the backward passes run, not during one.
BackwardEngine swap_in_engine(BackwardEngine engine);

// Installs an engine for the scope of the object, then puts back the one before it.
class EngineSwap {
 public:
  explicit EngineSwap(BackwardEngine engine) : previous_(swap_in_engine(engine)) {}
  ~EngineSwap() { swap_in_engine(previous_); }
  EngineSwap(const EngineSwap&) = delete;
  EngineSwap& operator=(const EngineSwap&) = delete;

 private:
  BackwardEngine previous_;
};

}  // namespace attic::autograd
