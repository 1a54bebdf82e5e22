// The reference of the fused CPU attention (tensor/cpu/attention.cpp): one head, plain
// loops, the definition written out. Slow and obviously right; tests/tensor/cpu/
// test_attention.cpp checks the fused kernel against it, as gemm_naive checks the GEMM.
#pragma once

#include <cstdint>

namespace attic::cpu {

// q [Tq, hs], k [Tk, hs], v [Tk, hv], all row-major -> out [Tq, hv], att [Tq, Tk]:
//   S = q kᵀ · scale;  causal: key j > query i dropped;  P = softmax_rows(S) -> att;
//   out = P v.  A dropped key gets P = 0 exactly.
template <class T>
void attention_naive(int64_t Tq, int64_t Tk, int64_t hs, int64_t hv, const T* q, const T* k,
                     const T* v, T scale, bool causal, T* out, T* att);

// Its backward, the derivative of ops/attention.cpp's head comment: given att = P
// and dout [Tq, hv] -> dq [Tq, hs], dk [Tk, hs], dv [Tk, hv] (row-major, overwritten):
//   dv = Pᵀ dout,  dP = dout vᵀ,  dS = P ⊙ (dP − rowsum(dP ⊙ P)),
//   dq = scale · dS k,  dk = scale · dSᵀ q.
template <class T>
void attention_backward_naive(int64_t Tq, int64_t Tk, int64_t hs, int64_t hv, const T* q,
                              const T* k, const T* v, const T* att, const T* dout, T scale,
                              T* dq, T* dk, T* dv);

}  // namespace attic::cpu
