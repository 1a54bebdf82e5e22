// A Node is one recorded op in the dynamic graph: it knows how to turn the gradient of its
// output into gradients of its inputs. Each op defines its Node subclass (XxxBackward) in
// the same file as its forward, e.g. ops/matmul.cpp holds MatmulBackward.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "autograd/grad_mode.h"
#include "tensor/tensor.h"

namespace attic::autograd {

// Where the gradient of one input goes: into the node that produced it, or, for a leaf,
// straight into leaf->grad. Both empty: that input needs no gradient.
//
// The leaf is held weakly: with create_graph, leaf.grad holds a graph whose edges point back
// at the leaf, and a strong pointer would make that a cycle that is never freed. A leaf
// that nobody holds any more has a .grad that nobody can read, so it is simply skipped.
struct Edge {
  std::shared_ptr<Node> fn;
  std::weak_ptr<TensorImpl> leaf;
  Shape shape;  // the input's shape, which the returned gradient must have
  DType dtype = DType::Float32;  // and its dtype and device: where a zero gradient is made
  Device device = Device::CPU;   // for an input whose consumers returned none
  bool needed() const { return fn || !leaf.expired(); }
};

class Node : public std::enable_shared_from_this<Node> {
 public:
  virtual ~Node();
  virtual const char* name() const = 0;
  // grad_output has the shape of this node's output. Returns one gradient per input, in
  // the order of `inputs`; an undefined Tensor where no gradient is needed.
  virtual std::vector<Tensor> backward(const Tensor& grad_output) = 0;

  // Does input i need a gradient? Backward functions skip the work when not.
  bool needs_grad(size_t i) const { return i < inputs.size() && inputs[i].needed(); }

  // This node's own output, saved detached (holding it with grad_fn set would be a cycle),
  // put back into the graph: the same values with this node as grad_fn. A backward that
  // reads its output (softmax's y) uses it when it is itself being recorded (create_graph),
  // so that its result depends on x through this node instead of treating y as a constant.
  // PyTorch's SavedVariable does the same for a saved output.
  Tensor output_in_graph(const Tensor& saved_output);

  std::vector<Edge> inputs;
  Shape out_shape;          // shape of the output this node made
  uint64_t sequence_nr = 0; // creation order; later nodes run first in backward
  bool released = false;    // set after a backward without retain_graph
  std::weak_ptr<TensorImpl> retained_output;  // set by Tensor::retain_grad()
  std::string anomaly_site; // where it was created; recorded only in anomaly mode
};

// True when grad mode is on and any input requires grad: the op should record a node.
bool needs_grad(std::initializer_list<Tensor> inputs);
bool needs_grad(const std::vector<Tensor>& inputs);

// Makes `node` the grad_fn of `out`, wiring one Edge per input (in order).
void connect(Tensor& out, std::shared_ptr<Node> node, std::initializer_list<Tensor> inputs);
void connect(Tensor& out, std::shared_ptr<Node> node, const std::vector<Tensor>& inputs);

// Runs the backward pass from root (see engine.cpp).
void run_backward(const Tensor& root, const Tensor& grad, bool retain_graph, bool create_graph);

// a + b, broadcast and promoted, recorded as a node when grad mode is on (create_graph): how
// the engine sums two gradients that reach one tensor. It is the library's add, which ops/
// defines (ops/arith.cpp), as it defines Tensor's own methods (clone, view, add_): the
// engine names it here and includes nothing above autograd/.
Tensor add_gradients(const Tensor& a, const Tensor& b);

// Destroying a 100,000-node chain recursively would overflow the stack: nodes and tensors
// hand their graph pointers to this instead, which frees them one by one in a loop.
void release_later(std::shared_ptr<Node>&& node);

}  // namespace attic::autograd
