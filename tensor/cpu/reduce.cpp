// Reduction CPU kernels: sum / max / min over a set of dims, max / min with indices along
// one dim, and the inclusive prefix sum.
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Splits in's dims into kept ones (out has the same size there) and reduced ones (out has
// size 1, in more). The outer loop walks out; for each out element the inner loop visits
// the reduced sub-block, whose element offsets are listed once up front.
struct ReducePlan {
  std::vector<int64_t> red_offsets;      // offsets of the reduced sub-block within in
  std::vector<int64_t> in_kept_strides;  // in's strides over out's shape
};

ReducePlan plan_reduce(const KTensor& out, const KTensor& in) {
  ReducePlan p;
  p.in_kept_strides = in.strides;
  std::vector<int64_t> red_shape, red_strides;
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (out.shape[d] == 1 && in.shape[d] != 1) {
      red_shape.push_back(in.shape[d]);
      red_strides.push_back(in.strides[d]);
      p.in_kept_strides[d] = 0;
    }
  }
  strided_rows<1>(red_shape, {&red_strides}, [&](auto off, int64_t n, auto st) {
    for (int64_t j = 0; j < n; ++j) p.red_offsets.push_back(off[0] + j * st[0]);
  });
  return p;
}

// A sum over one contiguous block of dims of a contiguous tensor: in viewed as [O, R, Q],
// out [O, Q] = Σ_r in[o, r, q]. Sets O, R, Q and returns true when in and out have that form
// (the bias gradients, sum_to over batch dims, row sums).
bool middle_block(const KTensor& out, const KTensor& in, int64_t& O, int64_t& R, int64_t& Q) {
  if (!in.is_contiguous() || !out.is_contiguous()) return false;
  O = R = Q = 1;
  int phase = 0;  // 0: kept dims before the block, 1: in the block, 2: kept dims after it
  for (size_t d = 0; d < in.shape.size(); ++d) {
    if (in.shape[d] == 1) continue;
    const bool reduced = out.shape[d] == 1;
    if (reduced && phase == 2) return false;
    if (reduced) phase = 1;
    else if (phase == 1) phase = 2;
    (phase == 0 ? O : phase == 1 ? R : Q) *= in.shape[d];
  }
  return true;
}

// Columns per block of sum_middle: kColumns double sums are 4 KiB, held in L1.
constexpr int64_t kColumns = 512;

// out [O, Q] = Σ_r in [O, R, Q] in Acc, each sum taken over r in order (so the result does
// not depend on the thread count). Along a row (Q == 1) the sum runs in vector lanes.
// Otherwise the Q columns go in blocks of kColumns: a block's sums stay in L1 while r walks
// down it, and the loop over its columns vectorizes. Blocks are what the threads share, so
// a single wide sum (O == 1: the gradient of a [k, n] matrix broadcast over a batch, Q = k n)
// splits across threads, and never streams an array of Q sums through memory once per r.
template <class T, class Acc>
void sum_middle(T* out, const T* in, int64_t O, int64_t R, int64_t Q) {
  if (R == 1) {  // a sum over dims of size 1 (sum_to between shapes that differ only there)
    parallel_for(0, O * Q, 32768, [&](int64_t i0, int64_t i1) {
      std::copy(in + i0, in + i1, out + i0);
    });
    return;
  }
  if (Q == 1) {
    parallel_for(0, O, std::max<int64_t>(1, 32768 / std::max<int64_t>(1, R)),
                 [&](int64_t o0, int64_t o1) {
      for (int64_t o = o0; o < o1; ++o) {
        const T* x = in + o * R;
        Acc s = 0;
#pragma omp simd reduction(+ : s)
        for (int64_t r = 0; r < R; ++r) s += Acc(x[r]);
        out[o] = T(s);
      }
    });
    return;
  }
  const int64_t blocks = (Q + kColumns - 1) / kColumns;  // per o
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, R * std::min(Q, kColumns)));
  parallel_for(0, O * blocks, grain, [&](int64_t t0, int64_t t1) {
    Acc a[kColumns];
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t o = t / blocks, q0 = t % blocks * kColumns;
      const int64_t nq = std::min(kColumns, Q - q0);
      const T* x = in + o * R * Q + q0;
      for (int64_t q = 0; q < nq; ++q) a[q] = Acc(0);
      for (int64_t r = 0; r < R; ++r)
        for (int64_t q = 0; q < nq; ++q) a[q] += Acc(x[r * Q + q]);
      for (int64_t q = 0; q < nq; ++q) out[o * Q + q0 + q] = T(a[q]);
    }
  });
}

// The type a sum of T runs in: double for float (a million float32 additions lose about 3
// digits in float), int64 for bool (a count), T itself otherwise.
template <class T>
using Accumulator = std::conditional_t<std::is_same_v<T, float>, double,
                                       std::conditional_t<std::is_same_v<T, bool>, int64_t, T>>;

template <class T> bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

}  // namespace

