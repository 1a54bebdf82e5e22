// Fused scaled dot-product attention on the GPU, forward and backward: the math of
// tensor/cpu/attention.cpp, built from cuBLAS GEMMs over the heads and two row kernels.
//
// A head's matrices are [T, hs] slices of [*, T, hs] tensors. cuBLAS's strided-batched GEMM
// steps from head to head by one constant stride per operand, but the heads [*] are
// usually two dims ([B, NH]) whose strides do not collapse into one: q from split_heads is
// a transposed view of [B, T, NH, hs], so NH steps by hs and B by T·NH·hs. Heads (below)
// merges the leading dims wherever every operand allows it; the last merged dim becomes
// the GEMM's batch and the host loops over the rest (B calls of NH heads each, for GPT).
#include <cuda_runtime.h>

#include <vector>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

// How the heads [*] of one call are visited: merged leading dims (a dim merges into the one
// before it when, in every operand, the outer stride is the inner stride times the inner
// size; size-1 dims drop out). The last merged dim is cuBLAS's batch; the others are the
// host loop's groups.
struct Heads {
  std::vector<int> dims;       // each merged dim's innermost original dim (its stride)
  std::vector<int64_t> sizes;  // each merged dim's size
  int64_t batch = 1;           // heads per cuBLAS call
  int64_t groups = 1;          // cuBLAS calls

  // t's element step from one head of a batch to the next.
  int64_t batch_stride(const KTensor& t) const {
    return dims.empty() ? 0 : t.strides[size_t(dims.back())];
  }
  // t's element offset of group g's first head: g's index in each outer merged dim.
  int64_t offset(const KTensor& t, int64_t g) const {
    int64_t off = 0;
    for (int64_t d = int64_t(sizes.size()) - 2; d >= 0; --d) {
      off += (g % sizes[size_t(d)]) * t.strides[size_t(dims[size_t(d)])];
      g /= sizes[size_t(d)];
    }
    return off;
  }
};

// ts: every operand of the call, [*, rows, cols] with the same [*].
Heads plan_heads(const std::vector<const KTensor*>& ts) {
  const KTensor& first = *ts[0];
  Heads h;
  for (int d = 0; d + 2 < int(first.shape.size()); ++d) {
    const int64_t n = first.shape[size_t(d)];
    if (n == 1) continue;
    bool merge = !h.dims.empty();
    for (const KTensor* t : ts)
      merge = merge && t->strides[size_t(h.dims.back())] == t->strides[size_t(d)] * n;
    if (merge) {
      h.sizes.back() *= n;
      h.dims.back() = d;
    } else {
      h.sizes.push_back(n);
      h.dims.push_back(d);
    }
  }
  if (!h.sizes.empty()) h.batch = h.sizes.back();
  for (size_t i = 0; i + 1 < h.sizes.size(); ++i) h.groups *= h.sizes[i];
  return h;
}

// An input [*, R, C] as the GEMMs read it: the tensor itself, or a contiguous copy (freed
// with this) when its last two dims do not fit cuBLAS (a broadcast gradient, for one).
struct GemmInput {
  CudaBackend& be;
  KTensor t;
  void* temp = nullptr;
  size_t temp_bytes = 0;

  GemmInput(CudaBackend& backend, const KTensor& x) : be(backend), t(x) {
    const size_t nd = x.shape.size();
    if (blas_fits(x.shape[nd - 2], x.shape[nd - 1], x.strides[nd - 2], x.strides[nd - 1]))
      return;
    temp_bytes = size_t(x.numel()) * dtype_size(x.dtype);
    temp = be.allocate(temp_bytes);
    t.data = temp;
    t.strides = row_major_strides(x.shape);
    be.copy(t, x);
  }
  ~GemmInput() {
    if (temp) be.deallocate(temp, temp_bytes);  // stream order: the GEMMs queued first
  }
  GemmInput(const GemmInput&) = delete;
  GemmInput& operator=(const GemmInput&) = delete;
};

// One head's matrix of t: (row, column) strides of its last two dims, swapped to read the
// transpose.
struct Mat {
  const KTensor& t;
  int64_t rs, cs;
};
Mat plain(const KTensor& t) {
  const size_t nd = t.strides.size();
  return {t, t.strides[nd - 2], t.strides[nd - 1]};
}
Mat transposed(const KTensor& t) {
  const size_t nd = t.strides.size();
  return {t, t.strides[nd - 1], t.strides[nd - 2]};
}

