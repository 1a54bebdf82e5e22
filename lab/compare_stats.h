// The statistics attic compare needs to judge a difference between runs against its noise:
// the spread of a measure over seeds, and Welch's t-test (B. L. Welch, "The generalization of
// 'Student's' problem when several different population variances are involved",
// Biometrika 34, 1947), which does not assume the two runs' spreads are equal.
#pragma once

#include <vector>

namespace attic::lab {

// n values: their mean, sample standard deviation (n - 1 in the denominator; 0 for n < 2),
// least and greatest.
struct Spread {
  int n = 0;
  double mean = 0, sd = 0, min = 0, max = 0;
};
Spread spread(const std::vector<double>& x);

// Welch's test of mean(a) = mean(b), with a and b of at least 2 values each:
//   t  = (mean_a - mean_b) / sqrt(s_a²/n_a + s_b²/n_b)
//   df = (s_a²/n_a + s_b²/n_b)² / ((s_a²/n_a)² / (n_a - 1) + (s_b²/n_b)² / (n_b - 1))
//   p  = P(|T_df| >= |t|), two-sided, T_df Student's t with df degrees of freedom
// When both spreads are 0, t is ±infinity and p is 0 if the means differ, else t = 0, p = 1.
struct Welch {
  double t = 0, df = 0, p = 1;
};
Welch welch(const std::vector<double>& a, const std::vector<double>& b);

// P(|T_df| >= |t|) for Student's t with df > 0 degrees of freedom: the regularized incomplete
// beta function I_x(df/2, 1/2) at x = df / (df + t²).
double student_t_two_sided(double t, double df);

// I_x(a, b), 0 <= x <= 1, a, b > 0: its continued fraction (Numerical Recipes, 6.4), on the
// side of x where it converges fast, by the modified Lentz method.
double regularized_beta(double x, double a, double b);

}  // namespace attic::lab
