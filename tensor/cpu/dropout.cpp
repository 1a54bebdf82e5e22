// Dropout on the CPU: y = x · m / (1 - p), the mask m drawn from Philox by element index
// (tensor/cpu/dropout.h), so backward draws the same mask again instead of storing it.
#include "tensor/cpu/dropout.h"

#include <algorithm>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Philox for the 16 counters c, c + 1, ..., c + 15: 64 words, bits[4 l + w] = word w of
// counter c + l, shifted right by 8 as dropout_bits does. The rounds run over all 16 lanes
// at once, one array per counter word: each step of a round is then the same operation on
// 16 independent values, which the compiler turns into vector multiplies (vpmuludq) instead
// of 16 dependent chains of scalar ones.
void philox_bits16(uint64_t key, uint64_t c, uint32_t* bits) {
  constexpr int L = 16;
  constexpr uint32_t M0 = 0xD2511F53u, M1 = 0xCD9E8D57u, W0 = 0x9E3779B9u, W1 = 0xBB67AE85u;
  uint32_t c0[L], c1[L], c2[L], c3[L];
  for (int l = 0; l < L; ++l) {
    const uint64_t n = c + uint64_t(l);
    c0[l] = uint32_t(n);
    c1[l] = uint32_t(n >> 32);
    c2[l] = 0;
    c3[l] = 0;
  }
  uint32_t k0 = uint32_t(key), k1 = uint32_t(key >> 32);
  for (int round = 0; round < 10; ++round) {
#pragma omp simd
    for (int l = 0; l < L; ++l) {
      const uint64_t p0 = uint64_t(M0) * c0[l], p1 = uint64_t(M1) * c2[l];
      const uint32_t n0 = uint32_t(p1 >> 32) ^ c1[l] ^ k0, n2 = uint32_t(p0 >> 32) ^ c3[l] ^ k1;
      c1[l] = uint32_t(p1);
      c3[l] = uint32_t(p0);
      c0[l] = n0;
      c2[l] = n2;
    }
    k0 += W0;
    k1 += W1;
  }
  for (int l = 0; l < L; ++l) {
    bits[4 * l + 0] = c0[l] >> 8;
    bits[4 * l + 1] = c1[l] >> 8;
    bits[4 * l + 2] = c2[l] >> 8;
    bits[4 * l + 3] = c3[l] >> 8;
  }
}

}  // namespace

// Elements first .. first + n - 1 in blocks of 64 (16 Philox counters); a span that starts
// or ends inside a block uses the part of it that it covers.
template <class T>
void dropout_span(T* out, const T* in, int64_t n, uint64_t first, uint64_t key, uint32_t threshold,
                  T scale) {
  uint32_t bits[64];
  int64_t j = 0;
  while (j < n) {
    const uint64_t i = first + uint64_t(j);
    const uint64_t block = i / 64;
    philox_bits16(key, block * 16, bits);
    const int64_t lo = int64_t(i - block * 64), m = std::min<int64_t>(64 - lo, n - j);
#pragma omp simd
    for (int64_t e = 0; e < m; ++e) out[j + e] = bits[lo + e] >= threshold ? in[j + e] * scale : T(0);
    j += m;
  }
}

template void dropout_span<float>(float*, const float*, int64_t, uint64_t, uint64_t, uint32_t,
                                  float);
template void dropout_span<double>(double*, const double*, int64_t, uint64_t, uint64_t, uint32_t,
                                   double);

// out, in: contiguous, the same shape. out = in ⊙ m / (1 - p) (0 where p = 1).
void Kernels::dropout(const KTensor& out, const KTensor& in, double p, uint64_t key) {
  const int64_t n = in.numel();
  const uint32_t threshold = dropout_threshold(p);
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T scale = p >= 1 ? T(0) : T(1.0 / (1.0 - p));
    const T* x = in.ptr<T>();
    T* y = out.ptr<T>();
    // The mask depends on the element index alone, so where a thread's chunk starts does not
    // change it (a block split between two chunks is drawn by both).
    parallel_for(0, n, 1 << 16, [&](int64_t b, int64_t e) {
      dropout_span<T>(y + b, x + b, e - b, uint64_t(b), key, threshold, scale);
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
