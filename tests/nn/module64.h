// Test helpers for modules: float64 parameters (for gradcheck) and permutations of sets.
#pragma once

#include "helpers.h"
#include "nn/module.h"

namespace attic::testing {

// Converts every parameter and buffer of m to float64 in place (the handles the module's
// members hold follow, as with Module::to(device)), and returns the parameters.
inline std::vector<Tensor> to_float64(nn::Module& m) {
  nn::NamedTensors all = m.named_parameters();
  nn::NamedTensors bufs = m.named_buffers();
  all.insert(all.end(), bufs.begin(), bufs.end());
  for (auto& [name, t] : all) {
    Tensor d = t.detach().to(kFloat64);
    t.impl()->storage = d.impl()->storage;
    t.impl()->offset = d.impl()->offset;
    t.impl()->strides = d.impl()->strides;
    t.impl()->dtype = kFloat64;
    t.impl()->grad.reset();
  }
  return m.parameters();
}

// x [B, N, ...] with its rows (dim 1) in the order perm
inline Tensor permute_rows(const Tensor& x, const std::vector<int64_t>& perm) {
  return index_select(x, 1, from_vector(perm));
}

inline double max_abs_diff(const Tensor& a, const Tensor& b) {
  return max(abs(a.to(kFloat64) - b.to(kFloat64))).item<double>();
}

// Overwrites a parameter's values outside the graph.
inline void set_values(Tensor& p, const Tensor& values) {
  NoGradGuard no_grad;
  p.copy_(values);
}

}  // namespace attic::testing