// c [*, M, N] (unit column stride) = a [*, M, K] @ b [*, K, N] for every head: one cuBLAS
// call per group of h.batch heads. K = 0 is an empty sum: c = 0.
template <class T>
void gemm_heads(CudaBackend& be, const Heads& h, int64_t M, int64_t N, int64_t K, Mat a, Mat b,
                const KTensor& c) {
  if (K == 0) return be.fill(c, 0.0);
  const int64_t ldc = c.strides[c.strides.size() - 2];
  for (int64_t g = 0; g < h.groups; ++g)
    gemm_strided_batched<T>(h.batch, M, N, K, a.t.ptr<T>() + h.offset(a.t, g),
                            h.batch_stride(a.t), a.rs, a.cs, b.t.ptr<T>() + h.offset(b.t, g),
                            h.batch_stride(b.t), b.rs, b.cs, c.ptr<T>() + h.offset(c, g),
                            h.batch_stride(c), ldc);
}

// One block per row r of att [rows, Tk] (contiguous), holding S = q kᵀ of query
// i = r mod Tq; the row becomes P in place. Keys j < n are visible (n = i + 1 when causal,
// else Tk):
//   x_j = S_j · scale,  P_j = e^(x_j - m) / Σ_{j' < n} e^(x_j' - m),  m = max_{j < n} x_j,
//   P_j = 0 for j ≥ n (the masked keys, as exact zeros).
// Subtracting m keeps every exponent ≤ 0, so e^x cannot overflow. Each thread reads and
// writes only its own elements j ≡ threadIdx.x (mod blockDim.x), so in place is safe.
template <class T>
__global__ void attention_softmax_kernel(int64_t nrows, int64_t Tq, int64_t Tk, T scale,
                                         bool causal, T* att) {
  for (int64_t r = blockIdx.x; r < nrows; r += gridDim.x) {
    T* row = att + r * Tk;
    const int64_t i = r % Tq;
    const int64_t n = causal && i + 1 < Tk ? i + 1 : Tk;
    T m = -INFINITY;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) m = MaxOp()(m, row[j] * scale);
    m = block_reduce(m, MaxOp());
    T sum = 0;
    for (int64_t j = threadIdx.x; j < n; j += blockDim.x) sum += exp(row[j] * scale - m);
    sum = block_reduce(sum, SumOp());
    const T inv = T(1) / sum;
    for (int64_t j = threadIdx.x; j < Tk; j += blockDim.x)
      row[j] = j < n ? exp(row[j] * scale - m) * inv : T(0);
  }
}

// One block per row of dS [rows, Tk] (contiguous, holding dP = dout vᵀ) and P, the
// softmax backward in place, times the scale the scores were multiplied by:
//   dS_j = P_j (dP_j - Σ_j' dP_j' P_j') · scale
// Masked keys have P_j = 0, so their dS_j is 0 and they pass no gradient.
template <class T>
__global__ void attention_dscores_kernel(int64_t nrows, int64_t Tk, T scale, T* ds,
                                         const T* att) {
  for (int64_t r = blockIdx.x; r < nrows; r += gridDim.x) {
    T* d = ds + r * Tk;
    const T* p = att + r * Tk;
    T dot = 0;
    for (int64_t j = threadIdx.x; j < Tk; j += blockDim.x) dot += d[j] * p[j];
    dot = block_reduce(dot, SumOp());
    for (int64_t j = threadIdx.x; j < Tk; j += blockDim.x) d[j] = p[j] * (d[j] - dot) * scale;
  }
}

}  // namespace

