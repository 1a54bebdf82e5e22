// Chapter 25: the bf16 GEMM's operands as pairs. AVX512_BF16's vdpbf16ps reads each 32-bit
// lane as two bfloat16 values of consecutive k and adds both products to a float32:
//   acc += A(i, 2p+1) B(2p+1, j) + A(i, 2p) B(2p, j)
// so the GEMM packs A's rows and B's columns into such words. This program packs one row and
// one column by hand, runs the lane's arithmetic in C++, then checks attic's gemm_bf16
// against gemm_bf16_naive on small whole numbers, whose products and sums are exact in any
// order, so the two agree bit for bit on whichever path this CPU takes.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tensor/cpu/gemm_bf16.h"

using namespace attic;

// Pairs of consecutive k, low half first; an odd K leaves the last high half 0 (the value 0).
std::vector<uint32_t> pack_pairs(const std::vector<float>& v) {
  std::vector<uint32_t> words;
  for (size_t k = 0; k < v.size(); k += 2) {
    const uint32_t lo = float_to_bfloat16_bits(v[k]);
    const uint32_t hi = k + 1 < v.size() ? float_to_bfloat16_bits(v[k + 1]) : 0u;
    words.push_back(lo | hi << 16);
  }
  return words;
}

// The two values a word holds.
float low(uint32_t w) { return bfloat16_bits_to_float(uint16_t(w & 0xFFFFu)); }
float high(uint32_t w) { return bfloat16_bits_to_float(uint16_t(w >> 16)); }

int main() {
  // One row of A and one column of B, K = 5.
  const std::vector<float> a = {1.0f, 2.0f, 3.0f, -1.0f, 0.5f}, b = {2.0f, 1.0f, 1.0f, 4.0f, 2.0f};
  const std::vector<uint32_t> pa = pack_pairs(a), pb = pack_pairs(b);
  for (size_t p = 0; p < pa.size(); ++p)
    std::printf("pair %zu: A word 0x%08X, B word 0x%08X\n", p, pa[p], pb[p]);

  // What one lane of vdpbf16ps does with each pair of words: the high products, then the low.
  float acc = 0;
  for (size_t p = 0; p < pa.size(); ++p) {
    acc += high(pa[p]) * high(pb[p]);
    acc += low(pa[p]) * low(pb[p]);
    std::printf("after pair %zu: %g\n", p, double(acc));
  }
  float dot = 0;
  for (size_t k = 0; k < a.size(); ++k) dot += a[k] * b[k];
  std::printf("the dot product: %g\n", double(dot));

  // gemm_bf16 (the pairs, on this CPU's path) against the three loops of gemm_bf16_naive.
  const int64_t M = 20, N = 40, K = 13;
  std::vector<float> A(size_t(M * K)), B(size_t(K * N)), fast(size_t(M * N)), naive(size_t(M * N));
  for (int64_t i = 0; i < M * K; ++i) A[size_t(i)] = float(i % 7 - 3);
  for (int64_t i = 0; i < K * N; ++i) B[size_t(i)] = float(i % 5 - 2);
  cpu::gemm_bf16(M, N, K, A.data(), K, 1, B.data(), N, 1, fast.data(), N);
  cpu::gemm_bf16_naive(M, N, K, A.data(), K, 1, B.data(), N, 1, naive.data(), N);
  std::printf("gemm_bf16 [%lld x %lld] @ [%lld x %lld] equal to gemm_bf16_naive: %s; C[0, 0..3] =",
              (long long)M, (long long)K, (long long)K, (long long)N, fast == naive ? "yes" : "no");
  for (int j = 0; j < 4; ++j) std::printf(" %g", double(fast[size_t(j)]));
  std::printf("\n");
  return 0;
}
