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
    ld = R == 1 ? std::max<int64_t>(C, 1) : rs;
  } else if ((R == 1 || rs == 1) && (C == 1 || cs >= R)) {
    row_major = false;
    ld = C == 1 ? std::max<int64_t>(R, 1) : cs;
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
    if (b && blas_fits(R, C, rs, cs)) {
      bs = *b;
      return;
    }
    KTensor c = t;
    c.strides = row_major_strides(t.shape);
    temp_bytes = size_t(t.numel()) * dtype_size(t.dtype);
    temp = be.allocate(temp_bytes);
    c.data = temp;
    be.copy(c, t);
    data = static_cast<const char*>(temp);
    bs = R * C;
    rs = C;
    cs = 1;
  }
  ~Operand() {
    if (temp) be.deallocate(temp, temp_bytes);
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
};

}  // namespace

bool blas_fits(int64_t R, int64_t C, int64_t rs, int64_t cs) {
  bool row_major = true;
  int64_t ld = 0;
  return blas_layout(R, C, rs, cs, row_major, ld);
}

// C(z) [M, N] = A(z) [M, K] @ B(z) [K, N] for z < batch, one cuBLAS call.
// Row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ: cuBLAS computes the transpose with the
// operands swapped, and a row-major operand is already its own transpose in column-major
// eyes, so it goes in untransposed (op N); a column-major one goes in with op T.
template <class T>
void gemm_strided_batched(int64_t batch, int64_t M, int64_t N, int64_t K, const T* A,
                          int64_t bsa, int64_t rsa, int64_t csa, const T* B, int64_t bsb,
                          int64_t rsb, int64_t csb, T* C, int64_t bsc, int64_t ldc) {
  if (batch == 0 || M == 0 || N == 0) return;
  bool a_row = true, b_row = true;
  int64_t lda = 0, ldb = 0;
  ATTIC_CHECK(K > 0, "gemm_strided_batched: K = 0; the caller fills C with zeros instead");
  ATTIC_CHECK(blas_layout(M, K, rsa, csa, a_row, lda) &&
                  blas_layout(K, N, rsb, csb, b_row, ldb) && (M == 1 || ldc >= N),
              "gemm_strided_batched: operands [", M, ", ", K, "] at strides (", rsa, ", ", csa,
              ") and [", K, ", ", N, "] at (", rsb, ", ", csb, ") do not fit cuBLAS");
  ATTIC_CHECK(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX && batch <= INT_MAX && ldc <= INT_MAX,
              "gemm_strided_batched: [", batch, ", ", M, ", ", K, "] @ [", K, ", ", N,
              "] is too large for one cuBLAS call");
  if (M == 1) ldc = N;  // C's one row: its stride is never used, but cuBLAS wants ldc >= N
  const T one = 1, zero = 0;
  const cublasOperation_t opb = b_row ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t opa = a_row ? CUBLAS_OP_N : CUBLAS_OP_T;
  if constexpr (sizeof(T) == 4) {
    check_cublas(cublasSgemmStridedBatched(handle(), opb, opa, int(N), int(M), int(K), &one, B,
                                           int(ldb), bsb, A, int(lda), bsa, &zero, C, int(ldc),
                                           bsc, int(batch)),
                 "cublasSgemmStridedBatched");
  } else {
    check_cublas(cublasDgemmStridedBatched(handle(), opb, opa, int(N), int(M), int(K), &one, B,
                                           int(ldb), bsb, A, int(lda), bsa, &zero, C, int(ldc),
                                           bsc, int(batch)),
                 "cublasDgemmStridedBatched");
  }
}

template void gemm_strided_batched<float>(int64_t, int64_t, int64_t, int64_t, const float*,
                                          int64_t, int64_t, int64_t, const float*, int64_t,
                                          int64_t, int64_t, float*, int64_t, int64_t);
