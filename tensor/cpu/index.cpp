// Indexing CPU kernels. The op has checked every index against its dim's size.
#include <cstring>
#include <type_traits>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/strided.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Whether index_select and index_add can move whole rows: dim 0 of contiguous tensors of one
// dtype, where slice i is the row of `row` numbers at i * row. The embedding's forward and
// backward are this case: the laptop GPT's step looks up 832 rows of 128 (768 tokens, 64
// positions) and adds as many back, and a call per row through copy or binary costs more
// than the row's own work.
bool whole_rows(int64_t dim, const KTensor& a, const KTensor& b) {
  return dim == 0 && a.dtype == b.dtype && a.is_contiguous() && b.is_contiguous() &&
         a.dtype != kBool;
}

// Numbers per slice along dim 0 of a contiguous t.
int64_t row_numel(const KTensor& t) {
  return t.shape.empty() || t.shape[0] == 0 ? 0 : t.numel() / t.shape[0];
}

}  // namespace

// out.select(dim, i) = in.select(dim, index[i]): one row copy, or one strided copy, per
// index.
void Kernels::index_select(const KTensor& out, const KTensor& in, int64_t dim,
                           const KTensor& index) {
  const int64_t* idx = index.ptr<int64_t>();
  const int64_t n = index.numel(), step = index.strides.empty() ? 1 : index.strides[0];
  if (whole_rows(dim, out, in)) {
    const size_t bytes = size_t(row_numel(in)) * dtype_size(in.dtype);
    const auto* src = static_cast<const char*>(in.data);
    auto* dst = static_cast<char*>(out.data);
    for (int64_t i = 0; i < n; ++i)
      std::memcpy(dst + size_t(i) * bytes, src + size_t(idx[i * step]) * bytes, bytes);
    return;
  }
  for (int64_t i = 0; i < n; ++i) copy(select_dim(out, dim, i), select_dim(in, dim, idx[i * step]));
}

// out.select(dim, index[i]) += src.select(dim, i). Repeated indices add up, in order.
void Kernels::index_add(const KTensor& out, int64_t dim, const KTensor& index,
                        const KTensor& src) {
  const int64_t* idx = index.ptr<int64_t>();
  const int64_t n = index.numel(), step = index.strides.empty() ? 1 : index.strides[0];
  if (whole_rows(dim, out, src)) {
    const int64_t row = row_numel(src);
    dispatch_dtype(out.dtype, [&](auto z) {
      using T = decltype(z);
      if constexpr (!std::is_same_v<T, bool>) {
        T* o = out.ptr<T>();
        const T* s = src.ptr<T>();
        for (int64_t i = 0; i < n; ++i) {
          T* d = o + idx[i * step] * row;
          const T* r = s + i * row;
          for (int64_t j = 0; j < row; ++j) d[j] = d[j] + r[j];
        }
      }
    });
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    const KTensor dst = select_dim(out, dim, idx[i * step]);
    binary(BinaryOp::Add, dst, dst, select_dim(src, dim, i));
  }
}

// Walks index's shape; `in` is read at the same position except along dim, where the
// position is the index value. Zeroing in's stride at dim and adding idx * stride does that.
void Kernels::gather(const KTensor& out, const KTensor& in, int64_t dim,
                     const KTensor& index) {
  std::vector<int64_t> in_strides = in.strides;
  const int64_t step = in_strides[size_t(dim)];
  in_strides[size_t(dim)] = 0;
  dispatch_dtype(in.dtype, [&](auto z) {
    using T = decltype(z);
    const T* x = in.ptr<T>();
    T* o = out.ptr<T>();
    const int64_t* idx = index.ptr<int64_t>();
    strided_rows<3>(index.shape, {&out.strides, &index.strides, &in_strides},
                    [&](auto off, int64_t n, auto st) {
      for (int64_t i = 0; i < n; ++i)
        o[off[0] + i * st[0]] = x[off[2] + i * st[2] + idx[off[1] + i * st[1]] * step];
    });
  });
}

// The transpose of gather: out[..., index[p], ...] += src[p] for every position p of index.
void Kernels::scatter_add(const KTensor& out, int64_t dim, const KTensor& index,
                          const KTensor& src) {
  std::vector<int64_t> out_strides = out.strides;
  const int64_t step = out_strides[size_t(dim)];
  out_strides[size_t(dim)] = 0;
  dispatch_dtype(out.dtype, [&](auto z) {
    using T = decltype(z);
    T* o = out.ptr<T>();
    const T* s = src.ptr<T>();
    const int64_t* idx = index.ptr<int64_t>();
    strided_rows<3>(index.shape, {&out_strides, &index.strides, &src.strides},
                    [&](auto off, int64_t n, auto st) {
      for (int64_t i = 0; i < n; ++i)
        o[off[0] + i * st[0] + idx[off[1] + i * st[1]] * step] += s[off[2] + i * st[2]];
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
