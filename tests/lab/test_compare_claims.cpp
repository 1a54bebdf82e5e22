// A compare config's claims (lab/compare_claims.h): parsing, judging them against the runs'
// numbers over their seeds (holds, fails, inconclusive), the Markdown they add to compare.md,
// and the config keys claim and task with their errors; and the statistics they rest on
// (lab/compare_stats.h).
#include "tests/catch.h"

#include <cmath>
#include <fstream>

#include "cli/cli_helpers.h"
#include "lab/compare_claims.h"
#include "lab/compare_config.h"
#include "lab/compare_report.h"
#include "helpers.h"

using namespace attic;
using namespace attic::lab;
using namespace attic::train;
using attic::testing::error_message;

namespace {

CompareRow row(const std::string& name, double val, std::optional<double> r2 = std::nullopt, int64_t seed = 1337) {
  CompareRow r{name, "softmax", {}, std::nullopt, seed, 100};
  r.result.iters = 100;
  r.result.evals.push_back({.iter = 100, .seconds = 1, .train = val - 0.1, .val = val});
  r.result.best_val = val;
  r.result.ms_per_iter = 20 + val;
  r.result.peak_bytes = size_t(1000 * val);
  if (r2) r.score = ProductScore{.n = 10, .parsed = 8, .exact = 2, .r2 = *r2, .mae = 5, .mape = 0.1};
  return r;
}

// Rows of run `name` at seeds 1337, 1338, ..., one per value.
std::vector<CompareRow> seeds(const std::string& name, const std::vector<double>& vals) {
  std::vector<CompareRow> out;
  for (size_t i = 0; i < vals.size(); ++i) out.push_back(row(name, vals[i], std::nullopt, 1337 + int64_t(i)));
  return out;
}

std::vector<CompareRow> operator+(std::vector<CompareRow> a, const std::vector<CompareRow>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("claims parse as RUN[.METRIC] < or > RUN[.METRIC], with a text after '|'", "[cli][compare]") {
  const Claim c = parse_claim("route < classic | the write-up: route ends below");
  CHECK(c.lhs_run == "route");
  CHECK(c.lhs_metric == "val");
  CHECK(c.op == "<");
  CHECK(c.rhs_run == "classic");
  CHECK(c.text == "the write-up: route ends below");
  CHECK(c.expr() == "route < classic");
  const Claim d = parse_claim("route.r2 > classic.r2");
  CHECK(d.lhs_metric == "r2");
  CHECK(d.text.empty());
  CHECK(d.expr() == "route.r2 > classic.r2");
  CHECK(error_message([] { parse_claim("route <= classic"); }) ==
        "compare: claim 'route <= classic' must read 'RUN[.METRIC] < [FACTOR *] RUN[.METRIC] | text' (or >)");
  CHECK(error_message([] { parse_claim("route < classic extra"); }).find("must read") != std::string::npos);
  CHECK(error_message([] { parse_claim("route.speed < classic"); }) ==
        "compare: claim 'route.speed < classic': 'route.speed' must be RUN or RUN.METRIC with METRIC val, "
        "train, best_val, ms, tokens_per_s, memory, exact, r2, mae or mape");
  // Speed and memory, and a factor on the right.
  const Claim m = parse_claim("linformer.memory < 0.5 * softmax.memory | half the memory");
  CHECK(m.lhs_metric == "memory");
  CHECK(m.factor == 0.5);
  CHECK(m.rhs_run == "softmax");
  CHECK(m.expr() == "linformer.memory < 0.5 * softmax.memory");
  CHECK(parse_claim("elita.ms < 0.8*gpt.ms").factor == 0.8);
  CHECK(error_message([] { parse_claim("a < -2 * b"); }) ==
        "compare: claim 'a < -2 * b': the factor '-2' must be a positive number");
}

TEST_CASE("Welch's test and Student's t match published values", "[cli][compare]") {
  // Two-sided tails of Student's t (any table): t = 2.228 at 10 degrees of freedom is the 5 %
  // point, 12.706 at 1, 1.96 the normal's at a large df; t = 0 is p = 1.
  CHECK(student_t_two_sided(2.228, 10) == Approx(0.05).margin(1e-4));
  CHECK(student_t_two_sided(12.706, 1) == Approx(0.05).margin(1e-4));
  CHECK(student_t_two_sided(1.96, 1e6) == Approx(0.05).margin(1e-4));
  CHECK(student_t_two_sided(0, 5) == Approx(1.0));
  CHECK(student_t_two_sided(-2.228, 10) == Approx(0.05).margin(1e-4));
  CHECK(regularized_beta(0.5, 2, 2) == Approx(0.5));
  CHECK(regularized_beta(0.2, 1, 1) == Approx(0.2));
  // Welch on a = {1, 2, 3}, b = {4, 5, 6, 7}: means 2 and 5.5, variances 1 and 5/3:
  //   t = -3.5 / sqrt(1/3 + 5/12) = -4.0415, df = (0.75)^2 / ((1/3)^2/2 + (5/12)^2/3) = 4.9592
  const Welch w = welch({1, 2, 3}, {4, 5, 6, 7});
  CHECK(w.t == Approx(-4.0415).margin(1e-4));
  CHECK(w.df == Approx(4.9592).margin(1e-4));
  CHECK(w.p == Approx(student_t_two_sided(-4.0415, 4.9592)).margin(1e-5));
  CHECK(w.p < 0.05);
  const Welch same = welch({2, 2}, {2, 2}), apart = welch({1, 1}, {2, 2});
  CHECK(same.p == 1);
  CHECK(apart.p == 0);
  CHECK(std::isinf(apart.t));
  const Spread s = spread({1, 2, 3, 4});
  CHECK(s.mean == 2.5);
  CHECK(s.sd == Approx(std::sqrt(5.0 / 3.0)));
  CHECK(s.min == 1);
  CHECK(s.max == 4);
}

TEST_CASE("a claim holds, fails or is inconclusive by Welch's test over the seeds", "[cli][compare]") {
  const Claim below = parse_claim("route < classic");
  // holds: route clearly below classic over 3 seeds each
  auto r = check_claim(below, seeds("route", {1.80, 1.81, 1.79}) + seeds("classic", {1.90, 1.91, 1.89}));
  REQUIRE(r.has_value());
  CHECK(r->verdict == Verdict::Holds);
  CHECK(r->lhs.size() == 3);
  CHECK(r->test->p < 0.05);
  // fails: clearly the other way
  r = check_claim(below, seeds("route", {1.95, 1.96, 1.94}) + seeds("classic", {1.90, 1.91, 1.89}));
  CHECK(r->verdict == Verdict::Fails);
  CHECK(r->reason.find("the other way") != std::string::npos);
  // inconclusive: a 0.01 difference under seeds that spread by ±0.02
  r = check_claim(below, seeds("route", {1.88, 1.92, 1.90}) + seeds("classic", {1.89, 1.93, 1.91}));
  CHECK(r->verdict == Verdict::Inconclusive);
  CHECK(r->reason.find("within the noise") != std::string::npos);
  // inconclusive: one seed each, however large the difference
  r = check_claim(below, seeds("route", {1.0}) + seeds("classic", {2.0}));
  CHECK(r->verdict == Verdict::Inconclusive);
  CHECK(r->reason.find("one seed per run") != std::string::npos);
  // inconclusive: the runs are shorter than their config asks for (--max_iters=4 on a 100-iteration config)
  std::vector<CompareRow> cut = seeds("route", {1.80, 1.81, 1.79}) + seeds("classic", {1.90, 1.91, 1.89});
  for (CompareRow& c : cut) c.result.iters = 4;
  r = check_claim(below, cut);
  CHECK(r->verdict == Verdict::Inconclusive);
  CHECK(r->reason == "route trained 4 iterations, fewer than the 100 its config asks for");
  // inconclusive: a run that never evaluated has no val loss
  std::vector<CompareRow> no_eval = seeds("route", {1.80, 1.81}) + seeds("classic", {1.90, 1.91});
  no_eval[0].result.evals.clear();
  r = check_claim(below, no_eval);
  CHECK(r->verdict == Verdict::Inconclusive);
  CHECK(r->reason == "route (seed 1337) has no val (it never evaluated)");
  // speed and memory with a factor: route's memory (1800 bytes) against 0.5 x classic's (1900)
  const auto both = seeds("route", {1.80, 1.81, 1.79}) + seeds("classic", {1.90, 1.91, 1.89});
  CHECK(check_claim(parse_claim("route.memory < classic.memory"), both)->verdict == Verdict::Holds);
  CHECK(check_claim(parse_claim("route.memory < 0.5 * classic.memory"), both)->verdict == Verdict::Fails);
  CHECK(check_claim(parse_claim("route.ms < classic.ms"), both)->verdict == Verdict::Holds);
  CHECK_FALSE(check_claim(parse_claim("reflex < classic"), both).has_value());
  // A measure the same at every seed (peak memory) has no spread: its means compare exactly,
  // and equal ones are inconclusive. Memory reads in MiB.
  std::vector<CompareRow> fixed_memory = seeds("route", {1.80, 1.81, 1.79}) + seeds("classic", {1.90, 1.91, 1.89});
  for (CompareRow& c : fixed_memory) c.result.peak_bytes = c.name == "route" ? 3 << 20 : 4 << 20;
  r = check_claim(parse_claim("route.memory < 0.5 * classic.memory"), fixed_memory);
  CHECK(r->verdict == Verdict::Fails);
  CHECK(r->reason == "the same at every seed on both sides, so compared exactly, the other way");
  CHECK(check_claim(parse_claim("route.memory < classic.memory"), fixed_memory)->verdict == Verdict::Holds);
  r = check_claim(parse_claim("route.memory < 0.75 * classic.memory"), fixed_memory);
  CHECK(r->verdict == Verdict::Inconclusive);
  CHECK(r->reason == "the two sides are equal (the same at every seed on both sides, so compared exactly)");
  CHECK(claims_markdown({parse_claim("route.memory < 0.5 * classic.memory")}, fixed_memory)
            .find("3.0 ± 0.0 MiB < 2.0 ± 0.0 MiB (3 seeds each): **fails**") != std::string::npos);
  // The Markdown states the rule and each verdict with its numbers.
  const std::string md = claims_markdown({parse_claim("route < classic | route ends below classic")}, both);
  CHECK(md.find("A claim holds when Welch's t-test over the seeds") != std::string::npos);
  CHECK(md.find("- route ends below classic (`route < classic`): 1.8000 ± 0.0100 < 1.9000 ± 0.0100 (3 seeds "
                "each): **holds**: Welch t = -12.25, df 4.0, p = 0.000 < 0.05") != std::string::npos);
}

TEST_CASE("claims read the final numbers, and wait for runs not yet measured", "[cli][compare]") {
  const std::vector<CompareRow> rows = {row("classic", 1.90, 0.5), row("route", 1.95, 0.7)};
  auto r = check_claim(parse_claim("route < classic"), rows);
  REQUIRE(r.has_value());
  CHECK(r->lhs == std::vector<double>{1.95});
  CHECK(r->rhs == std::vector<double>{1.90});
  CHECK(r->verdict == Verdict::Inconclusive);  // one seed: no margin to judge against
  CHECK(check_claim(parse_claim("route.r2 > classic.r2"), rows)->rhs == std::vector<double>{0.5});
  CHECK_FALSE(check_claim(parse_claim("reflex < classic"), rows).has_value());
  const std::string md = claims_markdown({parse_claim("route < classic | route ends below classic"),
                                          parse_claim("reflex > classic | reflex stalls")},
                                         rows);
  CHECK(md.find("- route ends below classic (`route < classic`): 1.9500 < 1.9000 (1 seed each): "
                "**inconclusive**: one seed per run") != std::string::npos);
  CHECK(md.find("- reflex stalls (`reflex > classic`): not measured yet") != std::string::npos);
  CHECK(claims_markdown({}, rows).empty());
  // The scores table appears with the claims in compare.md.
  const std::string all = compare_markdown(rows, "t", {parse_claim("route.r2 > classic.r2")});
  CHECK(all.find("| route | 20.0% | 0.7000 | 5 | 0.1000 | 2 of 10 |") != std::string::npos);
  CHECK(all.find("0.7000 > 0.5000 (1 seed each): **inconclusive**") != std::string::npos);
}

TEST_CASE("with seeds, compare.md gives each number's mean, spread and range", "[cli][compare]") {
  const auto rows = seeds("route", {1.80, 1.82}) + seeds("classic", {1.90, 1.94});
  const std::string md = compare_markdown(rows, "t");
  CHECK(md.find("| route | softmax | 0.00M | 1337, 1338 | 1.7100 ± 0.0141 (1.7000–1.7200) | "
                "1.8100 ± 0.0141 (1.8000–1.8200) |") != std::string::npos);
  CHECK(md.find("mean ± standard deviation over the run's seeds") != std::string::npos);
  const std::string svg = compare_svg(rows, "t");
  CHECK(svg.find("<polygon") != std::string::npos);  // the val band
  CHECK(svg.find(">route val<") != std::string::npos);
  const attic::json::Value j = compare_json(rows, "t");
  CHECK(j.at("runs").as_array()[1].at("seed").as_int() == 1338);
}

TEST_CASE("compare configs read claim and task lines, and refuse bad ones", "[cli][compare]") {
  attic::testing::Scratch s;
  std::ofstream(s.dir / "base.cfg") << "n_layer = 2\n";
  auto parse = [&](const std::string& text) {
    std::ofstream(s.dir / "c.cfg") << "base = base.cfg\na: attention=softmax\nb: attention=classic\n" << text;
    return CompareConfig::from_file(s.path("c.cfg"));
  };
  const CompareConfig c = parse("task = digit_mul\nclaim = a.r2 > b.r2 | a multiplies better\n");
  CHECK(c.task == "digit_mul");
  REQUIRE(c.claims.size() == 1);
  CHECK(c.claims[0].text == "a multiplies better");
  CHECK(c.common.find("claim") == std::string::npos);  // not a train key
  CHECK(error_message([&] { parse("claim = a < z\n"); }) ==
        "compare: " + s.path("c.cfg") + ": claim 'a < z' names run 'z', which the config does not list");
  CHECK(error_message([&] { parse("claim = a.r2 > b.r2\n"); }) ==
        "compare: " + s.path("c.cfg") + ": claim 'a.r2 > b.r2' reads r2, which needs task = digit_mul");
  CHECK(error_message([&] { parse("task = sorting\n"); }) ==
        s.path("c.cfg") + ":4: task must be digit_mul, got 'sorting'");
}
