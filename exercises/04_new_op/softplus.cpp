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
    // TODO: dx [*], the gradient of the input for the gradient g of the output, built from
    // attic's ops so that a backward recorded with create_graph has a gradient too.
    (void)g;
    throw std::logic_error("TODO: SoftplusBackward::backward");
  }
};

// x [n] -> y [n], contiguous arrays: y_i = log(1 + e^(x_i)).
template <class T>
void softplus_loop(const T* x, T* y, int64_t n) {
  // TODO: y_i = log(1 + e^(x_i)), finite and accurate for every finite x_i (softplus.h). This
  // naive loop gives inf for a large x_i, and 0 for a very negative one.
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
  // TODO: when x needs a gradient, out's grad_fn is a SoftplusBackward holding x, with x as
  // its one input; otherwise out records nothing (softplus.h).
  return out;
}

}  // namespace exercise
