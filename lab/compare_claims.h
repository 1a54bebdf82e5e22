// A compare config can state what the write-up it reproduces claims, as comparisons of two
// runs' final numbers, and attic compare judges each against what it measured:
//
//   claim = route < classic | the write-up: route ends below classic
//   claim = route.r2 > classic.r2 | route beats classic on the multiplication R²
//   claim = linformer.memory < 0.5 * softmax.memory | the Linformer needs half the memory
//
// A side is RUN (its final val loss) or RUN.METRIC, METRIC one of val, train, best_val, ms
// (the mean training step), tokens_per_s and memory (peak bytes), and with task = digit_mul
// exact, r2, mae, mape (lab/eval_digit_mul.h). The right side may be scaled by a number. The
// text after '|' says where the claim comes from.
//
// A claim is judged over the seeds of both runs (--seeds=N) with Welch's t-test
// (lab/compare_stats.h): it holds when p < 0.05 and the difference goes its way, fails when
// p < 0.05 and the difference goes the other way, and is inconclusive otherwise: when the
// difference is within the noise, with one seed per run (the noise is then unknown), when a
// run trained fewer iterations than its config asks for, or when a run lacks the number.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lab/compare_row.h"
#include "lab/compare_stats.h"

namespace attic::lab {

struct Claim {
  std::string lhs_run, lhs_metric, op, rhs_run, rhs_metric;  // op: "<" or ">"
  double factor = 1;                                         // the right side's scale
  std::string text;                                          // the description after '|'
  std::string expr() const;                                  // "route.r2 > classic.r2"
};

// "route < classic | text" -> the claim; throws attic::Error quoting it when it is not of
// that form or names a metric that does not exist.
Claim parse_claim(const std::string& line);

// The significance level of the rule above.
constexpr double kClaimAlpha = 0.05;

enum class Verdict { Holds, Fails, Inconclusive };
const char* verdict_name(Verdict v);  // "holds", "fails", "inconclusive"

struct ClaimResult {
  std::vector<double> lhs, rhs;  // per seed; rhs already times the factor
  Verdict verdict = Verdict::Inconclusive;
  std::string reason;            // the verdict's grounds, in words
  std::optional<Welch> test;     // with 2 seeds or more on each side
};
// The claim against the rows measured so far; nullopt when a run it names has not finished.
std::optional<ClaimResult> check_claim(const Claim& c, const std::vector<CompareRow>& rows);

// "## The write-up's claims" with the rule, then one line per claim: its text, both sides'
// numbers, the test and the verdict with its reason; "" for no claims.
std::string claims_markdown(const std::vector<Claim>& claims, const std::vector<CompareRow>& rows);

}  // namespace attic::lab
