// Tensor's autograd methods, the part of Tensor that needs the graph: backward() runs the
// engine (or the one swapped in, engine_swap.h), retain_grad() marks the node, and a
// TensorImpl hands its grad_fn to release_later when it goes. The fields they use are in
// tensor/tensor.h.
#include <atomic>

#include "autograd/engine_swap.h"
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

namespace autograd {
namespace {
std::atomic<BackwardEngine> installed_engine{nullptr};
}  // namespace

BackwardEngine swap_in_engine(BackwardEngine engine) { return installed_engine.exchange(engine); }
}  // namespace autograd

void Tensor::backward(const Tensor& grad, bool retain_graph, bool create_graph) const {
  const autograd::BackwardEngine engine = autograd::installed_engine.load();
  (engine ? engine : autograd::run_backward)(*this, grad, retain_graph, create_graph);
}

}  // namespace attic
