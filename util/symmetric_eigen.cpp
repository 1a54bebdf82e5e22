#include "util/symmetric_eigen.h"

#include <algorithm>
#include <cmath>

#include "tensor/error.h"

namespace attic {

EigenResult symmetric_eigenvalues(std::vector<double> a, int64_t n, double tol, int max_sweeps) {
  ATTIC_CHECK(n >= 1 && int64_t(a.size()) == n * n, "symmetric_eigenvalues: a has ", a.size(),
              " entries, n = ", n, " needs n·n");
  const auto at = [&](int64_t i, int64_t j) -> double& { return a[size_t(i * n + j)]; };
  double scale = 0, total = 0;
  for (double v : a) {
    ATTIC_CHECK(std::isfinite(v), "symmetric_eigenvalues: a holds ", v);
    scale = std::max(scale, std::abs(v));
    total += v * v;
  }
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = i + 1; j < n; ++j)
      ATTIC_CHECK(std::abs(at(i, j) - at(j, i)) <= 1e-9 * scale, "symmetric_eigenvalues: a[", i,
                  "][", j, "] = ", at(i, j), " but a[", j, "][", i, "] = ", at(j, i));

  EigenResult r;
  const double limit = tol * tol * total;  // compare squared norms
  for (;; ++r.sweeps) {
    double off = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = i + 1; j < n; ++j) off += 2 * at(i, j) * at(i, j);
    if (off <= limit) break;
    ATTIC_CHECK(r.sweeps < max_sweeps, "symmetric_eigenvalues: no convergence after ", max_sweeps,
                " sweeps (off-diagonal norm ", std::sqrt(off), ")");
    for (int64_t p = 0; p < n - 1; ++p) {
      for (int64_t q = p + 1; q < n; ++q) {
        const double apq = at(p, q);
        if (apq == 0) continue;
        // The rotation [c s; −s c] that zeroes a[p][q]: with θ = (a_qq − a_pp) / (2 a_pq),
        // t = tan φ is the smaller root of t² + 2θt − 1 = 0, t = sign(θ) / (|θ| + √(θ² + 1)).
        // Taking the smaller root keeps |φ| ≤ π/4, which is what makes the sweeps converge;
        // the form avoids cancellation, and for huge θ, t ≈ 1/(2θ) without overflowing θ².
        const double theta = (at(q, q) - at(p, p)) / (2 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) /
                         (std::abs(theta) + (std::abs(theta) > 1e150 ? std::abs(theta)
                                                                      : std::sqrt(theta * theta + 1)));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        // A ← Jᵀ A J: columns p and q, then rows p and q.
        for (int64_t k = 0; k < n; ++k) {
          const double akp = at(k, p), akq = at(k, q);
          at(k, p) = c * akp - s * akq;
          at(k, q) = s * akp + c * akq;
        }
        for (int64_t k = 0; k < n; ++k) {
          const double apk = at(p, k), aqk = at(q, k);
          at(p, k) = c * apk - s * aqk;
          at(q, k) = s * apk + c * aqk;
        }
        at(p, q) = at(q, p) = 0;  // exactly, rather than the rounding residue
      }
    }
  }
  r.values.resize(size_t(n));
  for (int64_t i = 0; i < n; ++i) r.values[size_t(i)] = at(i, i);
  std::sort(r.values.begin(), r.values.end());
  return r;
}

}  // namespace attic
