// The CPU prefix softmax (tensor/cpu/prefix_softmax.cpp) against prefix_softmax_naive and
// prefix_softmax_backward_naive (each row's softmax written out), in float and double, on
// contiguous operands and on the strided views ELiTA's attention passes (s, d, r with N a
// stride of 3H, v the head view of [B, N, H·A]), with logits up to ±60; its results the
// same bits at 1, 2 and 3 threads.
#include "tests/catch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/prefix_softmax.h"
#include "tensor/tensor.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

KTensor kernel_view(const Tensor& t) {
  KTensor k;
  k.data = t.dtype() == kFloat64 ? static_cast<void*>(t.data_ptr<double>()) : static_cast<void*>(t.data_ptr<float>());
  k.dtype = t.dtype();
  k.shape = t.shape();
  k.strides = t.strides();
  return k;
}

template <class T>
std::vector<T> dense(const Tensor& t) {
  return t.contiguous().to_vector<T>();
}

template <class T>
double worst_relative_gap(const std::vector<T>& got, const std::vector<T>& want) {
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i)
    worst = std::max(worst, std::abs(double(got[i]) - double(want[i])) / (1.0 + std::abs(double(want[i]))));
  return worst;
}

template <class T>
void check_against_naive(DType dt, int64_t B, int64_t H, int64_t N, int64_t A, bool strided,
                         double scale) {
  INFO(dtype_name(dt) << " B " << B << " H " << H << " N " << N << " A " << A
                      << (strided ? " strided" : " contiguous") << " logits x" << scale);
  // s, d, r: contiguous, or the narrowed transposes of one [B, N, 3H] as ELiTA makes them
  Tensor s, d, r, v;
  if (strided) {
    const Tensor kx = (randn({B, N, 3 * H}, dt) * scale).transpose(1, 2);
    s = kx.narrow(1, 0, H), d = kx.narrow(1, H, H), r = kx.narrow(1, 2 * H, H);
    v = randn({B, N, H * A}, dt).view({B, N, H, A}).transpose(1, 2);
  } else {
    s = randn({B, H, N}, dt) * scale, d = randn({B, H, N}, dt) * scale;
    r = randn({B, H, N}, dt) * scale, v = randn({B, H, N, A}, dt);
  }
  const Tensor g = randn({B, H, N, A}, dt);
  const int64_t L = B * H;
  std::vector<T> y_ref(size_t(L * N * A)), ds_ref(size_t(L * N)), dd_ref(size_t(L * N)),
      dr_ref(size_t(L * N)), dv_ref(size_t(L * N * A));
  const std::vector<T> sv = dense<T>(s), dv_ = dense<T>(d), rv = dense<T>(r), vv = dense<T>(v),
                       gv = dense<T>(g);
  cpu::prefix_softmax_naive<T>(L, N, A, sv.data(), dv_.data(), rv.data(), vv.data(), y_ref.data());
  cpu::prefix_softmax_backward_naive<T>(L, N, A, gv.data(), sv.data(), dv_.data(), rv.data(),
                                        vv.data(), ds_ref.data(), dd_ref.data(), dr_ref.data(),
                                        dv_ref.data());
  // Both sides are scans over the N prefixes, each step rounding in T, in different orders:
  // their gap can grow with N, by a few eps a step (two roundings a step where the CPU has no
  // FMA, as at the x86-64 baseline level). float32: 4 N eps_f32, at least 2e-5 (6.2e-5 at
  // N = 130, where the baseline level measured 2.2e-5).
  const double eps = std::numeric_limits<float>::epsilon();
  const double tol = dt == kFloat32 ? std::max(2e-5, 4.0 * double(N) * eps) : 1e-12;
  Backend& cpu = backend_for(Device::CPU);
  const int saved = num_threads();
  std::vector<std::vector<T>> first;
  for (const int threads : {1, 2, 3}) {
    set_num_threads(threads);
    INFO(threads << " threads");
    const Tensor y = empty({B, H, N, A}, dt), m = empty({B, H, N}, dt), a = empty({B, H, N}, dt),
                 b = empty({B, H, N}, dt);
    cpu.prefix_softmax(kernel_view(y), kernel_view(m), kernel_view(a), kernel_view(b),
                       kernel_view(s), kernel_view(d), kernel_view(r), kernel_view(v));
    const Tensor ds = empty({B, H, N}, dt), dd = empty({B, H, N}, dt), dr = empty({B, H, N}, dt),
                 dv = empty({B, H, N, A}, dt);
    cpu.prefix_softmax_backward(kernel_view(ds), kernel_view(dd), kernel_view(dr),
                                kernel_view(dv), kernel_view(g), kernel_view(s), kernel_view(v),
                                kernel_view(y), kernel_view(m), kernel_view(a), kernel_view(b));
    const std::vector<std::vector<T>> got = {dense<T>(y), dense<T>(ds), dense<T>(dd),
                                             dense<T>(dr), dense<T>(dv)};
    const std::vector<std::vector<T>> want = {y_ref, ds_ref, dd_ref, dr_ref, dv_ref};
    const char* names[] = {"y", "ds", "dd", "dr", "dv"};
    for (size_t i = 0; i < got.size(); ++i) {
      INFO(names[i]);
      CHECK(worst_relative_gap(got[i], want[i]) < tol);
    }
    // m is the running maximum of s
    const std::vector<T> mv = dense<T>(m);
    bool running = true;
    for (int64_t l = 0; l < L; ++l) {
      T run = sv[size_t(l * N)];
      for (int64_t i = 0; i < N; ++i) running = running && mv[size_t(l * N + i)] == (run = std::max(run, sv[size_t(l * N + i)]));
    }
    CHECK(running);
    if (threads == 1) first = got;
    else CHECK(got == first);
  }
  set_num_threads(saved);
}

}  // namespace

TEST_CASE("CPU prefix_softmax and its backward equal the naive softmax rows",
          "[cpu][prefix_softmax]") {
  manual_seed(3);
  struct Dims {
    int64_t B, H, N, A;
  };
  for (const Dims x : {Dims{1, 1, 1, 1}, Dims{1, 2, 5, 3}, Dims{2, 3, 40, 9}, Dims{1, 4, 130, 32}})
    for (const bool strided : {false, true})
      for (const double scale : {1.0, 60.0}) {
        check_against_naive<float>(kFloat32, x.B, x.H, x.N, x.A, strided, scale);
        check_against_naive<double>(kFloat64, x.B, x.H, x.N, x.A, strided, scale);
      }
}
