// Chapter 4 exercise: finish softplus (softplus.h says what it computes), then run
//   make exercise N=04
// The check tests values by hand, large and very negative inputs, the node, and gradcheck.
#include "softplus.h"

#include <cmath>
#include <stdexcept>

#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"

namespace exercise {

using namespace attic;

namespace {

// y = log(1 + e^x): dx = g σ(x)
struct SoftplusBackward final : autograd::Node {
  Tensor x;
  const char* name() const override { return "SoftplusBackward"; }
  // g [*] -> {dx [*]}
  std::vector<Tensor> backward(const Tensor& g) override {
    // TODO: dx = g σ(x), written with library ops (sigmoid, *), so that a recorded
    // backward (create_graph) is differentiable too.
    (void)g;
    throw std::logic_error("TODO: SoftplusBackward::backward");
  }
};

// x [n] -> y [n], contiguous arrays: y_i = log(1 + e^(x_i)).
template <class T>
void softplus_loop(const T* x, T* y, int64_t n) {
  // TODO: this is the naive formula. Make it stable: max(x, 0) + log1p(e^(-|x|)).
  for (int64_t i = 0; i < n; ++i) y[i] = std::log(T(1) + std::exp(x[i]));
}

}  // namespace

// x [*] -> [*]: y = log(1 + e^x)
Tensor softplus(const Tensor& x) {
  ATTIC_CHECK(x.defined() && is_floating(x.dtype()), "softplus: needs a float32 or float64 "
              "tensor, got ", x.defined() ? dtype_name(x.dtype()) : "an undefined one");
  ATTIC_CHECK(x.device() == Device::CPU, "softplus: runs on the CPU only");
  Tensor in, out;
  {
    NoGradGuard no_grad;  // the forward's own steps are not recorded
    in = x.contiguous();  // a kernel loop reads a plain array
    out = empty(x.shape(), x.dtype());
  }
  if (x.dtype() == kFloat64) softplus_loop(in.data_ptr<double>(), out.data_ptr<double>(), x.numel());
  else softplus_loop(in.data_ptr<float>(), out.data_ptr<float>(), x.numel());
  // TODO: when autograd::needs_grad({x}), make a SoftplusBackward, save x in it, and make it
  // out's grad_fn with autograd::connect(out, node, {x}).
  return out;
}

}  // namespace exercise
