#include "lab/compare_report.h"

#include <cmath>
#include <cstdio>

#include "lab/run_result_json.h"
#include "tensor/memory.h"
#include "util/atomic_file.h"
#include "viz/line_plot.h"
#include "viz/svg.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

// A loss with four decimals, or "-" when the run never evaluated.
std::string loss_text(const RunResult& r, bool val) {
  if (r.evals.empty()) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", val ? r.evals.back().val : r.evals.back().train);
  return buf;
}

std::string fixed(double v, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace

std::string compare_markdown(const std::vector<CompareRow>& rows, const std::string& title,
                             const std::vector<Claim>& claims) {
  std::string md = "# " + title + "\n\n"
                   "| run | attention | params | final train | final val | best val | ms/iter | "
                   "tokens/s | peak memory |\n"
                   "|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
  for (const CompareRow& row : rows) {
    const RunResult& r = row.result;
    md += "| " + row.name + " | " + row.attention + " | " + fixed(double(r.params) / 1e6, 2) +
          "M | " + loss_text(r, false) + " | " + loss_text(r, true) + " | " +
          (r.evals.empty() ? "-" : fixed(r.best_val, 4)) + " | " + fixed(r.ms_per_iter, 2) +
          " | " + fixed(r.tokens_per_s, 0) + " | " + format_mib(r.peak_bytes) + " (" +
          r.device + ") |\n";
  }
  md += "\nfinal: the last eval, at the run's last iteration; ms/iter: the mean training step, "
        "evaluation excluded; peak memory: the most bytes attic's allocator held at once.\n";
  // Runs on different tokenizations compare only per character: a token of BPE carries
  // several characters, so its loss per token is larger for the same text.
  bool tokenized = false;
  for (const CompareRow& row : rows) tokenized = tokenized || row.result.val_chars_per_token != 1.0;
  if (tokenized) {
    md += "\n| run | characters per val token | final val, bits per character | best val, bits per character |\n"
          "|---|---:|---:|---:|\n";
    for (const CompareRow& row : rows) {
      const RunResult& r = row.result;
      const double cpt = r.val_chars_per_token;
      const bool known = cpt > 0 && !r.evals.empty();
      md += "| " + row.name + " | " + (cpt > 0 ? fixed(cpt, 4) : "-") + " | " +
            (known ? fixed(r.evals.back().val / std::log(2.0) / cpt, 4) : "-") + " | " +
            (known ? fixed(r.best_val / std::log(2.0) / cpt, 4) : "-") + " |\n";
    }
    md += "\nbits per character: the val loss in nats per token / ln 2 / the characters per token of the "
          "val split, so that a char run and a BPE run compare on the same text.\n";
  }
  bool scored = false;
  for (const CompareRow& row : rows) scored = scored || row.score.has_value();
  if (scored) {
    md += "\n| run | exact match | R² | MAE | MAPE | unparsable |\n|---|---:|---:|---:|---:|---:|\n";
    for (const CompareRow& row : rows) {
      if (!row.score) continue;
      const ProductScore& s = *row.score;
      md += "| " + row.name + " | " + fixed(100.0 * double(s.exact) / double(s.n), 1) + "% | " +
            (s.parsed ? fixed(s.r2, 4) + " | " + fixed(s.mae, 0) + " | " + fixed(s.mape, 4) : "- | - | -") +
            " | " + std::to_string(s.n - s.parsed) + " of " + std::to_string(s.n) + " |\n";
    }
    md += "\nattic eval --task=digit_mul on each run: held-out problems, answers sampled at temperature 1; "
          "R², MAE and MAPE over the answers that parse.\n";
  }
  return md + claims_markdown(claims, rows);
}

json::Value compare_json(const std::vector<CompareRow>& rows, const std::string& title) {
  json::Value::Array runs;
  for (const CompareRow& row : rows) {
    json::Value v = to_json(row.result);
    v.as_object()["name"] = row.name;
    v.as_object()["attention"] = row.attention;
    if (!row.result.evals.empty()) {
      v.as_object()["final_train"] = row.result.evals.back().train;
      v.as_object()["final_val"] = row.result.evals.back().val;
    }
    if (row.score) {
      const ProductScore& s = *row.score;
      v.as_object()["digit_mul"] = json::Value::Object{
          {"n", double(s.n)}, {"parsed", double(s.parsed)}, {"exact", double(s.exact)},
          {"r2", s.r2}, {"mae", s.mae}, {"mape", s.mape}};
    }
    runs.push_back(std::move(v));
  }
  return json::Value::Object{{"title", title}, {"runs", std::move(runs)}};
}

std::string compare_svg(const std::vector<CompareRow>& rows, const std::string& title) {
  viz::Panel by_iter{{}, "loss by iteration", "iteration", "loss"};
  viz::Panel by_time{{}, "loss by training time", "training time (s)", "loss"};
  for (size_t i = 0; i < rows.size(); ++i) {
    viz::Series train_i{rows[i].name + " train", viz::series_color(i), {}, /*dashed=*/true};
    viz::Series val_i{rows[i].name + " val", viz::series_color(i), {}};
    viz::Series train_t = train_i, val_t = val_i;
    for (const EvalPoint& e : rows[i].result.evals) {
      train_i.points.emplace_back(double(e.iter), e.train);
      val_i.points.emplace_back(double(e.iter), e.val);
      train_t.points.emplace_back(e.seconds, e.train);
      val_t.points.emplace_back(e.seconds, e.val);
    }
    by_iter.series.push_back(std::move(train_i));
    by_iter.series.push_back(std::move(val_i));
    by_time.series.push_back(std::move(train_t));
    by_time.series.push_back(std::move(val_t));
  }
  return viz::panels_svg({by_iter, by_time}, title);
}

void write_compare_report(const std::string& out_dir, const std::vector<CompareRow>& rows,
                          const std::string& title, const std::vector<Claim>& claims) {
  util::write_file_atomic(out_dir + "/compare.md", compare_markdown(rows, title, claims));
  util::write_file_atomic(out_dir + "/compare.json", json::dump(compare_json(rows, title)) + "\n");
  util::write_file_atomic(out_dir + "/compare.svg", compare_svg(rows, title));
}

}  // namespace attic::lab
