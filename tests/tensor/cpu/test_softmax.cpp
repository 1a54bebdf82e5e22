// The fused softmax / log_softmax kernel (tensor/cpu/softmax.cpp) and the ops' backward
// (ops/softmax.cpp) against their plain reference (tensor/cpu/softmax_naive.h).
#include "tests/catch.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "normal_values.h"
#include "tensor/backend.h"
#include "tensor/cpu/softmax_naive.h"
#include "tensor/cpu/thread_pool.h"
#include "ops/ops.h"

using namespace attic;
using attic::testing::normal_values;

namespace {

// N x C: one element; rows of a few elements, odd, or below a vector's width; more rows
// than one thread's chunk (32K elements); the GPT's vocabulary (65) and widths.
struct Dims {
  int64_t N, C;
};
const std::vector<Dims> kShapes = {{1, 1}, {1, 7}, {3, 5}, {5, 33}, {4, 65},
                                   {67, 17}, {130, 768}, {9, 1000}};

// How far apart two results may be, element by element, as a multiple of T's epsilon
// times the size of the terms that make them (C ε for a sum of C terms in T, in whatever
// order the vector width picks; a few ε for each rounding after it). Returns the number of
// elements outside it, and the worst |Δ| / bound in `worst`.
struct Tally {
  int64_t bad = 0;
  double worst = 0;
  void check(double got, double want, double bound) {
    const double err = std::abs(got - want);
    if (!(err <= bound)) ++bad;  // also counts NaN
    if (bound > 0) worst = std::max(worst, err / bound);
  }
};

// The kernel on x [N, C] with row stride `ld` (ld > C: a column slice of a wider matrix, so
// the strided path runs) against softmax_naive:
//   softmax:      |Δy_i| <= ε y_i (|x_i - m| + C + 8) + tiny  (x_i - m rounded, then e^, Σ, 1/Σ;
//                 tiny: T's smallest normal, as the kernel's e^ flushes what falls below it)
//   log_softmax:  |Δy_i| <= ε (|x_i - m| + |lse| + |y_i| + C + 8)
template <class T>
void check_forward(Dims d, int64_t ld, double offset, double scale, bool log) {
  const int64_t N = d.N, C = d.C;
  const double e = std::numeric_limits<T>::epsilon(), tiny = std::numeric_limits<T>::min();
  std::mt19937 rng(uint32_t(N * 1009 + C * 7 + ld));
  std::vector<T> x = normal_values<T>(N * ld, offset, scale, rng);
  std::vector<T> dense(static_cast<size_t>(N * C));
  for (int64_t n = 0; n < N; ++n)
    for (int64_t i = 0; i < C; ++i) dense[size_t(n * C + i)] = x[size_t(n * ld + i)];
  std::vector<T> y(static_cast<size_t>(N * C)), ref(static_cast<size_t>(N * C));
  const DType dt = std::is_same_v<T, float> ? kFloat32 : kFloat64;
  backend_for(Device::CPU).softmax(KTensor{y.data(), dt, {N, C}, {C, 1}},
                                   KTensor{x.data(), dt, {N, C}, {ld, 1}}, log);
  cpu::softmax_naive(N, C, dense.data(), ref.data(), log);

  Tally t;
  for (int64_t n = 0; n < N; ++n) {
    double m = -INFINITY, s = 0;
    // (a comparison, not std::fmax: see softmax_naive)
    for (int64_t i = 0; i < C; ++i)
      if (double(dense[size_t(n * C + i)]) > m) m = double(dense[size_t(n * C + i)]);
    for (int64_t i = 0; i < C; ++i) s += std::exp(double(dense[size_t(n * C + i)]) - m);
    for (int64_t i = 0; i < C; ++i) {
      const size_t at = size_t(n * C + i);
      const double dm = std::abs(double(dense[at]) - m), r = double(ref[at]);
      t.check(y[at], r, log ? e * (dm + std::abs(std::log(s)) + std::abs(r) + double(C + 8))
                            : e * r * (dm + double(C + 8)) + tiny);
    }
  }
  INFO("N=" << N << " C=" << C << " ld=" << ld << " offset=" << offset << " scale=" << scale
            << " log=" << log << " threads=" << num_threads() << " worst |error| / bound "
            << t.worst);
  CHECK(t.bad == 0);
}

// The ops' backward (SoftmaxBackward, LogSoftmaxBackward: public ops) against
// softmax_backward_naive on the same y:
//   softmax:      |Δdx_i| <= ε |y_i| (4 (|g_i| + |s|) + (C + 4) Σ_j |g_j y_j|),  s = Σ_j g_j y_j
//   log_softmax:  |Δdx_i| <= ε (4 |g_i| + e^(y_i) (4 |s| + (C + 4) Σ_j |g_j|)),   s = Σ_j g_j
template <class T>
void check_backward(Dims d, double offset, double scale, bool log) {
  const int64_t N = d.N, C = d.C;
  const double e = std::numeric_limits<T>::epsilon();
  std::mt19937 rng(uint32_t(N * 31 + C * 17));
  const std::vector<T> xv = normal_values<T>(N * C, offset, scale, rng);
  const std::vector<T> gv = normal_values<T>(N * C, 0, 1, rng);
  Tensor x = from_vector(xv, {N, C}).requires_grad_();
  Tensor y = log ? log_softmax(x, -1) : softmax(x, -1);
  y.backward(from_vector(gv, {N, C}));
  const std::vector<T> yv = y.detach().contiguous().template to_vector<T>();
  const std::vector<T> dx = x.grad().contiguous().template to_vector<T>();
  std::vector<T> ref(static_cast<size_t>(N * C));
  cpu::softmax_backward_naive(N, C, yv.data(), gv.data(), ref.data(), log);

  Tally t;
  for (int64_t n = 0; n < N; ++n) {
    double s = 0, s_abs = 0;
    for (int64_t i = 0; i < C; ++i) {
      const size_t at = size_t(n * C + i);
      const double term = log ? double(gv[at]) : double(gv[at]) * double(yv[at]);
      s += term;
      s_abs += std::abs(term);
    }
    for (int64_t i = 0; i < C; ++i) {
      const size_t at = size_t(n * C + i);
      const double g = std::abs(double(gv[at])), yi = double(yv[at]);
      t.check(dx[at], ref[at],
              log ? e * (4 * g + std::exp(yi) * (4 * std::abs(s) + double(C + 4) * s_abs))
                  : e * std::abs(yi) * (4 * (g + std::abs(s)) + double(C + 4) * s_abs));
    }
  }
  INFO("N=" << N << " C=" << C << " offset=" << offset << " scale=" << scale
            << " log=" << log << " worst |error| / bound " << t.worst);
  CHECK(t.bad == 0);
}

// Rows of N(0, 1); of a large mean (x - m must not lose what the mean shares); of a wide
// spread (most e^(x - m) vanish next to the largest).
const double kRows[][2] = {{0.0, 1.0}, {50.0, 3.0}, {1e4, 1.0}, {0.0, 20.0}};

template <class T>
void check_all() {
  const int saved = num_threads();
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (Dims d : kShapes)
      for (const auto& r : kRows)
        for (bool log : {false, true}) {
          check_forward<T>(d, d.C, r[0], r[1], log);
          check_forward<T>(d, d.C + 3, r[0], r[1], log);
          check_backward<T>(d, r[0], r[1], log);
        }
  }
  set_num_threads(saved);
}

}  // namespace

