// The eigenvalues of a real symmetric matrix by the cyclic Jacobi method (Jacobi 1846; Golub
// and Van Loan, Matrix Computations, 4th ed., §8.5.3): sweep over every pair (p, q), p < q,
// and rotate rows and columns p, q so that a[p][q] becomes 0. Each rotation moves the
// off-diagonal mass onto the diagonal, so sweeps drive the matrix to diagonal form, whose
// entries are the eigenvalues. O(n³) per sweep and a handful of sweeps: made for the small
// Gram matrices (n ≤ a few hundred) of representation analyses, not for speed.
#pragma once

#include <cstdint>
#include <vector>

namespace attic {

struct EigenResult {
  std::vector<double> values;  // ascending
  int sweeps = 0;              // sweeps it took
};

// a: n×n, row-major, symmetric (throws attic::Error naming the entry if |a_ij − a_ji| is not
// within 1e-9 of the largest |a|; an n·n size mismatch, n < 1 or a non-finite entry also
// throws). Stops when the off-diagonal Frobenius norm is at most tol times the whole
// matrix's, or after max_sweeps (then throws: it did not converge).
EigenResult symmetric_eigenvalues(std::vector<double> a, int64_t n, double tol = 1e-14,
                                  int max_sweeps = 64);

}  // namespace attic
