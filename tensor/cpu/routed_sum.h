// The reference of the CPU routed sum (tensor/cpu/routed_sum.cpp): plain loops, every sum in
// double. tests/tensor/cpu/test_routed_sum.cpp checks the kernel against it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace attic::cpu {

// src: L contiguous [B, NH, T, hs]; w [L·NH] -> out [B, NH, T, hs]
//   out[b, h, t, i] = Σ_l w[l·NH + h] · src_l[b, h, t, i]
template <class T>
void routed_sum_naive(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const T* w,
                      const std::vector<const T*>& src, T* out);

// g [B, NH, T, hs] -> dsrc_l [B, NH, T, hs], dw [L·NH]
//   dsrc_l[b, h, t, i] = w[l·NH + h] · g[b, h, t, i]
//   dw[l·NH + h] = Σ_{b, t, i} g[b, h, t, i] · src_l[b, h, t, i]
template <class T>
void routed_sum_backward_naive(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const T* g,
                               const T* w, const std::vector<const T*>& src,
                               const std::vector<T*>& dsrc, T* dw);

}  // namespace attic::cpu
