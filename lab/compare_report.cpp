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

// Whether some run has more than one row: a compare with seeds.
bool seeded(const std::vector<CompareRow>& rows) { return run_names(rows).size() < rows.size(); }

// A row's name in the per-seed tables: "route", or "route (seed 1338)" with seeds.
std::string row_label(const CompareRow& row, bool with_seed) {
  return with_seed ? row.name + " (seed " + std::to_string(row.seed) + ")" : row.name;
}

// "1.9012 ± 0.0100 (1.8900–1.9120)": the mean ± sd over the seeds, and their range.
std::string spread_text(const std::vector<double>& x, int decimals, double scale = 1) {
  if (x.empty()) return "-";
  const Spread s = spread(x);
  return fixed(s.mean / scale, decimals) + " ± " + fixed(s.sd / scale, decimals) + " (" + fixed(s.min / scale, decimals) +
         "–" + fixed(s.max / scale, decimals) + ")";
}

// The tables of digit_mul scores and of bits per character, with one row per run and seed.
std::string per_seed_tables(const std::vector<CompareRow>& rows, bool with_seed);

// The table of a compare with seeds: one row per run, each number over its seeds.
std::string spread_table(const std::vector<CompareRow>& rows) {
  std::string md = "| run | attention | params | seeds | final train | final val | best val | ms/iter | "
                   "tokens/s | peak memory (MiB) |\n"
                   "|---|---|---:|---|---:|---:|---:|---:|---:|---:|\n";
  for (const std::string& name : run_names(rows)) {
    const std::vector<const CompareRow*> seeds = rows_of(rows, name);
    std::vector<double> train, val, best, ms, tps, mem;
    std::string seed_list;
    for (const CompareRow* row : seeds) {
      const RunResult& r = row->result;
      seed_list += (seed_list.empty() ? "" : ", ") + std::to_string(row->seed);
      if (!r.evals.empty()) {
        train.push_back(r.evals.back().train);
        val.push_back(r.evals.back().val);
        best.push_back(r.best_val);
      }
      ms.push_back(r.ms_per_iter);
      tps.push_back(r.tokens_per_s);
      mem.push_back(double(r.peak_bytes));
    }
    const RunResult& first = seeds.front()->result;
    md += "| " + name + " | " + seeds.front()->attention + " | " + fixed(double(first.params) / 1e6, 2) + "M | " +
          seed_list + " | " + spread_text(train, 4) + " | " + spread_text(val, 4) + " | " + spread_text(best, 4) +
          " | " + spread_text(ms, 2) + " | " + spread_text(tps, 0) + " | " + spread_text(mem, 1, 1024.0 * 1024.0) +
          " |\n";
  }
  return md + "\neach number: the mean ± standard deviation over the run's seeds, then the least–greatest; "
              "final: the last eval; ms/iter: the mean training step, evaluation excluded; peak memory: the "
              "most bytes attic's allocator held at once.\n";
}

}  // namespace

std::string compare_markdown(const std::vector<CompareRow>& rows, const std::string& title,
                             const std::vector<Claim>& claims) {
  const bool with_seed = seeded(rows);
  if (with_seed) return "# " + title + "\n\n" + spread_table(rows) + per_seed_tables(rows, true) +
                        claims_markdown(claims, rows);
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
  return md + per_seed_tables(rows, false) + claims_markdown(claims, rows);
}

namespace {

std::string per_seed_tables(const std::vector<CompareRow>& rows, bool with_seed) {
  std::string md;
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
      md += "| " + row_label(row, with_seed) + " | " + (cpt > 0 ? fixed(cpt, 4) : "-") + " | " +
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
      md += "| " + row_label(row, with_seed) + " | " + fixed(100.0 * double(s.exact) / double(s.n), 1) + "% | " +
            (s.parsed ? fixed(s.r2, 4) + " | " + fixed(s.mae, 0) + " | " + fixed(s.mape, 4) : "- | - | -") +
            " | " + std::to_string(s.n - s.parsed) + " of " + std::to_string(s.n) + " |\n";
    }
    md += "\nattic eval --task=digit_mul on each run: held-out problems, answers sampled at temperature 1; "
          "R², MAE and MAPE over the answers that parse.\n";
  }
  return md;
}

}  // namespace

json::Value compare_json(const std::vector<CompareRow>& rows, const std::string& title) {
  json::Value::Array runs;
  for (const CompareRow& row : rows) {
    json::Value v = to_json(row.result);
    v.as_object()["name"] = row.name;
    v.as_object()["attention"] = row.attention;
    v.as_object()["seed"] = row.seed;
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

namespace {

// Each run's train (dashed) and val curve, by iteration and by training time. With seeds,
// the curves are the means over a run's seeds, at the evals all its seeds reached, and the val
// curve lies in a band from the least to the greatest seed's.
std::string curves_svg(const std::vector<CompareRow>& rows, const std::string& title, bool with_seed) {
  const std::string over = with_seed ? " (mean over seeds, band: least to greatest val)" : "";
  viz::Panel by_iter{{}, "loss by iteration" + over, "iteration", "loss"};
  viz::Panel by_time{{}, std::string("loss by training time") + (with_seed ? " (mean over seeds)" : ""),
                     "training time (s)", "loss"};
  const std::vector<std::string> names = run_names(rows);
  for (size_t i = 0; i < names.size(); ++i) {
    const std::vector<const CompareRow*> seeds = rows_of(rows, names[i]);
    size_t evals = seeds.front()->result.evals.size();
    for (const CompareRow* row : seeds) evals = std::min(evals, row->result.evals.size());
    viz::Series train_i{names[i] + " train", viz::series_color(i), {}, /*dashed=*/true};
    viz::Series val_i{names[i] + " val", viz::series_color(i), {}};
    viz::Series train_t = train_i, val_t = val_i;
    for (size_t e = 0; e < evals; ++e) {
      std::vector<double> train, val, secs;
      for (const CompareRow* row : seeds) {
        train.push_back(row->result.evals[e].train);
        val.push_back(row->result.evals[e].val);
        secs.push_back(row->result.evals[e].seconds);
      }
      const double iter = double(seeds.front()->result.evals[e].iter);
      const Spread t = spread(train), v = spread(val), s = spread(secs);
      train_i.points.emplace_back(iter, t.mean);
      val_i.points.emplace_back(iter, v.mean);
      if (seeds.size() > 1) val_i.band.emplace_back(v.min, v.max);
      train_t.points.emplace_back(s.mean, t.mean);
      val_t.points.emplace_back(s.mean, v.mean);
    }
    by_iter.series.push_back(std::move(train_i));
    by_iter.series.push_back(std::move(val_i));
    by_time.series.push_back(std::move(train_t));
    by_time.series.push_back(std::move(val_t));
  }
  return viz::panels_svg({by_iter, by_time}, title);
}

}  // namespace

std::string compare_svg(const std::vector<CompareRow>& rows, const std::string& title) {
  return curves_svg(rows, title, seeded(rows));
}

void write_compare_report(const std::string& out_dir, const std::vector<CompareRow>& rows,
                          const std::string& title, const std::vector<Claim>& claims) {
  util::write_file_atomic(out_dir + "/compare.md", compare_markdown(rows, title, claims));
  util::write_file_atomic(out_dir + "/compare.json", json::dump(compare_json(rows, title)) + "\n");
  util::write_file_atomic(out_dir + "/compare.svg", compare_svg(rows, title));
}

}  // namespace attic::lab
