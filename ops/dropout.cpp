// dropout: during training, zero each element with probability p and scale the survivors
// by 1/(1-p), so every element keeps its expected value: E[y] = (1-p) x / (1-p) = x.
// In eval, the identity.
//
// The mask is never stored. Each call takes one 64-bit key from the generator, and element
// i of x (row-major) is kept iff Philox(key, i) says so (tensor/philox.h): backward draws
// the same mask again from the key. One draw per call, whatever x's size, so a seed fixes
// every mask, and the masks agree on every device and thread count.
#include "autograd/grad_mode.h"
#include "ops/helpers.h"

namespace attic {

namespace {

// y = x ⊙ m / (1 - p) is linear in x with the mask fixed, so dx = g ⊙ m / (1 - p): the
// forward applied to g with the same key. Through dropout_with_key, so that a recorded
// backward (create_graph) is itself differentiable.
struct DropoutBackward final : autograd::Node {
  double p = 0;
  uint64_t key = 0;
  const char* name() const override { return "DropoutBackward"; }
  std::vector<Tensor> backward(const Tensor& g) override { return {dropout_with_key(g, p, key)}; }
};

}  // namespace

// x [any shape] -> y like x (contiguous): y_i = x_i · m_i / (1 - p), m_i from (key, i).
Tensor dropout_with_key(const Tensor& x, double p, uint64_t key) {
  detail::check_defined("dropout", x);
  detail::check_floating("dropout", x);
  ATTIC_CHECK(p >= 0.0 && p <= 1.0, "dropout: probability p must be in [0, 1], got ", p);
  Backend& be = detail::backend_of("dropout", {x});
  Tensor xc;
  {
    autograd::NoGradGuard no_grad;  // a copy of the values only: y's node points at x
    xc = x.contiguous();
  }
  Tensor y = empty(x.shape(), TensorOptions(x.dtype()).device(x.device()));
  be.dropout(detail::ktensor(y), detail::ktensor(xc), p, key);
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<DropoutBackward>();
    node->p = p;
    node->key = key;
    autograd::connect(y, node, {x});
  }
  return y;
}

// x [any shape], p in [0, 1] -> y like x;  y = x ⊙ m / (1 - p), m_i = 1 with probability
// 1 - p, else 0 (p = 1: y = 0).
Tensor dropout(const Tensor& x, double p, bool training, Generator* gen) {
  detail::check_defined("dropout", x);
  detail::check_floating("dropout", x);
  ATTIC_CHECK(p >= 0.0 && p <= 1.0, "dropout: probability p must be in [0, 1], got ", p);
  if (!training || p == 0.0) return x;
  Generator& g = gen ? *gen : default_generator();
  return dropout_with_key(x, p, g.next_u64());
}

}  // namespace attic
