#include "lab/analyze_entropy.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>

#include "util/command_line.h"
#include "lab/eval_digit_mul.h"
#include "util/files.h"
#include "train/restore.h"
#include "models/gpt.h"
#include "lab/renyi_entropy.h"
#include "tensor/threads.h"
#include "util/atomic_file.h"
#include "viz/line_plot.h"
#include "viz/svg.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

namespace fs = std::filesystem;

struct Model {
  std::string name;  // the out_dir's last folder
  Restored restored;
  models::GPT* gpt = nullptr;
};

// One prompt set's result for one model: S[i] holds block i's entropies over the prompts.
struct SetResult {
  std::string set;  // "T = 9", ...
  std::string model;
  std::vector<std::vector<double>> s;
};

std::pair<double, double> mean_std(const std::vector<double>& v) {
  double m = 0, q = 0;
  for (double x : v) m += x;
  m /= double(v.size());
  for (double x : v) q += (x - m) * (x - m);
  return {m, v.size() > 1 ? std::sqrt(q / double(v.size() - 1)) : 0.0};
}

// "30,100" -> {30, 100}
std::vector<int64_t> parse_lengths(const std::string& text) {
  std::vector<int64_t> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    char* end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    ATTIC_CHECK(!item.empty() && *end == '\0' && v > 0 && v <= 100000,
                "analyze entropy: extend must list positive token counts like 30,100, got '", text, "'");
    out.push_back(v);
  }
  return out;
}

// The n short prompts as text: "a*b" problems of the dataset's digits, or windows of the
// val split of length 9 when the dataset is not digit multiplication.
std::vector<std::string> short_prompts(const TextDataset& data, int64_t n, uint64_t seed) {
  Generator gen{seed};
  std::vector<std::string> out;
  const int64_t digits = dataset_digits(data);
  if (digits > 0) {
    const int64_t low = digit_mul_low(digits);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t a = gen.randint(low, 10 * low), b = gen.randint(low, 10 * low);
      out.push_back(std::to_string(a) + "*" + std::to_string(b));
    }
    return out;
  }
  const Tensor& val = data.data(Split::Val);
  ATTIC_CHECK(val.numel() > 9, "analyze entropy: the val split has ", val.numel(), " tokens; it needs more than 9");
  for (int64_t i = 0; i < n; ++i) {
    const int64_t at = gen.randint(0, val.numel() - 9);
    out.push_back(data.tokenizer().decode(val.narrow(0, at, 9).to_vector<int64_t>()));
  }
  return out;
}

}  // namespace

