// Chapter 4 exercise, solved: softplus as an attic op, a forward kernel loop and a node.
#include "softplus.h"

#include <algorithm>
#include <cmath>

#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "ops/ops.h"

namespace exercise {

using namespace attic;

namespace {

// y = log(1 + e^x): dx = g e^x / (1 + e^x) = g σ(x)
struct SoftplusBackward final : autograd::Node {
  Tensor x;
  const char* name() const override { return "SoftplusBackward"; }
  // g [*] -> {dx [*]}
  std::vector<Tensor> backward(const Tensor& g) override { return {g * sigmoid(x)}; }
};

// x [n] -> y [n], contiguous arrays: y_i = log(1 + e^(x_i)).
// log(1 + e^x) = log(e^max(x,0) (e^-max(x,0) + e^(x - max(x,0)))) = max(x, 0) + log1p(e^(-|x|)):
// the exponent is never positive, so e^(-|x|) <= 1 cannot overflow (the naive e^x is inf in
// float32 from x = 89), and log1p(u) keeps the digits of a tiny u that 1 + u would round
// away (log(1 + e^-50) is 0 in float64, log1p gives 1.93e-22).
template <class T>
void softplus_loop(const T* x, T* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = std::max(x[i], T(0)) + std::log1p(std::exp(-std::abs(x[i])));
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
  if (autograd::needs_grad({x})) {
    auto node = std::make_shared<SoftplusBackward>();
    node->x = x;
    autograd::connect(out, node, {x});
  }
  return out;
}

}  // namespace exercise
