#include "lab/compare_claims.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <tuple>

#include "tensor/error.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

bool is_task_metric(const std::string& m) { return m == "exact" || m == "r2" || m == "mae" || m == "mape"; }
bool is_run_metric(const std::string& m) {
  return m == "val" || m == "train" || m == "best_val" || m == "ms" || m == "tokens_per_s" || m == "memory";
}

// "route.r2" -> ("route", "r2"); "route" -> ("route", "val")
std::pair<std::string, std::string> side(const std::string& text, const std::string& line) {
  const size_t dot = text.rfind('.');
  std::string run = text, metric = "val";
  if (dot != std::string::npos && dot > 0) {
    run = text.substr(0, dot);
    metric = text.substr(dot + 1);
  }
  ATTIC_CHECK(!run.empty() && (is_run_metric(metric) || is_task_metric(metric)), "compare: claim '", line,
              "': '", text, "' must be RUN or RUN.METRIC with METRIC val, train, best_val, ms, tokens_per_s, ",
              "memory, exact, r2, mae or mape");
  return {run, metric};
}

// One row's number for the metric, or nullopt when it has none (no eval, no parsed answer).
std::optional<double> value(const CompareRow& row, const std::string& metric) {
  const RunResult& r = row.result;
  if (metric == "ms") return r.ms_per_iter;
  if (metric == "tokens_per_s") return r.tokens_per_s;
  if (metric == "memory") return double(r.peak_bytes);
  if (metric == "best_val" || metric == "val" || metric == "train") {
    if (r.evals.empty()) return std::nullopt;
    if (metric == "best_val") return r.best_val;
    return metric == "val" ? r.evals.back().val : r.evals.back().train;
  }
  if (!row.score || row.score->parsed == 0) return std::nullopt;
  if (metric == "exact") return double(row.score->exact) / double(row.score->n);
  if (metric == "r2") return row.score->r2;
  if (metric == "mae") return row.score->mae;
  return row.score->mape;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::abs(v) >= 1000 ? "%.0f" : "%.4f", v);
  return buf;
}

std::string fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// "1.9012" for one seed, "1.9012 ± 0.0100" for more; memory (in bytes) as MiB, "68.4 MiB".
std::string side_text(const std::vector<double>& x, const std::string& metric) {
  const Spread s = spread(x);
  if (metric == "memory") {
    const double mib = 1024.0 * 1024.0;
    return fixed(s.mean / mib, 1) + (s.n == 1 ? "" : " ± " + fixed(s.sd / mib, 1)) + " MiB";
  }
  if (s.n == 1) return number(s.mean);
  return number(s.mean) + " ± " + (std::abs(s.mean) >= 1000 ? fixed(s.sd, 0) : number(s.sd));
}

}  // namespace

std::string Claim::expr() const {
  std::string scale;
  if (factor != 1) {
    std::ostringstream f;
    f << factor;
    scale = f.str() + " * ";
  }
  return lhs_run + (lhs_metric == "val" ? "" : "." + lhs_metric) + " " + op + " " + scale + rhs_run +
         (rhs_metric == "val" ? "" : "." + rhs_metric);
}

Claim parse_claim(const std::string& line) {
  Claim c;
  const size_t bar = line.find('|');
  std::string body = line.substr(0, bar);
  for (size_t star = body.find('*'); star != std::string::npos; star = body.find('*', star + 3))
    body.replace(star, 1, " * ");  // "0.5*b" reads as "0.5 * b"
  std::istringstream words(body);
  std::vector<std::string> w;
  for (std::string s; words >> s;) w.push_back(s);
  const bool scaled = w.size() == 5 && w[3] == "*";
  ATTIC_CHECK((w.size() == 3 || scaled) && (w[1] == "<" || w[1] == ">"), "compare: claim '", line,
              "' must read 'RUN[.METRIC] < [FACTOR *] RUN[.METRIC] | text' (or >)");
  if (scaled) {
    char* end = nullptr;
    c.factor = std::strtod(w[2].c_str(), &end);
    ATTIC_CHECK(end != w[2].c_str() && *end == '\0' && std::isfinite(c.factor) && c.factor > 0, "compare: claim '",
                line, "': the factor '", w[2], "' must be a positive number");
  }
  std::tie(c.lhs_run, c.lhs_metric) = side(w[0], line);
  std::tie(c.rhs_run, c.rhs_metric) = side(w.back(), line);
  c.op = w[1];
  if (bar != std::string::npos) {
    c.text = line.substr(bar + 1);
    c.text.erase(0, c.text.find_first_not_of(' '));
  }
  return c;
}

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Holds: return "holds";
    case Verdict::Fails: return "fails";
    case Verdict::Inconclusive: break;
  }
  return "inconclusive";
}

