// The fused LayerNorm kernels (tensor/cpu/layer_norm.cpp) against their plain reference
// (tensor/cpu/layer_norm_naive.h), called through the CPU backend on raw buffers.
#include "tests/catch.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "normal_values.h"
#include "tensor/backend.h"
#include "tensor/cpu/layer_norm_naive.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;
using attic::testing::normal_values;

namespace {

// Rows of N x C: one row; rows not a multiple of the kernel's groups of 4 (and C odd, or
// below a vector's width); more rows than one block of 64; the GPT's width; a C above the
// 1024 whose rows of norm the backward keeps on the stack.
struct Dims {
  int64_t N, C;
};
const std::vector<Dims> kShapes = {{1, 1}, {1, 7}, {3, 5}, {5, 33}, {6, 64}, {67, 17},
                                   {130, 768}, {9, 1000}, {70, 1030}};

// The kernel's view of v as a row-major tensor of this shape.
template <class T>
KTensor kt(std::vector<T>& v, std::vector<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[size_t(d)] = strides[size_t(d + 1)] * shape[size_t(d + 1)];
  return KTensor{v.data(), std::is_same_v<T, float> ? kFloat32 : kFloat64, std::move(shape),
                 std::move(strides)};
}

// The fused forward and backward against the naive ones, on rows of mean `offset` and
// spread `scale`, with weight and bias (or without). Each element must agree within a small
// multiple of T's epsilon ε times the size of the terms that make it:
//   rstd: |Δ| <= (4 ε + ε_s) rstd, ε_s = 2 C ε_double: the variance is a sum of C terms in
//         double (in both, in different orders);
//   out:  |Δ| <= 8 ε (|norm · w| + |b|) + |w| (ε_s |norm| + δ): norm is formed to a few ulp
//         (x - mean split into hi + lo), then scaled and shifted once;
//   dx:   |Δ| <= rstd (ε (8 |dnorm_i| + (C + 8) (mean|dnorm| + |norm_i| mean|dnorm · norm|))
//                      + ε_s (|dnorm_i| + mean|dnorm| + |norm_i| mean|dnorm · norm|)
//                      + δ (mean|dnorm · norm| + |norm_i| mean|dnorm|)):
//         the two row sums are in T, in an order the vector width picks, so their error is
//         bounded by C ε times the sum of their terms' sizes;
//   dw, db: |Δ| <= ε' Σ_rows |dout · norm| + Σ_rows |dout| δ (resp. ε' Σ_rows |dout|),
//         ε' = 8 ε + 2 N ε_double: column sums of N terms in double.
// δ = ε_s mean|x| rstd bounds how far norm moves with the error of the row mean, a sum of
// C values in double too. The ε_s terms are nothing next to float's ε, but in double they
// are the largest, and δ is huge once the mean is large next to the spread.
// A norm formed from a mean rounded to T would miss by 0.5 ulp(mean) · rstd, far outside
// these bounds in float.
template <class T>
void check_against_naive(Dims d, double offset, double scale, bool affine) {
  const int64_t N = d.N, C = d.C;
  const double eps_ln = 1e-5, e = std::numeric_limits<T>::epsilon();
  std::mt19937 rng(uint32_t(N * 1009 + C * 7 + int64_t(offset)));
  std::vector<T> x = normal_values<T>(N * C, offset, scale, rng);
  std::vector<T> g = normal_values<T>(N * C, 0, 1, rng), w = normal_values<T>(C, 1, 0.5, rng),
                 b = normal_values<T>(C, 0, 0.5, rng);
  const T* pw = affine ? w.data() : nullptr;
  const T* pb = affine ? b.data() : nullptr;

  const auto rows = static_cast<size_t>(N), cols = static_cast<size_t>(C), all = rows * cols;
  std::vector<T> out(all), mean(rows), rstd(rows), ref(all), ref_mean(rows), ref_rstd(rows);
  KTensor none;
  backend_for(Device::CPU).layer_norm(kt(out, {N, C}), kt(mean, {N}), kt(rstd, {N}),
                                      kt(x, {N, C}), affine ? kt(w, {C}) : none,
                                      affine ? kt(b, {C}) : none, eps_ln);
  cpu::layer_norm_naive(N, C, x.data(), pw, pb, eps_ln, ref.data(), ref_mean.data(),
                        ref_rstd.data());

  std::vector<T> dx(all), dw(cols), db(cols), ref_dx(all), ref_dw(cols), ref_db(cols);
  backend_for(Device::CPU).layer_norm_backward(kt(dx, {N, C}), kt(dw, {C}), kt(db, {C}),
                                               kt(g, {N, C}), kt(x, {N, C}), kt(rstd, {N}),
                                               affine ? kt(w, {C}) : none);
  cpu::layer_norm_backward_naive(N, C, g.data(), x.data(), pw, eps_ln, ref_dx.data(),
                                 ref_dw.data(), ref_db.data());

  int64_t bad = 0;
  double worst = 0;  // the largest |Δ| / bound seen, and where, for the message
  const char* worst_in = "";
  auto check = [&](const char* what, double got, double want, double bound) {
    const double err = std::abs(got - want);
    if (!(err <= bound)) ++bad;  // also counts NaN
    if (bound > 0 && err / bound > worst) {
      worst = err / bound;
      worst_in = what;
    }
  };
  const double e_sum = 2 * double(C) * std::numeric_limits<double>::epsilon();
  std::vector<double> sw(cols, 0.0), sb(cols, 0.0), sw_shift(cols, 0.0);
  for (int64_t n = 0; n < N; ++n) {
    const T* row = x.data() + n * C;
    const double r = double(ref_rstd[size_t(n)]);
    double m = 0, mean_abs = 0, mean_dn = 0, mean_dn_norm = 0;
    for (int64_t i = 0; i < C; ++i) m += double(row[i]) / double(C);
    for (int64_t i = 0; i < C; ++i) mean_abs += std::abs(double(row[i])) / double(C);
    const double delta = e_sum * mean_abs * r;  // δ: how far norm may move with the mean
    check("mean", mean[size_t(n)], ref_mean[size_t(n)], 2 * e * std::abs(m) + e_sum * mean_abs);
    check("rstd", rstd[size_t(n)], r, (4 * e + e_sum) * r);
    std::vector<double> norm(cols), dn(cols);
    for (int64_t i = 0; i < C; ++i) {
      const size_t at = size_t(n * C + i), c = size_t(i);
      const double wi = affine ? double(w[c]) : 1.0, bi = affine ? double(b[c]) : 0.0;
      const double gi = double(g[at]);
      norm[c] = (double(row[i]) - m) * r;
      dn[c] = gi * wi;
      mean_dn += std::abs(dn[c]) / double(C);
      mean_dn_norm += std::abs(dn[c] * norm[c]) / double(C);
      sw[c] += std::abs(gi * norm[c]);
      sw_shift[c] += std::abs(gi) * delta;
      sb[c] += std::abs(gi);
      check("out", out[at], ref[at],
            8 * e * (std::abs(norm[c] * wi) + std::abs(bi)) +
                std::abs(wi) * (e_sum * std::abs(norm[c]) + delta));
    }
    for (int64_t i = 0; i < C; ++i) {
      const size_t at = size_t(n * C + i), c = size_t(i);
      const double an = std::abs(norm[c]);
      check("dx", dx[at], ref_dx[at],
            r * (e * (8 * std::abs(dn[c]) + double(C + 8) * (mean_dn + an * mean_dn_norm)) +
                 e_sum * (std::abs(dn[c]) + mean_dn + an * mean_dn_norm) +
                 delta * (mean_dn_norm + an * mean_dn)));
    }
  }
  const double e_col = 8 * e + 2 * double(N) * std::numeric_limits<double>::epsilon();
  for (size_t c = 0; c < cols; ++c) {
    check("dw", dw[c], ref_dw[c], e_col * sw[c] + sw_shift[c]);
    check("db", db[c], ref_db[c], e_col * sb[c]);
  }
  INFO("N=" << N << " C=" << C << " offset=" << offset << " scale=" << scale
            << " affine=" << affine << " threads=" << num_threads()
            << " worst |error| / bound " << worst << " (in " << worst_in << ")");
  CHECK(bad == 0);
}

template <class T>
void check_all_shapes() {
  const int saved = num_threads();
  for (int t : {1, 2}) {
    set_num_threads(t);
    for (Dims d : kShapes)
      for (bool affine : {true, false}) {
        check_against_naive<T>(d, 0.0, 1.0, affine);
        check_against_naive<T>(d, 3.0, 0.01, affine);
        // large means next to the spread: x - mean must be formed to T's precision
        check_against_naive<T>(d, 1e4, 0.01, affine);
        check_against_naive<T>(d, -300.0, 2.0, affine);
      }
  }
  set_num_threads(saved);
}

}  // namespace

