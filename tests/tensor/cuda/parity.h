// The parity check of tests/tensor/cuda/: run f on the CPU and on the GPU from the same
// inputs, compare outputs and input gradients with a normalised error, and check that no
// kernel wrote outside its tensors (guard bytes around every device block).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "devices.h"
#include "helpers.h"
#include "tensor/cuda/cuda_backend.h"

namespace attic::testing {

// max_i |got_i - want_i| / max(1, max_i |want_i|): an absolute error for values below 1, a
// relative one above, so one threshold fits a softmax (values ≤ 1) and a matmul (values ~K).
// NaN in the same place on both sides agrees; anywhere else it is an infinite error.
inline double normalised_error(const Tensor& got, const Tensor& want) {
  const std::vector<double> a = values(got), b = values(want);
  REQUIRE(a.size() == b.size());
  double diff = 0, scale = 1;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (!(std::isnan(a[i]) && std::isnan(b[i]))) return INFINITY;
      continue;
    }
    if (std::isinf(a[i]) || std::isinf(b[i])) {
      if (a[i] != b[i]) return INFINITY;
      continue;
    }
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

using ParityFn = std::function<Tensor(const std::vector<Tensor>&)>;

// The device checked against the CPU: CUDA, or the CPU itself when ATTIC_PARITY_ON_CPU=1 is
// set. That self-test runs the suite's own logic (every lambda, shape and threshold) on a
// machine without a GPU, so the suite is known to be sound before it first meets one.
inline bool parity_on_cpu() {
  const char* e = std::getenv("ATTIC_PARITY_ON_CPU");
  return e != nullptr && std::string(e) == "1";
}
inline Device parity_device() { return parity_on_cpu() ? Device::CPU : Device::CUDA; }

// `if (skip_parity()) return;` opens every parity test.
inline bool skip_parity() { return !parity_on_cpu() && skip_without_cuda(); }

// Runs f on `inputs` (CPU tensors; those that require grad get gradients) and on copies of
// them on the GPU; the output and every input gradient must agree within tol. The same
// seed is set before each run, so ops that draw random numbers (dropout) draw the same.
inline void check_parity(const std::string& name, const ParityFn& f,
                         const std::vector<Tensor>& inputs, double tol) {
  INFO(name);
  manual_seed(4242);
  const Tensor want = f(inputs);
  const bool diff = want.requires_grad();
  Tensor g;
  if (diff) {
    manual_seed(7);
    g = randn(want.shape(), want.dtype());
    sum(want * g).backward();
  }
  const Device dev_kind = parity_device();
  const bool guard = dev_kind == Device::CUDA;
  if (guard) cuda::set_guard_bytes(256);
  {
    std::vector<Tensor> dev;
    for (const Tensor& x : inputs)
      dev.push_back(x.detach().clone().to(dev_kind).requires_grad_(x.requires_grad()));
    manual_seed(4242);
    const Tensor got = f(dev);
    CHECK(got.device() == dev_kind);
    REQUIRE(got.shape() == want.shape());
    REQUIRE(got.dtype() == want.dtype());
    const double fwd = normalised_error(got, want);
    INFO("forward error " << fwd);
    CHECK(fwd <= tol);
    if (diff) {
      sum(got * g.to(dev_kind)).backward();
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (!inputs[i].requires_grad()) continue;
        REQUIRE(dev[i].grad().defined() == inputs[i].grad().defined());
        if (!inputs[i].grad().defined()) continue;  // f does not differentiate through it
        const double bwd = normalised_error(dev[i].grad(), inputs[i].grad());
        INFO("backward error of input " << i << ": " << bwd);
        CHECK(bwd <= tol);
      }
    }
  }
  if (guard) {
    CHECK(cuda::guard_violations() == 0);
    cuda::set_guard_bytes(0);
  }
  for (const Tensor& x : inputs)
    if (x.requires_grad()) x.set_grad(Tensor());
}

// A float32 leaf of N(0, 1) draws that requires grad (float32: the dtype the GPU trains in).
inline Tensor leaf32(const Shape& shape) { return randn(shape).requires_grad_(); }

}  // namespace attic::testing