void Kernels::reduce(ReduceOp op, const KTensor& out, const KTensor& in) {
  int64_t O, R, Q;
  const bool block = op == ReduceOp::Sum && in.numel() > 0 && middle_block(out, in, O, R, Q);
  const ReducePlan p = block ? ReducePlan{} : plan_reduce(out, in);
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    using Acc = Accumulator<T>;
    if (block) return sum_middle<T, Acc>(out.ptr<T>(), in.ptr<T>(), O, R, Q);
    const T* x = in.ptr<T>();
    T* o = out.ptr<T>();
    strided_rows<2>(out.shape, {&out.strides, &p.in_kept_strides},
                    [&](auto off, int64_t n, auto st) {
      for (int64_t i = 0; i < n; ++i) {
        const T* base = x + off[1] + i * st[1];
        Acc acc = op == ReduceOp::Sum ? Acc(0)
                  : op == ReduceOp::Max ? Acc(std::numeric_limits<T>::lowest())
                                        : Acc(std::numeric_limits<T>::max());
        bool nan = false;
        for (int64_t r : p.red_offsets) {
          const T v = base[r];
          if (op == ReduceOp::Sum) acc += Acc(v);
          else if (is_nan(v)) nan = true;
          else if (op == ReduceOp::Max ? Acc(v) > acc : Acc(v) < acc) acc = Acc(v);
        }
        o[off[0] + i * st[0]] = nan ? T(NAN) : T(acc);
      }
    });
  });
}

void Kernels::arg_reduce(ReduceOp op, const KTensor& values, const KTensor& indices,
                         const KTensor& in, int64_t dim) {
  const int64_t n = in.shape[size_t(dim)], step = in.strides[size_t(dim)];
  std::vector<int64_t> in_strides = in.strides;
  in_strides[size_t(dim)] = 0;
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = in.ptr<T>();
    T* v = values.ptr<T>();
    int64_t* idx = indices.ptr<int64_t>();
    strided_rows<3>(values.shape, {&values.strides, &indices.strides, &in_strides},
                    [&](auto off, int64_t rn, auto st) {
      for (int64_t r = 0; r < rn; ++r) {
        const T* line = x + off[2] + r * st[2];
        int64_t best = 0;
        T best_v = line[0];
        // The first extreme wins ties; a NaN wins outright (max and min propagate NaN).
        for (int64_t i = 1; i < n && !is_nan(best_v); ++i) {
          const T c = line[i * step];
          if (is_nan(c) || (op == ReduceOp::Max ? c > best_v : c < best_v)) {
            best = i;
            best_v = c;
          }
        }
        v[off[0] + r * st[0]] = best_v;
        idx[off[1] + r * st[1]] = best;
      }
    });
  });
}

// Σ in² in double, over any strides. A contiguous tensor is summed in vector lanes, in fixed
// blocks of kSquaresBlock elements, each block's sum on any thread, then the blocks' sums in
// order: the same total whatever the thread count (a split by threads would move the
// partial sums' boundaries with it).
// The clip's norm reads every gradient once, so on one thread it would hold the others idle
// for a visible share of the GPT's training step.
double Kernels::sum_squares(const KTensor& in) {
  constexpr int64_t kSquaresBlock = 16384;
  double total = 0;
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = in.ptr<T>();
    if (in.is_contiguous()) {
      const int64_t n = in.numel(), blocks = (n + kSquaresBlock - 1) / kSquaresBlock;
      std::vector<double> block_sum(static_cast<size_t>(blocks));
      // 2 blocks at least to a thread: below that the hand-off costs more than the sum.
      parallel_for(0, blocks, 2, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          const T* r = x + b * kSquaresBlock;
          const int64_t len = std::min(kSquaresBlock, n - b * kSquaresBlock);
          double s = 0;
#pragma omp simd reduction(+ : s)
          for (int64_t i = 0; i < len; ++i) s += double(r[i]) * double(r[i]);
          block_sum[size_t(b)] = s;
        }
      });
      for (double s : block_sum) total += s;
      return;
    }
    strided_rows<1>(in.shape, {&in.strides}, [&](auto off, int64_t n, auto st) {
      const T* r = x + off[0];
      double s = 0;
      if (st[0] == 1) {
#pragma omp simd reduction(+ : s)
        for (int64_t i = 0; i < n; ++i) s += double(r[i]) * double(r[i]);
      } else {
        for (int64_t i = 0; i < n; ++i) s += double(r[i * st[0]]) * double(r[i * st[0]]);
      }
      total += s;
    });
  });
  return total;
}

void Kernels::cumsum(const KTensor& out, const KTensor& in, int64_t dim) {
  const int64_t n = in.shape[size_t(dim)];
  const int64_t so = out.strides[size_t(dim)], si = in.strides[size_t(dim)];
  std::vector<int64_t> lines = in.shape, os = out.strides, is = in.strides;
  lines[size_t(dim)] = 1;  // one visit per line along dim
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    using Acc = Accumulator<T>;
    const T* x = in.ptr<T>();
    T* o = out.ptr<T>();
    strided_rows<2>(lines, {&os, &is}, [&](auto off, int64_t rn, auto st) {
      for (int64_t r = 0; r < rn; ++r) {
        Acc acc = 0;
        for (int64_t i = 0; i < n; ++i) {
          acc += Acc(x[off[1] + r * st[1] + i * si]);
          o[off[0] + r * st[0] + i * so] = T(acc);
        }
      }
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