TEST_CASE("layer_norm kernels: match layer_norm_naive, float", "[cpu][layer_norm]") {
  check_all_shapes<float>();
}

TEST_CASE("layer_norm kernels: match layer_norm_naive, double", "[cpu][layer_norm]") {
  check_all_shapes<double>();
}

TEST_CASE("layer_norm_backward: the same bits at 1, 2 and 3 threads", "[cpu][layer_norm]") {
  // 300 rows: five blocks of dw and db's partial sums, split between threads differently
  // at each count.
  const int64_t N = 300, C = 96;
  std::mt19937 rng(5);
  std::vector<float> x = normal_values<float>(N * C, 0.5, 2.0, rng);
  std::vector<float> g = normal_values<float>(N * C, 0, 1, rng), w = normal_values<float>(C, 1, 0.5, rng);
  std::vector<float> b(static_cast<size_t>(C), 0.0f), out(x.size()), mean(static_cast<size_t>(N)),
      rstd(static_cast<size_t>(N));
  Backend& cpu = backend_for(Device::CPU);
  cpu.layer_norm(kt(out, {N, C}), kt(mean, {N}), kt(rstd, {N}), kt(x, {N, C}), kt(w, {C}),
                 kt(b, {C}), 1e-5);
  const int saved = num_threads();
  std::vector<float> first;
  for (const int t : {1, 2, 3}) {
    set_num_threads(t);
    std::vector<float> dx(x.size()), dw(static_cast<size_t>(C)), db(static_cast<size_t>(C));
    cpu.layer_norm_backward(kt(dx, {N, C}), kt(dw, {C}), kt(db, {C}), kt(g, {N, C}),
                            kt(x, {N, C}), kt(rstd, {N}), kt(w, {C}));
    std::vector<float> all = dx;
    all.insert(all.end(), dw.begin(), dw.end());
    all.insert(all.end(), db.begin(), db.end());
    INFO(t << " threads");
    if (first.empty()) first = all;
    else CHECK(all == first);
  }
  set_num_threads(saved);
}