TEST_CASE("softmax kernel and backward: match softmax_naive, float", "[cpu][softmax]") {
  check_all<float>();
}

TEST_CASE("softmax kernel and backward: match softmax_naive, double", "[cpu][softmax]") {
  check_all<double>();
}

TEST_CASE("softmax_naive: a row worked by hand", "[cpu][softmax]") {
  // x = 0, log 3: e^x = 1, 3, so softmax = 1/4, 3/4 and log_softmax = log 1/4, log 3/4.
  const double x[] = {0.0, std::log(3.0)};
  double y[2], ly[2];
  cpu::softmax_naive<double>(1, 2, x, y, false);
  cpu::softmax_naive<double>(1, 2, x, ly, true);
  CHECK(y[0] == Approx(0.25).epsilon(1e-15));
  CHECK(y[1] == Approx(0.75).epsilon(1e-15));
  CHECK(ly[0] == Approx(std::log(0.25)).epsilon(1e-15));
  CHECK(ly[1] == Approx(std::log(0.75)).epsilon(1e-15));
  // dy = 1, 0: Σ dy y = 1/4, dx = y (dy - 1/4) = (1/4 · 3/4, 3/4 · (-1/4)) = (3/16, -3/16);
  // log: Σ dy = 1, dx = dy - e^y = (1 - 1/4, 0 - 3/4) = (3/4, -3/4).
  const double g[] = {1.0, 0.0};
  double dx[2], ldx[2];
  cpu::softmax_backward_naive<double>(1, 2, y, g, dx, false);
  cpu::softmax_backward_naive<double>(1, 2, ly, g, ldx, true);
  CHECK(dx[0] == Approx(3.0 / 16).epsilon(1e-15));
  CHECK(dx[1] == Approx(-3.0 / 16).epsilon(1e-15));
  CHECK(ldx[0] == Approx(0.75).epsilon(1e-15));
  CHECK(ldx[1] == Approx(-0.75).epsilon(1e-15));
}
