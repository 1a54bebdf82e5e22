// Chapter 14: what the numbered GEMM versions share, as llm.c's dev/cuda kernels share
// common.h: the reference (v1), a timer and the test problem; and, from v4 on, the packing,
// the loops of BLIS around a tile, and v5's micro-kernel. Each version is one example file.
//   C[M, N] = A[M, K] B[K, N], float32, row-major: A(i, k) = A[i * K + k]
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// v1, the reference: C(i, j) = Σ_k A(i, k) B(k, j), one dot product per element of C, in
// the order (i, j, k). noinline: inlined where n is a constant, GCC vectorizes it by itself.
[[gnu::noinline]] void gemm_v1(int M, int N, int K, const float* A, const float* B, float* C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = s;
    }
}

// Seconds for one call of f: the fastest of n calls, the one least disturbed by the machine.
template <class F>
double seconds(F f, int n) {
  double best = 1e30;
  for (int r = 0; r < n; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t = std::chrono::steady_clock::now() - t0;
    best = std::min(best, std::chrono::duration<double>(t).count());
  }
  return best;
}

// The problem every version solves: by default M = N = K = 480, multiples of the
// micro-tile's 6 rows and 16 columns; A and B a fixed pattern in [-1, 1]; C1 = v1's answer.
struct Problem {
  int M, N, K;
  std::vector<float> A, B, C1;
  double gflop, t1;  // 2MNK / 1e9 (a multiply and an add per (i, j, k)); v1's seconds

  explicit Problem(int m = 480, int n = 480, int k = 480)
      : M(m), N(n), K(k), A(size_t(M * K)), B(size_t(K * N)), C1(size_t(M * N)),
        gflop(2.0 * M * N * K / 1e9) {
    for (size_t i = 0; i < A.size(); ++i) A[i] = float(i % 13) / 6 - 1;
    for (size_t i = 0; i < B.size(); ++i) B[i] = float(i % 7) / 3 - 1;
    t1 = seconds([&] { gemm_v1(M, N, K, A.data(), B.data(), C1.data()); }, 1);
    std::printf("v1 naive: %.2f GFLOP/s\n", gflop / t1);
  }

  // Times gemm (the best of 5 calls), prints its rate and speed-up, checks it against v1, and
  // returns its time.
  template <class Gemm>
  double run(const char* name, Gemm gemm) {
    std::vector<float> C(C1.size());
    const double t = seconds([&] { gemm(M, N, K, A.data(), B.data(), C.data()); }, 5);
    float err = 0;  // the versions add the same products in other orders: rounding differs
    for (size_t i = 0; i < C.size(); ++i) err = std::max(err, std::fabs(C[i] - C1[i]));
    std::printf("%s: %.1f GFLOP/s, %.1fx v1\n", name, gflop / t, t1 / t);
    std::printf("max |C - C_v1| < 1e-3: %s\n", err < 1e-3f ? "true" : "false");
    return t;
  }
};

// ---- v4 on: the blocks of BLIS. M must be a multiple of MR and N of NR here (attic's real
// GEMM pads the edges instead).
constexpr int MR = 6, NR = 16, MC = 96, KC = 256, NC = 2048;

// Ap[s][k][i] = A(s MR + i, k) of the block A[mc, kc] (row stride lda): strips of MR rows,
// each stored k after k, in the order the tile reads them.
void pack_a(int mc, int kc, const float* A, int lda, float* Ap) {
  for (int s = 0; s < mc; s += MR)
    for (int k = 0; k < kc; ++k)
      for (int i = 0; i < MR; ++i) *Ap++ = A[(s + i) * lda + k];
}

// Bp[s][k][j] = B(k, s NR + j) of the panel B[kc, nc] (row stride ldb): strips of NR columns.
void pack_b(int kc, int nc, const float* B, int ldb, float* Bp) {
  for (int s = 0; s < nc; s += NR)
    for (int k = 0; k < kc; ++k)
      for (int j = 0; j < NR; ++j) *Bp++ = B[k * ldb + s + j];
}

struct NoEpilogue { void operator()(float*, int, int) const {} };

// C = A B by the five loops of BLIS around tile(kc, A strip, B strip, C tile, ldc), which
// adds Ap[kc, MR]ᵀ Bp[kc, NR] to an MR x NR tile of C. When a tile's last k block is done,
// epilogue(C tile, ldc, its first column) may finish it while it is still in L1 (v7).
template <class Tile, class Epilogue = NoEpilogue>
void blis_loops(int M, int N, int K, const float* A, const float* B, float* C, Tile tile,
                Epilogue epilogue = {}) {
  std::vector<float> Ap(MC * KC), Bp(KC * NC);
  std::fill(C, C + M * N, 0.0f);
  for (int jc = 0; jc < N; jc += NC) {  // loop 5: panels of NC columns
    const int nc = std::min(NC, N - jc);
    for (int pc = 0; pc < K; pc += KC) {  // loop 4: KC steps of k; pack B's panel
      const int kc = std::min(KC, K - pc);
      pack_b(kc, nc, B + pc * N + jc, N, Bp.data());
      for (int ic = 0; ic < M; ic += MC) {  // loop 3: blocks of MC rows; pack A's block
        const int mc = std::min(MC, M - ic);
        pack_a(mc, kc, A + ic * K + pc, K, Ap.data());
        for (int jr = 0; jr < nc; jr += NR)    // loop 2: NR columns of the panel
          for (int ir = 0; ir < mc; ir += MR) {  // loop 1: MR rows of the block
            float* c = C + (ic + ir) * N + jc + jr;
            tile(kc, &Ap[ir * kc], &Bp[jr * kc], c, N);
            if (pc + kc == K) epilogue(c, N, jc + jr);
          }
      }
    }
  }
}

// One SIMD register of floats (a GCC and Clang vector extension): 16 lanes with AVX-512, 8
// with AVX2, 4 with SSE or NEON; `acc += a * b` is one FMA where the target has them. (A
// 16-lane type on an 8-lane target compiles too, but GCC 12 then keeps it in memory.)
#if defined(__AVX512F__)
constexpr int kLanes = 16;
#elif defined(__AVX__)
constexpr int kLanes = 8;
#else
constexpr int kLanes = 4;
#endif
typedef float vec __attribute__((vector_size(kLanes * sizeof(float))));
constexpr int NV = NR / kLanes;  // registers per row of the micro-tile

// v5's micro-kernel: C[MR, NR] += Ap[kc, MR]ᵀ Bp[kc, NR], the tile held in MR x NV vector
// accumulators for the whole k loop (6 zmm with AVX-512, 12 ymm with AVX2, 24 of NEON's 32).
// Per k step: NV loads of B, MR broadcasts of A, MR x NV FMAs; C is read and written once.
void micro_kernel(int kc, const float* Ap, const float* Bp, float* C, int ldc) {
  vec acc[MR][NV] = {}, b[NV], c;
  for (int k = 0; k < kc; ++k, Ap += MR, Bp += NR) {
    for (int v = 0; v < NV; ++v) std::memcpy(&b[v], Bp + v * kLanes, sizeof(vec));  // loadu
    for (int i = 0; i < MR; ++i)
      for (int v = 0; v < NV; ++v) acc[i][v] += Ap[i] * b[v];
  }
  for (int i = 0; i < MR; ++i)
    for (int v = 0; v < NV; ++v) {
      std::memcpy(&c, C + i * ldc + v * kLanes, sizeof(vec));
      c += acc[i][v];
      std::memcpy(C + i * ldc + v * kLanes, &c, sizeof(vec));
    }
}
