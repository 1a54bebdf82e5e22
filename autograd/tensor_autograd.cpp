// Tensor's autograd methods, the part of Tensor that needs the graph: backward() runs the
// engine, retain_grad() marks the node, and a TensorImpl hands its grad_fn to release_later
// when it goes. The fields they use are in tensor/tensor.h.
#include "autograd/node.h"

namespace attic {

TensorImpl::~TensorImpl() { autograd::release_later(std::move(grad_fn)); }

void Tensor::retain_grad() const {
  if (!impl_) throw Error("Tensor: this tensor is undefined (default-constructed)");
  TensorImpl& t = *impl_;
  ATTIC_CHECK(t.requires_grad, "retain_grad: the tensor does not require grad");
  if (t.grad_fn) t.grad_fn->retained_output = impl_;
  t.retains_grad = true;
}

void Tensor::backward(const Tensor& grad, bool retain_graph, bool create_graph) const {
  autograd::run_backward(*this, grad, retain_graph, create_graph);
}

}  // namespace attic
