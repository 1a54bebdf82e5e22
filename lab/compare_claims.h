// A compare config can state what the write-up it reproduces claims, as comparisons of two
// runs' final numbers, and attic compare checks each against what it measured:
//
//   claim = route < classic | the write-up: route ends below classic
//   claim = route.r2 > classic.r2 | route beats classic on the multiplication R²
//
// A side is RUN (its final val loss) or RUN.METRIC, METRIC one of val, train, best_val and,
// with task = digit_mul, exact, r2, mae, mape (lab/eval_digit_mul.h). The text after '|'
// says where the claim comes from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/compare_row.h"

namespace attic::lab {

struct Claim {
  std::string lhs_run, lhs_metric, op, rhs_run, rhs_metric;  // op: "<" or ">"
  std::string text;                                          // the description after '|'
  std::string expr() const;                                  // "route.r2 > classic.r2"
};

// "route < classic | text" -> the claim; throws attic::Error quoting it when it is not of
// that form or names a metric that does not exist.
Claim parse_claim(const std::string& line);

struct ClaimResult {
  double lhs = 0, rhs = 0;
  bool holds = false;
};
// The claim against the rows measured so far; nullopt when a run it names has not finished
// (or has no score for a task metric).
std::optional<ClaimResult> check_claim(const Claim& c, const std::vector<CompareRow>& rows);

// "## The write-up's claims" with one line per claim: its text, both numbers and whether it
// holds; "" for no claims.
std::string claims_markdown(const std::vector<Claim>& claims, const std::vector<CompareRow>& rows);

}  // namespace attic::lab
