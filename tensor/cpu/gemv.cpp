#include "tensor/cpu/gemv.h"

#include <algorithm>
#include <cstring>

#include "tensor/cpu/gemm_pack.h"
#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// A thread gets at least this many multiply-adds, or waking it costs more than it saves.
constexpr int64_t kMinFmasPerThread = 1 << 18;

using gemm_detail::Blocking;

template <class T>
using Vec = typename Blocking<T>::Vec;

template <class T>
Vec<T> load_vec(const T* p) {
  Vec<T> v;
  std::memcpy(&v, p, sizeof v);  // an unaligned vector load
  return v;
}

template <class T>
T lane_sum(Vec<T> v) {
  T s = 0;
  for (int l = 0; l < Blocking<T>::kLanes; ++l) s += v[l];
  return s;
}

// C[n0 : n1] (+)= dot(A, B[:, n]) with B's column n at B + n * csb, contiguous along k.
// Four columns at once: one load of A feeds four FMAs, and four accumulators hide the FMA's
// latency. The tail of k below one vector is summed in scalars.
template <class T>
void dot_columns(int64_t n0, int64_t n1, int64_t K, const T* A, const T* B, int64_t csb, T* C, bool accumulate) {
  constexpr int64_t L = Blocking<T>::kLanes;
  const int64_t kv = K / L * L;
  int64_t n = n0;
  for (; n + 4 <= n1; n += 4) {
    const T* b[4] = {B + n * csb, B + (n + 1) * csb, B + (n + 2) * csb, B + (n + 3) * csb};
    Vec<T> acc[4] = {};
    for (int64_t k = 0; k < kv; k += L) {
      const Vec<T> a = load_vec(A + k);
      for (int j = 0; j < 4; ++j) acc[j] += a * load_vec(b[j] + k);
    }
    for (int j = 0; j < 4; ++j) {
      T s = lane_sum<T>(acc[j]);
      for (int64_t k = kv; k < K; ++k) s += A[k] * b[j][k];
      C[n + j] = accumulate ? C[n + j] + s : s;
    }
  }
  for (; n < n1; ++n) {
    const T* b = B + n * csb;
    Vec<T> acc = {};
    for (int64_t k = 0; k < kv; k += L) acc += load_vec(A + k) * load_vec(b + k);
    T s = lane_sum<T>(acc);
    for (int64_t k = kv; k < K; ++k) s += A[k] * b[k];
    C[n] = accumulate ? C[n] + s : s;
  }
}

// C[n0 : n1] (+)= Σ_k A[k] B[k, n0 : n1], B's rows contiguous: the compiler vectorizes the
// inner loop along n.
template <class T>
void add_rows(int64_t n0, int64_t n1, int64_t K, const T* A, int64_t csa, const T* B, int64_t rsb, T* C,
              bool accumulate) {
  if (!accumulate) std::fill(C + n0, C + n1, T(0));
  for (int64_t k = 0; k < K; ++k) {
    const T a = A[k * csa];
    const T* b = B + k * rsb;
    for (int64_t n = n0; n < n1; ++n) C[n] += a * b[n];
  }
}

}  // namespace

bool gemv_takes(int64_t csa, int64_t rsb, int64_t csb) { return (rsb == 1 && csa == 1) || csb == 1; }

template <class T>
void gemv(int64_t N, int64_t K, const T* A, int64_t csa, const T* B, int64_t rsb, int64_t csb, T* C,
          bool accumulate) {
  const int64_t grain = std::max<int64_t>(16, kMinFmasPerThread / std::max<int64_t>(K, 1));
  const bool dots = rsb == 1 && csa == 1;
  parallel_for(0, N, grain, [&](int64_t n0, int64_t n1) {
    if (dots) dot_columns(n0, n1, K, A, B, csb, C, accumulate);
    else add_rows(n0, n1, K, A, csa, B, rsb, C, accumulate);
  });
}

template void gemv<float>(int64_t, int64_t, const float*, int64_t, const float*, int64_t, int64_t, float*, bool);
template void gemv<double>(int64_t, int64_t, const double*, int64_t, const double*, int64_t, int64_t, double*,
                           bool);

}  // namespace attic::cpu::ATTIC_CPU_ISA