int analyze_entropy(const std::vector<std::string>& args) {
  std::vector<std::string> out_dirs, rest;
  for (const std::string& a : args) {
    if (a.rfind("--out_dir=", 0) == 0) out_dirs.push_back(a.substr(10));
    else rest.push_back(a);
  }
  bool centered = false;
  double alpha = 0.99;
  int64_t n = 500, n_long = 100, seed = 1, threads = 0;
  std::string extend = "30,100", svg;
  Options opts;
  opts.bind("centered", centered, "centre the tokens and scale each to unit length first");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  opts.bind("alpha", alpha, "the Rényi order α (the fork's notebook: 0.99)")
      .float_range(0, std::numeric_limits<double>::infinity(), /*lo_open=*/true);
  opts.bind("n", n, "short prompts").int_range(1, kMax);
  opts.bind("n_long", n_long, "prompts extended by the model's own samples (at most n)").int_range(0, kMax);
  opts.bind("extend", extend, "sampled tokens added for each long set, comma-separated");
  opts.bind("seed", seed, "draws the prompts, then the samples").int_range(0, kMax);
  opts.bind("svg", svg, "the picture's path (default: entropy.svg, or entropy_centered.svg, in the "
            "first out_dir's parent folder); the table goes beside it as .md");
  opts.bind("threads", threads, "CPU threads (0: all)").int_range(0, kMaxThreads);
  std::ostringstream quiet;
  if (!parse_command_line(opts, rest, "usage: attic analyze entropy --out_dir=DIR [--out_dir=DIR ...] "
                          "[--key=value ...]\nGive --out_dir once per checkpoint.", quiet))
    return 0;
  ATTIC_CHECK(!out_dirs.empty(), "analyze entropy: give at least one --out_dir=DIR");
  for (const std::string& dir : out_dirs)
    ATTIC_CHECK(!dir.empty(), "analyze entropy: an --out_dir is empty; give --out_dir=DIR");
  bool n_long_given = false;
  for (const auto& [k, v] : opts.assigned()) n_long_given = n_long_given || k == "n_long";
  if (!n_long_given) n_long = std::min(n_long, n);
  ATTIC_CHECK(alpha > 0, "analyze entropy: alpha must be positive, got ", alpha);
  ATTIC_CHECK(n >= 1 && n_long >= 0 && n_long <= n, "analyze entropy: need n >= 1 and 0 <= n_long <= n, got n ",
              n, " and n_long ", n_long);
  ATTIC_CHECK(seed >= 0, "analyze entropy: seed must be >= 0, got ", seed);
  const std::vector<int64_t> lengths = extend.empty() ? std::vector<int64_t>{} : parse_lengths(extend);
  if (threads > 0) set_num_threads(int(threads));
  if (svg.empty()) {
    const fs::path first = fs::path(out_dirs[0]).lexically_normal();
    const fs::path parent = (first.has_filename() ? first : first.parent_path()).parent_path();
    svg = (parent / (centered ? "entropy_centered.svg" : "entropy.svg")).string();
  }
  check_output_file(svg, "the picture (--svg)");
  // The table goes beside the picture, as .md: a picture named .md would be overwritten by it.
  const std::string md = fs::path(svg).replace_extension(".md").string();
  ATTIC_CHECK(md != svg, "analyze entropy: --svg=", svg, " is where the table goes (the picture's "
              "name with .md); name the picture .svg");
  check_output_file(md, "the table (--svg with .md)");

  std::vector<Model> models;
  for (const std::string& dir : out_dirs) {
    Model m;
    const fs::path p = fs::path(dir).lexically_normal();
    m.name = (p.has_filename() ? p : p.parent_path()).filename().string();
    m.restored = restore(dir);
    m.gpt = dynamic_cast<models::GPT*>(&*m.restored.model);
    ATTIC_CHECK(m.gpt != nullptr, "analyze entropy: the checkpoint in ", dir, " is model = ",
                m.restored.config.model, "; the entropy reads a GPT's blocks");
    models.push_back(std::move(m));
  }
  const TextDataset data = TextDataset::from_name(models[0].restored.config.dataset_path());
  const std::vector<std::string> prompts = short_prompts(data, n, uint64_t(seed));

  std::vector<SetResult> results;
  std::vector<std::string> sets;
  for (Model& m : models) {
    std::vector<int64_t> ids;
    const std::string& dir = out_dirs[size_t(&m - models.data())];
    for (const std::string& p : prompts) {
      // The prompts come from the first checkpoint's dataset; every model must read them.
      const std::vector<int64_t> e = [&] {
        try {
          return m.restored.tokenizer->encode(p);
        } catch (const Error& err) {
          fail("analyze entropy: the prompts, drawn from the dataset of ", out_dirs[0], ", are not in the vocabulary of ",
               dir, "'s checkpoint (", err.what(), "); give checkpoints trained on the same text");
        }
      }();
      ids.insert(ids.end(), e.begin(), e.end());
    }
    const int64_t T0 = int64_t(ids.size()) / n;
    ATTIC_CHECK(T0 <= m.restored.config.block_size, "analyze entropy: the short prompts are ", T0,
                " tokens, longer than the block_size ", m.restored.config.block_size, " of ", dir,
                "'s checkpoint; give checkpoints of block_size >= ", T0);
    const Tensor short_ids = from_vector(ids, {n, T0});
    Generator gen{uint64_t(seed) + 1};
    std::vector<std::pair<std::string, Tensor>> todo = {{"T = " + std::to_string(T0), short_ids}};
    for (int64_t extra : lengths) {
      if (n_long == 0) break;
      const std::string set = "T = " + std::to_string(T0 + extra);
      if (T0 + extra > m.restored.config.block_size) {
        std::cout << m.name << ": " << set << " skipped, longer than block_size "
                  << m.restored.config.block_size << "\n";
        continue;
      }
      todo.emplace_back(set, m.gpt->generate(short_ids.narrow(0, 0, n_long), extra, 1.0, 0, &gen));
    }
    for (auto& [set, batch] : todo) {
      if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(set);
      results.push_back({set, m.name, block_entropies(*m.gpt, batch, alpha, centered)});
    }
  }

  // The table: one row per (set, model), "mean ± spread" per block.
  std::ostringstream table;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4g", alpha);
  table << "Rényi entropy S_" << buf << " of each block's output" << (centered ? " (tokens centred and normalized)" : "")
        << ", mean ± standard deviation over the prompts\n\n| set | model |";
  size_t n_blocks = 0;
  for (const SetResult& r : results) n_blocks = std::max(n_blocks, r.s.size());
  for (size_t i = 0; i < n_blocks; ++i) table << " block " << i << " |";
  table << "\n|---|---|";
  for (size_t i = 0; i < n_blocks; ++i) table << "---:|";
  table << "\n";
  for (const std::string& set : sets)
    for (const SetResult& r : results) {
      if (r.set != set) continue;
      table << "| " << set << " (" << r.s[0].size() << ") | " << r.model << " |";
      for (const auto& layer : r.s) {
        const auto [mean, sd] = mean_std(layer);
        std::snprintf(buf, sizeof buf, " %.3f ± %.3f |", mean, sd);
        table << buf;
      }
      table << "\n";
    }
  std::cout << table.str();

  std::vector<viz::Panel> panels;
  for (const std::string& set : sets) {
    viz::Panel p{{}, set, "block", "Rényi entropy"};
    for (size_t k = 0; k < models.size(); ++k)
      for (const SetResult& r : results) {
        if (r.set != set || r.model != models[k].name) continue;
        viz::Series s{r.model, viz::series_color(k), {}};
        for (size_t i = 0; i < r.s.size(); ++i) s.points.emplace_back(double(i), mean_std(r.s[i]).first);
        p.series.push_back(std::move(s));
      }
    panels.push_back(std::move(p));
  }
  std::snprintf(buf, sizeof buf, "%.4g", alpha);
  util::write_file_atomic(svg, viz::panels_svg(panels, std::string("Rényi entropy (α = ") + buf +
                                                          ") of each block's output" +
                                                          (centered ? ", centred" : ""), 420, 360));
  util::write_file_atomic(md, table.str());
  std::cout << "wrote " << svg << " and " << md << "\n";
  return 0;
}

}  // namespace attic::lab