std::optional<ClaimResult> check_claim(const Claim& c, const std::vector<CompareRow>& rows) {
  const std::vector<const CompareRow*> a = rows_of(rows, c.lhs_run), b = rows_of(rows, c.rhs_run);
  if (a.empty() || b.empty()) return std::nullopt;
  ClaimResult r;
  auto inconclusive = [&](std::string why) {
    r.verdict = Verdict::Inconclusive;
    r.reason = std::move(why);
    return r;
  };
  // The runs' lengths first: numbers of a run cut short by --max_iters say nothing of the claim.
  for (const auto* side_rows : {&a, &b})
    for (const CompareRow* row : *side_rows)
      if (row->config_iters > 0 && row->result.iters < row->config_iters)
        return inconclusive(row->name + " trained " + std::to_string(row->result.iters) +
                            " iterations, fewer than the " + std::to_string(row->config_iters) +
                            " its config asks for");
  for (const auto* side_rows : {&a, &b})
    for (const CompareRow* row : *side_rows)
      if (row->config_epochs > 0 && row->result.epochs < row->config_epochs)
        return inconclusive(row->name + " trained " + std::to_string(row->result.epochs) +
                            " epochs, fewer than the " + std::to_string(row->config_epochs) +
                            " its config asks for");
  for (const auto& [side_rows, metric, scale, out] :
       {std::tuple{&a, c.lhs_metric, 1.0, &r.lhs}, std::tuple{&b, c.rhs_metric, c.factor, &r.rhs}})
    for (const CompareRow* row : *side_rows) {
      const std::optional<double> v = value(*row, metric);
      if (!v)
        return inconclusive(row->name + " (seed " + std::to_string(row->seed) + ") has no " + metric +
                            (is_task_metric(metric) ? " (no answer parsed)" : " (it never evaluated)"));
      out->push_back(*v * scale);
    }
  if (r.lhs.size() < 2 || r.rhs.size() < 2)
    return inconclusive("one seed per run: the noise between seeds is unknown (--seeds=3 or more judges it)");
  r.test = welch(r.lhs, r.rhs);
  const Welch& w = *r.test;
  // A measure without spread (peak memory is the same at every seed) has no noise to judge
  // against: its two means compare exactly, and welch() gives p = 0 or 1 for that.
  const bool exact = spread(r.lhs).sd == 0 && spread(r.rhs).sd == 0;
  const std::string stats = exact ? std::string("the same at every seed on both sides, so compared exactly")
                                  : "Welch t = " + fixed(w.t, 2) + ", df " + fixed(w.df, 1) + ", p = " + fixed(w.p, 3);
  if (exact && w.p != 0) return inconclusive("the two sides are equal (" + stats + ")");
  if (!(w.p < kClaimAlpha)) return inconclusive("the difference is within the noise (" + stats + " ≥ 0.05)");
  const bool its_way = c.op == "<" ? w.t < 0 : w.t > 0;
  r.verdict = its_way ? Verdict::Holds : Verdict::Fails;
  r.reason = stats + (exact ? "" : " < 0.05") + (its_way ? "" : ", the other way");
  return r;
}

std::string claims_markdown(const std::vector<Claim>& claims, const std::vector<CompareRow>& rows) {
  if (claims.empty()) return "";
  std::string md = "\n## The write-up's claims, against what this compare measured\n\n"
                   "A claim holds when Welch's t-test over the seeds of its two runs gives p < 0.05 for a "
                   "difference its way, fails when it gives p < 0.05 the other way, and is inconclusive "
                   "otherwise: a difference within the noise, one seed per run, a run shorter than its "
                   "config asks for, or a number a run lacks.\n\n";
  for (const Claim& c : claims) {
    md += "- " + (c.text.empty() ? c.expr() : c.text) + " (`" + c.expr() + "`): ";
    const auto r = check_claim(c, rows);
    if (!r) {
      md += "not measured yet\n";
      continue;
    }
    if (!r->lhs.empty() && !r->rhs.empty()) {
      const size_t n = std::min(r->lhs.size(), r->rhs.size());
      md += side_text(r->lhs, c.lhs_metric) + " " + c.op + " " + side_text(r->rhs, c.rhs_metric) + " (" +
            (r->lhs.size() == r->rhs.size() ? std::to_string(n) : std::to_string(r->lhs.size()) + " and " +
                                                                     std::to_string(r->rhs.size())) +
            (n == 1 && r->lhs.size() == r->rhs.size() ? " seed each" : " seeds each") + "): ";
    }
    md += std::string("**") + verdict_name(r->verdict) + "**: " + r->reason + "\n";
  }
  return md;
}

}  // namespace attic::lab
