#include "lab/compare_stats.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tensor/error.h"

namespace attic::lab {

Spread spread(const std::vector<double>& x) {
  Spread s;
  s.n = int(x.size());
  if (x.empty()) return s;
  double sum = 0;
  for (double v : x) sum += v;
  s.mean = sum / double(s.n);
  double ss = 0;
  for (double v : x) ss += (v - s.mean) * (v - s.mean);
  s.sd = s.n > 1 ? std::sqrt(ss / double(s.n - 1)) : 0;
  s.min = *std::min_element(x.begin(), x.end());
  s.max = *std::max_element(x.begin(), x.end());
  return s;
}

namespace {

// The continued fraction of I_x(a, b) (Numerical Recipes' betacf): terms d_m alternate
//   d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),  d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)),
// evaluated by Lentz's method, with tiny values in place of zeros so no division is by 0.
double beta_fraction(double x, double a, double b) {
  constexpr double kTiny = 1e-300, kEps = 1e-15;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::abs(d) < kTiny) d = kTiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    c = 1 + aa / c;
    if (std::abs(d) < kTiny) d = kTiny;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    c = 1 + aa / c;
    if (std::abs(d) < kTiny) d = kTiny;
    if (std::abs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1) < kEps) break;
  }
  return h;
}

}  // namespace

double regularized_beta(double x, double a, double b) {
  ATTIC_CHECK(x >= 0 && x <= 1 && a > 0 && b > 0, "regularized_beta: needs 0 <= x <= 1 and a, b > 0, got x ",
              x, ", a ", a, ", b ", b);
  if (x == 0 || x == 1) return x;
  // x^a (1 - x)^b / (a B(a, b)), in logarithms.
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) +
                                b * std::log1p(-x));
  // The fraction converges fast for x < (a + 1) / (a + b + 2); beyond, I_x(a, b) = 1 - I_1-x(b, a).
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(x, a, b) / a;
  return 1 - front * beta_fraction(1 - x, b, a) / b;
}

double student_t_two_sided(double t, double df) {
  ATTIC_CHECK(df > 0, "student_t_two_sided: df must be > 0, got ", df);
  if (std::isinf(t)) return 0;
  return regularized_beta(df / (df + t * t), df / 2, 0.5);
}

Welch welch(const std::vector<double>& a, const std::vector<double>& b) {
  ATTIC_CHECK(a.size() >= 2 && b.size() >= 2, "welch: needs at least 2 values on each side, got ", a.size(),
              " and ", b.size());
  const Spread sa = spread(a), sb = spread(b);
  const double va = sa.sd * sa.sd / sa.n, vb = sb.sd * sb.sd / sb.n;
  Welch w;
  if (va + vb == 0) {
    const double inf = std::numeric_limits<double>::infinity();
    w.t = sa.mean == sb.mean ? 0 : (sa.mean > sb.mean ? inf : -inf);
    w.df = double(sa.n + sb.n - 2);
    w.p = sa.mean == sb.mean ? 1 : 0;
    return w;
  }
  w.t = (sa.mean - sb.mean) / std::sqrt(va + vb);
  w.df = (va + vb) * (va + vb) / (va * va / (sa.n - 1) + vb * vb / (sb.n - 1));
  w.p = student_t_two_sided(w.t, w.df);
  return w;
}

}  // namespace attic::lab
