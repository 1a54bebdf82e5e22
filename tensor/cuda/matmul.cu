// Batched matmul on the GPU: cuBLAS's strided-batched GEMM, or the tiled kernel.
//
// cuBLAS wants each operand as one column-major matrix per batch element, the batch
// elements one constant stride apart. attic's operands are row-major views with any
// strides; a view that fits (a transpose is a column-major matrix) goes in as it is, and
// one that does not (a broadcast row, a permuted batch) is first copied to a contiguous one.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <atomic>
#include <climits>
#include <optional>

#include "tensor/cuda/cuda_backend.h"
#include "tensor/cuda/launch.cuh"

namespace attic::cuda {

namespace {

std::atomic<MatmulImpl> g_impl{MatmulImpl::CuBlas};

void check_cublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) fail("cuda: ", what, " failed: cuBLAS status ", int(s));
}

// One handle for the process, made on first use; never destroyed (see backend_for).
cublasHandle_t handle() {
  static cublasHandle_t h = [] {
    cublasHandle_t made = nullptr;
    check_cublas(cublasCreate(&made), "cublasCreate");
    return made;
  }();
  return h;
}

// The one stride s with offset(batch element b) = b·s over this batch shape, if there is
// one: every dim of size > 1 must step by s times the elements after it (s = 0: broadcast).
std::optional<int64_t> batch_stride(const std::vector<int64_t>& shape,
                                    const std::vector<int64_t>& strides) {
  std::optional<int64_t> s;
  int64_t after = 1;
  for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
    if (shape[size_t(d)] == 1) continue;
    if (!s) s = strides[size_t(d)] / after;
    if (strides[size_t(d)] != *s * after) return std::nullopt;
    after *= shape[size_t(d)];
  }
  return s.value_or(0);
}

// An R x C matrix at (rs, cs) as cuBLAS sees it: row-major (cs = 1) or column-major (rs = 1)
// with a leading dimension ld that is at least the row length. False when it is neither.
bool blas_layout(int64_t R, int64_t C, int64_t rs, int64_t cs, bool& row_major, int64_t& ld) {
  if ((C == 1 || cs == 1) && (R == 1 || rs >= C)) {
    row_major = true;
    ld = R == 1 ? C : rs;
  } else if ((R == 1 || rs == 1) && (C == 1 || cs >= R)) {
    row_major = false;
    ld = C == 1 ? R : cs;
  } else {
    return false;
  }
  return ld <= INT_MAX;
}

// An operand [batch..., R, C] as (data, batch stride, row stride, column stride); copied to
// a contiguous temporary (freed with the Operand) when its strides do not fit.
struct Operand {
  CudaBackend& be;
  const char* data = nullptr;
  int64_t bs = 0, rs = 0, cs = 0;
  bool row_major = true;
  int64_t ld = 0;
  void* temp = nullptr;
  size_t temp_bytes = 0;

  Operand(CudaBackend& backend, const KTensor& t) : be(backend) {
    const size_t nd = t.shape.size();
    const int64_t R = t.shape[nd - 2], C = t.shape[nd - 1];
    const std::vector<int64_t> bshape(t.shape.begin(), t.shape.end() - 2);
    const std::vector<int64_t> bstrides(t.strides.begin(), t.strides.end() - 2);
    const std::optional<int64_t> b = batch_stride(bshape, bstrides);
    rs = t.strides[nd - 2];
    cs = t.strides[nd - 1];
    data = static_cast<const char*>(t.data);
    if (b && blas_layout(R, C, rs, cs, row_major, ld)) {
      bs = *b;
      return;
    }
    KTensor c = t;
    c.strides = contiguous(t.shape);
    temp_bytes = size_t(t.numel()) * dtype_size(t.dtype);
    temp = be.allocate(temp_bytes);
    c.data = temp;
    be.copy(c, t);
    data = static_cast<const char*>(temp);
    bs = R * C;
    rs = C;
    cs = 1;
    row_major = true;
    ld = std::max<int64_t>(C, 1);
  }
  ~Operand() {
    if (temp) be.deallocate(temp, temp_bytes);
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;

  static std::vector<int64_t> contiguous(const std::vector<int64_t>& shape) {
    std::vector<int64_t> s(shape.size());
    int64_t acc = 1;
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      s[size_t(d)] = acc;
      acc *= shape[size_t(d)];
    }
    return s;
  }
};

// Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ: cuBLAS computes the transpose with the
// operands swapped, and a row-major operand is already its own transpose in column-major
// eyes, so it goes in untransposed (op N); a column-major one goes in with op T.
template <class T>
void gemm_batched(int64_t batch, int64_t M, int64_t N, int64_t K, const Operand& a,
                  const Operand& b, T* c) {
  const T one = 1, zero = 0;
  const cublasOperation_t opb = b.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t opa = a.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const auto* pa = reinterpret_cast<const T*>(a.data);
  const auto* pb = reinterpret_cast<const T*>(b.data);
  if constexpr (sizeof(T) == 4) {
    check_cublas(cublasSgemmStridedBatched(handle(), opb, opa, int(N), int(M), int(K), &one, pb,
                                           int(b.ld), b.bs, pa, int(a.ld), a.bs, &zero, c,
                                           int(N), M * N, int(batch)),
                 "cublasSgemmStridedBatched");
  } else {
    check_cublas(cublasDgemmStridedBatched(handle(), opb, opa, int(N), int(M), int(K), &one, pb,
                                           int(b.ld), b.bs, pa, int(a.ld), a.bs, &zero, c,
                                           int(N), M * N, int(batch)),
                 "cublasDgemmStridedBatched");
  }
}

}  // namespace

void set_matmul_impl(MatmulImpl impl) { g_impl = impl; }
MatmulImpl matmul_impl() { return g_impl; }

// out [..., M, N] = a [..., M, K] @ b [..., K, N]; batch dims already match out's
// (stride 0 where broadcast); out is contiguous.
void CudaBackend::matmul(const KTensor& out, const KTensor& a, const KTensor& b) {
  const size_t nd = out.shape.size();
  const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
  const int64_t batch = M * N == 0 ? 0 : out.numel() / (M * N);
  if (batch == 0) return;
  if (K == 0) return fill(out, 0.0);  // an empty sum
  ATTIC_CHECK(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX && batch <= INT_MAX, "matmul: ",
              str(a.shape), " @ ", str(b.shape), " is too large for one cuBLAS call");
  const Operand oa(*this, a), ob(*this, b);
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    if (g_impl == MatmulImpl::Tiled)
      matmul_tiled<T>(batch, M, N, K, reinterpret_cast<const T*>(oa.data), oa.bs, oa.rs, oa.cs,
                      reinterpret_cast<const T*>(ob.data), ob.bs, ob.rs, ob.cs, out.ptr<T>());
    else
      gemm_batched<T>(batch, M, N, K, oa, ob, out.ptr<T>());
  });
}

}  // namespace attic::cuda
