#include "lab/compare_claims.h"

#include <cstdio>
#include <sstream>

#include "tensor/error.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

bool is_task_metric(const std::string& m) { return m == "exact" || m == "r2" || m == "mae" || m == "mape"; }

// "route.r2" -> ("route", "r2"); "route" -> ("route", "val")
std::pair<std::string, std::string> side(const std::string& text, const std::string& line) {
  const size_t dot = text.rfind('.');
  std::string run = text, metric = "val";
  if (dot != std::string::npos && dot > 0) {
    run = text.substr(0, dot);
    metric = text.substr(dot + 1);
  }
  ATTIC_CHECK(!run.empty() && (metric == "val" || metric == "train" || metric == "best_val" || is_task_metric(metric)),
              "compare: claim '", line, "': '", text, "' must be RUN or RUN.METRIC with METRIC val, train, ",
              "best_val, exact, r2, mae or mape");
  return {run, metric};
}

std::optional<double> value(const std::string& run, const std::string& metric, const std::vector<CompareRow>& rows) {
  for (const CompareRow& row : rows) {
    if (row.name != run) continue;
    const RunResult& r = row.result;
    if (metric == "best_val") return r.best_val;
    if (metric == "val" || metric == "train") {
      if (r.evals.empty()) return std::nullopt;
      return metric == "val" ? r.evals.back().val : r.evals.back().train;
    }
    if (!row.score || row.score->parsed == 0) return std::nullopt;
    if (metric == "exact") return double(row.score->exact) / double(row.score->n);
    if (metric == "r2") return row.score->r2;
    if (metric == "mae") return row.score->mae;
    return row.score->mape;
  }
  return std::nullopt;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::abs(v) >= 1000 ? "%.0f" : "%.4f", v);
  return buf;
}

}  // namespace

std::string Claim::expr() const {
  return lhs_run + (lhs_metric == "val" ? "" : "." + lhs_metric) + " " + op + " " + rhs_run +
         (rhs_metric == "val" ? "" : "." + rhs_metric);
}

Claim parse_claim(const std::string& line) {
  Claim c;
  const size_t bar = line.find('|');
  std::istringstream words(line.substr(0, bar));
  std::string lhs, op, rhs, extra;
  words >> lhs >> op >> rhs;
  ATTIC_CHECK(!rhs.empty() && !(words >> extra) && (op == "<" || op == ">"), "compare: claim '", line,
              "' must read 'RUN[.METRIC] < RUN[.METRIC] | text' (or >)");
  std::tie(c.lhs_run, c.lhs_metric) = side(lhs, line);
  std::tie(c.rhs_run, c.rhs_metric) = side(rhs, line);
  c.op = op;
  if (bar != std::string::npos) {
    c.text = line.substr(bar + 1);
    c.text.erase(0, c.text.find_first_not_of(' '));
  }
  return c;
}

std::optional<ClaimResult> check_claim(const Claim& c, const std::vector<CompareRow>& rows) {
  const auto a = value(c.lhs_run, c.lhs_metric, rows), b = value(c.rhs_run, c.rhs_metric, rows);
  if (!a || !b) return std::nullopt;
  return ClaimResult{*a, *b, c.op == "<" ? *a < *b : *a > *b};
}

std::string claims_markdown(const std::vector<Claim>& claims, const std::vector<CompareRow>& rows) {
  if (claims.empty()) return "";
  std::string md = "\n## The write-up's claims, against what this compare measured\n\n";
  for (const Claim& c : claims) {
    md += "- " + (c.text.empty() ? c.expr() : c.text) + " (`" + c.expr() + "`): ";
    const auto r = check_claim(c, rows);
    if (!r) {
      md += "not measured yet\n";
      continue;
    }
    md += number(r->lhs) + " " + c.op + " " + number(r->rhs) + ": **" + (r->holds ? "holds" : "does not hold") +
          "**\n";
  }
  return md;
}

}  // namespace attic::lab
