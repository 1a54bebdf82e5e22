// Dropout's mask drawn from Philox (tensor/philox.h): element i of a row-major tensor is kept
// iff dropout_bits(key, i) >= dropout_threshold(p). The fast span kernel (dropout.cpp) is
// used by the dropout op and inside the fused attention; dropout_naive is the definition,
// one element at a time, that tests/tensor/cpu/test_dropout_kernel.cpp checks it against.
#pragma once

#include <cstdint>

#include "tensor/philox.h"

namespace attic::cpu {

// in, out [n] (out may be in) holding elements first .. first + n - 1 of the mask's index
// space:  out[j] = in[j] · scale  if dropout_bits(key, first + j) >= threshold,  else 0.
// At the instruction-set level the CPU backend runs (it calls cpu_backend().run_dropout_span).
template <class T>
void dropout_span(T* out, const T* in, int64_t n, uint64_t first, uint64_t key, uint32_t threshold,
                  T scale);

template <class T>
void dropout_naive(T* out, const T* in, int64_t n, uint64_t first, uint64_t key,
                   uint32_t threshold, T scale) {
  for (int64_t j = 0; j < n; ++j)
    out[j] = dropout_bits(key, first + uint64_t(j)) >= threshold ? in[j] * scale : T(0);
}

}  // namespace attic::cpu
