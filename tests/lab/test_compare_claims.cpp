// A compare config's claims (lab/compare_claims.h): parsing, checking against the runs'
// numbers, the Markdown they add to compare.md, and the config keys claim and task with
// their errors.
#include "tests/catch.h"

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

CompareRow row(const std::string& name, double val, std::optional<double> r2 = std::nullopt) {
  CompareRow r{name, "softmax", {}, std::nullopt};
  r.result.evals.push_back({.iter = 100, .seconds = 1, .train = val - 0.1, .val = val});
  r.result.best_val = val;
  if (r2) r.score = ProductScore{.n = 10, .parsed = 8, .exact = 2, .r2 = *r2, .mae = 5, .mape = 0.1};
  return r;
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
        "compare: claim 'route <= classic' must read 'RUN[.METRIC] < RUN[.METRIC] | text' (or >)");
  CHECK(error_message([] { parse_claim("route < classic extra"); }).find("must read") != std::string::npos);
  CHECK(error_message([] { parse_claim("route.speed < classic"); }) ==
        "compare: claim 'route.speed < classic': 'route.speed' must be RUN or RUN.METRIC with METRIC val, "
        "train, best_val, exact, r2, mae or mape");
}

TEST_CASE("claims are checked against the final numbers, and wait for runs not yet measured", "[cli][compare]") {
  const std::vector<CompareRow> rows = {row("classic", 1.90, 0.5), row("route", 1.95, 0.7)};
  auto r = check_claim(parse_claim("route < classic"), rows);
  REQUIRE(r.has_value());
  CHECK(r->lhs == 1.95);
  CHECK(r->rhs == 1.90);
  CHECK_FALSE(r->holds);
  CHECK(check_claim(parse_claim("route.r2 > classic.r2"), rows)->holds);
  CHECK(check_claim(parse_claim("classic.train < route.train"), rows)->holds);
  CHECK_FALSE(check_claim(parse_claim("reflex < classic"), rows).has_value());
  const std::string md = claims_markdown({parse_claim("route < classic | route ends below classic"),
                                          parse_claim("reflex > classic | reflex stalls")},
                                         rows);
  CHECK(md.find("- route ends below classic (`route < classic`): 1.9500 < 1.9000: **does not hold**") !=
        std::string::npos);
  CHECK(md.find("- reflex stalls (`reflex > classic`): not measured yet") != std::string::npos);
  CHECK(claims_markdown({}, rows).empty());
  // The scores table appears with the claims in compare.md.
  const std::string all = compare_markdown(rows, "t", {parse_claim("route.r2 > classic.r2")});
  CHECK(all.find("| route | 20.0% | 0.7000 | 5 | 0.1000 | 2 of 10 |") != std::string::npos);
  CHECK(all.find("0.7000 > 0.5000: **holds**") != std::string::npos);
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