TEST_CASE("layer_norm_naive: a row worked by hand", "[cpu][layer_norm]") {
  // x = 1, 3: mean 2, var 1, rstd = 1/√(1 + 0) = 1, norm = -1, 1; out = norm · w + b.
  const double x[] = {1, 3}, w[] = {2, 3}, b[] = {0.5, -0.5};
  double out[2], mean, rstd;
  cpu::layer_norm_naive<double>(1, 2, x, w, b, 0.0, out, &mean, &rstd);
  CHECK(out[0] == -1.5);
  CHECK(out[1] == 2.5);
  CHECK(mean == 2);
  CHECK(rstd == 1);
  // dout = 1, 0: dnorm = 2, 0; mean(dnorm) = 1; mean(dnorm · norm) = -1;
  // dx = 1 · (dnorm - 1 - norm · (-1)) = (2 - 1 - 1, 0 - 1 + 1) = (0, 0);
  // dw = dout · norm = (-1, 0); db = dout = (1, 0).
  const double g[] = {1, 0};
  double dx[2], dw[2], db[2];
  cpu::layer_norm_backward_naive<double>(1, 2, g, x, w, 0.0, dx, dw, db);
  CHECK(dx[0] == 0);
  CHECK(dx[1] == 0);
  CHECK(dw[0] == -1);
  CHECK(dw[1] == 0);
  CHECK(db[0] == 1);
  CHECK(db[1] == 0);
}