// q [*, Tq, hs], k [*, Tk, hs], v [*, Tk, hv] (any strides) -> out [*, Tq, hv] (unit column
// stride), att [*, Tq, Tk] contiguous (the softmax weights, saved for backward):
//   S = q kᵀ · scale;  causal: S[i][j] = -inf for j > i;  P = softmax_rows(S);  out = P v.
// dropout_p is always 0 here: fused_dropout() is false, so ops/attention.cpp takes the
// composed path (softmax, dropout, matmul) when training with attention dropout. compute is
// always kFloat32 (the operands' own dtype): attention_computes() accepts no other, so under
// autocast the op runs this kernel's products unrounded.
void CudaBackend::attention(const KTensor& out, const KTensor& att, const KTensor& q,
                            const KTensor& k, const KTensor& v, double scale, bool causal,
                            double dropout_p, uint64_t /*dropout_key*/, DType compute) {
  ATTIC_CHECK(dropout_p == 0, "cuda attention: dropout inside the fused kernel is not "
              "implemented (got dropout_p = ", dropout_p, ")");
  ATTIC_CHECK(compute == DType::Float32, "cuda attention: products in ", dtype_name(compute),
              " are not implemented (float32 only)");
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  if (att.numel() == 0) return fill(out, 0.0);  // no heads, no queries, or no keys (sums of 0)
  const GemmInput gq(*this, q), gk(*this, k), gv(*this, v);
  const Heads h = plan_heads({&out, &att, &gq.t, &gk.t, &gv.t});
  const int64_t nrows = att.numel() / Tk;
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    // S = q kᵀ into att's memory: kᵀ is k read with its strides swapped
    gemm_heads<T>(*this, h, Tq, Tk, hs, plain(gq.t), transposed(gk.t), att);
    attention_softmax_kernel<T><<<int(std::min<int64_t>(nrows, 65535)), kReduceThreads>>>(
        nrows, Tq, Tk, T(scale), causal, att.ptr<T>());
    check_launch("attention_softmax_kernel");
    gemm_heads<T>(*this, h, Tq, hv, Tk, plain(att), plain(gv.t), out);  // out = P v
  });
}

// dq, dk, dv: shaped like q, k, v, unit column stride; dout [*, Tq, hv] any strides; att = P.
// The derivative of ops/attention.cpp (head comment, beside AttentionBackward), with
// the scale folded into dS:
//   dv = Pᵀ dout;  dP = dout vᵀ;  dS = P ⊙ (dP - rowsum(dP ⊙ P)) · scale;  dq = dS k;  dk = dSᵀ q.
// causal is not needed here: the masked entries' P = 0 gives their dS = 0, and cuBLAS forms
// the full products rather than skip triangles (the CPU kernel skips them).
void CudaBackend::attention_backward(const KTensor& dq, const KTensor& dk, const KTensor& dv,
                                     const KTensor& dout, const KTensor& q, const KTensor& k,
                                     const KTensor& v, const KTensor& att, double scale,
                                     bool /*causal*/, double dropout_p, uint64_t /*dropout_key*/,
                                     DType compute) {
  ATTIC_CHECK(dropout_p == 0, "cuda attention_backward: dropout inside the fused kernel is not "
              "implemented (got dropout_p = ", dropout_p, ")");
  ATTIC_CHECK(compute == DType::Float32, "cuda attention_backward: products in ",
              dtype_name(compute), " are not implemented (float32 only)");
  const int64_t Tq = q.shape[q.shape.size() - 2], hs = q.shape.back();
  const int64_t Tk = k.shape[k.shape.size() - 2], hv = v.shape.back();
  if (att.numel() == 0) {  // no heads (all empty), no queries or no keys (sums of 0)
    fill(dq, 0.0);
    fill(dk, 0.0);
    return fill(dv, 0.0);
  }
  const GemmInput gd(*this, dout), gq(*this, q), gk(*this, k), gv(*this, v);
  const Heads h = plan_heads({&dq, &dk, &dv, &gd.t, &gq.t, &gk.t, &gv.t, &att});
  const int64_t nrows = att.numel() / Tk;
  // dS [*, Tq, Tk]: a scratch tensor laid out like att (contiguous), so h fits it too
  KTensor ds = att;
  const size_t ds_bytes = size_t(att.numel()) * dtype_size(att.dtype);
  ds.data = allocate(ds_bytes);
  dispatch_floating(q.dtype, [&](auto z) {
    using T = decltype(z);
    gemm_heads<T>(*this, h, Tk, hv, Tq, transposed(att), plain(gd.t), dv);  // dv = Pᵀ dout
    gemm_heads<T>(*this, h, Tq, Tk, hv, plain(gd.t), transposed(gv.t), ds);  // dP = dout vᵀ
    attention_dscores_kernel<T><<<int(std::min<int64_t>(nrows, 65535)), kReduceThreads>>>(
        nrows, Tk, T(scale), ds.ptr<T>(), att.ptr<T>());
    check_launch("attention_dscores_kernel");
    gemm_heads<T>(*this, h, Tq, hs, Tk, plain(ds), plain(gk.t), dq);       // dq = dS k
    gemm_heads<T>(*this, h, Tk, hs, Tq, transposed(ds), plain(gq.t), dk);  // dk = dSᵀ q
  });
  deallocate(ds.data, ds_bytes);  // stream order: the kernels above run before any reuse
}

}  // namespace attic::cuda
