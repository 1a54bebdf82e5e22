// Reduction CPU kernels: sum / max / min over a set of dims, max / min with indices along
// one dim, and the inclusive prefix sum.
#include <cmath>
#include <limits>
#include <type_traits>

#include "tensor/cpu/cpu_backend.h"
#include "tensor/cpu/strided.h"

namespace attic::cpu {

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

template <class T> bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) return std::isnan(v);
  else return false;
}

}  // namespace

void CpuBackend::reduce(ReduceOp op, const KTensor& out, const KTensor& in) {
  const ReducePlan p = plan_reduce(out, in);
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    // Sums of float32 accumulate in double: summing a million floats in float loses
    // about 3 digits.
    using Acc = std::conditional_t<std::is_same_v<T, float>, double, T>;
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

void CpuBackend::arg_reduce(ReduceOp op, const KTensor& values, const KTensor& indices,
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

void CpuBackend::cumsum(const KTensor& out, const KTensor& in, int64_t dim) {
  const int64_t n = in.shape[size_t(dim)];
  const int64_t so = out.strides[size_t(dim)], si = in.strides[size_t(dim)];
  std::vector<int64_t> lines = in.shape, os = out.strides, is = in.strides;
  lines[size_t(dim)] = 1;  // one visit per line along dim
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    using Acc = std::conditional_t<std::is_same_v<T, float>, double, T>;
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

}  // namespace attic::cpu