template void gemm_strided_batched<double>(int64_t, int64_t, int64_t, int64_t, const double*,
                                           int64_t, int64_t, int64_t, const double*, int64_t,
                                           int64_t, int64_t, double*, int64_t, int64_t);

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
      gemm_strided_batched<T>(batch, M, N, K, reinterpret_cast<const T*>(oa.data), oa.bs, oa.rs,
                              oa.cs, reinterpret_cast<const T*>(ob.data), ob.bs, ob.rs, ob.cs,
                              out.ptr<T>(), M * N, N);
  });
}

// out [..., M, N] (float32) = a @ b with a and b rounded to `compute` (bfloat16 or float16)
// and summed in float32 on the tensor cores: cublasGemmStridedBatchedEx with 16-bit inputs,
// a float32 output and CUBLAS_COMPUTE_32F. A float32 operand is first rounded into a
// temporary of the compute dtype (copy() converts, to nearest even); one already of that dtype
// goes in as it lies, when its strides fit (Operand).
void CudaBackend::matmul_reduced(const KTensor& out, const KTensor& a, const KTensor& b,
                                 DType compute) {
  ATTIC_CHECK(compute == DType::BFloat16 || compute == DType::Float16,
              "matmul: reduced-precision products run in bfloat16 or float16, not ",
              dtype_name(compute));
  const size_t nd = out.shape.size();
  const int64_t M = out.shape[nd - 2], N = out.shape[nd - 1], K = a.shape[nd - 1];
  const int64_t batch = M * N == 0 ? 0 : out.numel() / (M * N);
  if (batch == 0) return;
  if (K == 0) return fill(out, 0.0);
  ATTIC_CHECK(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX && batch <= INT_MAX, "matmul: ",
              str(a.shape), " @ ", str(b.shape), " is too large for one cuBLAS call");
  // An operand in the compute dtype: t itself, or t rounded into a contiguous temporary.
  struct Rounded {
    CudaBackend& be;
    KTensor t;
    void* temp = nullptr;
    size_t bytes = 0;
    Rounded(CudaBackend& backend, const KTensor& in, DType dt) : be(backend), t(in) {
      if (in.dtype == dt) return;
      bytes = size_t(in.numel()) * dtype_size(dt);
      temp = be.allocate(bytes);
      t.data = temp;
      t.dtype = dt;
      t.strides = row_major_strides(in.shape);
      be.copy(t, in);
    }
    ~Rounded() {
      if (temp) be.deallocate(temp, bytes);
    }
    Rounded(const Rounded&) = delete;
    Rounded& operator=(const Rounded&) = delete;
  };
  const Rounded ra(*this, a, compute), rb(*this, b, compute);
  const Operand oa(*this, ra.t), ob(*this, rb.t);
  const int64_t rsa = oa.rs, csa = oa.cs, rsb = ob.rs, csb = ob.cs;
  bool a_row = true, b_row = true;
  int64_t lda = 0, ldb = 0;
  ATTIC_CHECK(blas_layout(M, K, rsa, csa, a_row, lda) && blas_layout(K, N, rsb, csb, b_row, ldb),
              "matmul: 16-bit operands at strides (", rsa, ", ", csa, ") and (", rsb, ", ",
              csb, ") do not fit cuBLAS");
  const cudaDataType_t in_type = compute == DType::BFloat16 ? CUDA_R_16BF : CUDA_R_16F;
  const float one = 1, zero = 0;
  // As gemm_strided_batched: row-major C = A B is column-major Cᵀ = Bᵀ Aᵀ.
  check_cublas(cublasGemmStridedBatchedEx(
                   handle(), b_row ? CUBLAS_OP_N : CUBLAS_OP_T, a_row ? CUBLAS_OP_N : CUBLAS_OP_T,
                   int(N), int(M), int(K), &one, ob.data, in_type, int(ldb), ob.bs, oa.data,
                   in_type, int(lda), oa.bs, &zero, out.data, CUDA_R_32F, int(N), M * N,
                   int(batch), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmStridedBatchedEx");
}

}  // namespace attic::cuda
