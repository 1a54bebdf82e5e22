// Chapter 14, version 6: threads. v5 on each thread's own rows of C, through attic's thread
// pool; each thread packs its own blocks, and no two threads write the same element of C.
//   C[M, N] = A[M, K] B[K, N], float32, row-major
#include "14_gemm.h"
#include "tensor/cpu/gemm.h"
#include "tensor/cpu/thread_pool.h"

// Rows of C in strips of MR, one contiguous range of strips per thread, each range by v5.
[[gnu::noinline]] void gemm_v6(int M, int N, int K, const float* A, const float* B, float* C) {
  attic::cpu::parallel_for(0, M / MR, 1, [&](int64_t s0, int64_t s1) {
    const int i0 = int(s0) * MR, rows = int(s1 - s0) * MR;
    blis_loops(rows, N, K, A + i0 * K, B, C + i0 * N, micro_kernel);
  });
}

int main() {
  attic::set_num_threads(2);
  Problem p;
  p.run("v6 threads", gemm_v6);
  // Each element of C is summed by one thread, in v5's order: the same bits as v5.
  std::vector<float> C5(p.C1.size()), C6(p.C1.size());
  blis_loops(p.M, p.N, p.K, p.A.data(), p.B.data(), C5.data(), micro_kernel);
  gemm_v6(p.M, p.N, p.K, p.A.data(), p.B.data(), C6.data());
  std::printf("v6 == v5, bit for bit: %s\n", C5 == C6 ? "true" : "false");
  // attic's GEMM splits C the same way: 1 thread or 2, the same bits.
  std::vector<float> G1(C5.size()), G2(C5.size());
  attic::set_num_threads(1);
  attic::cpu::gemm<float>(p.M, p.N, p.K, p.A.data(), p.K, 1, p.B.data(), p.N, 1, G1.data(), p.N);
  attic::set_num_threads(2);
  attic::cpu::gemm<float>(p.M, p.N, p.K, p.A.data(), p.K, 1, p.B.data(), p.N, 1, G2.data(), p.N);
  std::printf("attic's cpu::gemm, 1 thread == 2, bit for bit: %s\n", G1 == G2 ? "true" : "false");
  return 0;
}
