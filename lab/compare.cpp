// attic compare CONFIG: trains each run of a compare config in turn (lab/compare_config.h),
// with the same data, seed and batches, and writes a table and a picture of them all.
//
//   attic compare config/compare_attention.cfg [--seeds=N] [--key=value ...]
//
// Each run trains in OUT/NAME (its checkpoint, loss.svg and result.json), or with N seeds in
// OUT/NAME/seed_S for each of its seeds S, S + 1, ..., S + N - 1; OUT gets
// compare.md, compare.json and compare.svg, rewritten after every run. A run whose
// result.json records the same config is not trained again, so a compare that was stopped
// goes on where it stopped; a run that was cut off trains again from the start. With
// task = digit_mul each run is then scored on held-out problems, and the config's claims
// are checked against the numbers (lab/compare_claims.h).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "lab/commands.h"
#include "lab/compare_config.h"
#include "lab/compare_report.h"
#include "lab/eval_digit_mul.h"
#include "train/restore.h"
#include "lab/run_result_json.h"
#include "train/train_run.h"
#include "util/atomic_file.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

const char* kCompareUsage =
    "usage: attic compare CONFIG [--seeds=N] [--out_dir=DIR] [--key=value ...]\n"
    "  CONFIG names a base train config and runs, one per line:\n"
    "    base = shakespeare_char_cpu.cfg   (relative to CONFIG's folder)\n"
    "    out_dir = out-compare             (run NAME trains in out_dir/NAME)\n"
    "    softmax: attention=softmax        (NAME: key=value ...)\n"
    "    seeds = 3                         (each run with 3 seeds, in out_dir/NAME/seed_S)\n"
    "    claim = softmax < linear_elu | .. (judged over the seeds: holds, fails or inconclusive)\n"
    "  --seeds=N replaces the config's seeds; each run trains with its seed S, S + 1, ..., S + N - 1,\n"
    "  and every run of one seed on the same batches.\n"
    "  --out_dir=DIR replaces the config's out_dir: the runs train in DIR/NAME, and the table and\n"
    "  the picture go to DIR (a --seeds=N compare beside the one-seed runs of the same config).\n"
    "  --key=value flags apply to every run; a run's own keys win over them.\n";

// The run's result.json when it holds `config`, the config this run would train now. A
// result.json that cannot be read (cut short, edited, not JSON) is said and trained again,
// as one of another config is: it is the compare's own record, rewritten when the run ends.
std::optional<RunResult> finished_result(const std::string& dir, const std::string& config) {
  const std::string path = dir + "/result.json";
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  try {
    const json::Value v = json::parse(text.str());
    const json::Value* recorded = v.find("config");
    if (!recorded || !recorded->is_string() || recorded->as_string() != config) {
      std::cout << "  " << path << " was written with another config: training again\n";
      return std::nullopt;
    }
    return run_result_from_json(v, path);
  } catch (const Error& e) {
    std::cout << "  " << path << " cannot be read (" << e.what() << "): training again\n";
    return std::nullopt;
  }
}

}  // namespace

int compare(const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << kCompareUsage;
    return 0;
  }
  ATTIC_CHECK(!args.empty() && args[0].rfind("--", 0) != 0,
              "compare: expected a compare config file first (attic compare CONFIG "
              "[--key=value ...])");
  CompareConfig c = CompareConfig::from_file(args[0]);
  for (size_t a = 1; a < args.size(); ++a) {
    if (args[a].rfind("--seeds=", 0) == 0) {
      c.seeds = parse_seeds(args[a].substr(8), "--seeds");
    } else if (args[a].rfind("--out_dir=", 0) == 0) {
      c.out_dir = args[a].substr(10);
      ATTIC_CHECK(!c.out_dir.empty(), "compare: --out_dir is empty");
    } else {
      c.flags.push_back(args[a]);
    }
  }

  // Every run's config, at every seed, is built and checked before the first trains: a typo
  // in the last run fails now, not after an hour.
  struct Job {
    size_t run;
    std::unique_ptr<TrainConfig> cfg;
    Options opts;
    int64_t config_iters, config_epochs;
  };
  std::vector<Job> jobs;
  for (size_t i = 0; i < c.runs.size(); ++i) {
    const int64_t config_iters = c.config_iters(i), config_epochs = c.config_epochs(i);
    for (int64_t k = 0; k < c.seeds; ++k) {
      auto cfg = std::make_unique<TrainConfig>();
      Options o = c.run_config(i, *cfg, k);
      jobs.push_back({i, std::move(cfg), std::move(o), config_iters, config_epochs});
    }
  }
  const size_t n = jobs.size();
  std::filesystem::create_directories(c.out_dir);
  const std::string title = "attic compare " + std::filesystem::path(c.path).filename().string();
  std::cout << "compare " << c.path << ": " << c.runs.size() << " runs"
            << (c.seeds > 1 ? " x " + std::to_string(c.seeds) + " seeds" : "") << " into " << c.out_dir << "\n";

  std::vector<CompareRow> rows;
  for (size_t j = 0; j < n; ++j) {
    const size_t i = jobs[j].run;
    const TrainConfig& cfg = *jobs[j].cfg;
    const std::string label = std::to_string(j + 1) + "/" + std::to_string(n) + " " + c.runs[i].name +
                              (c.seeds > 1 ? " seed " + std::to_string(cfg.seed) : "");
    const std::string config = jobs[j].opts.dump();
    std::cout << "== " << label << " (" << cfg.out_dir << ")\n" << std::flush;
    std::optional<RunResult> result = finished_result(cfg.out_dir, config);
    if (result) {
      std::cout << "  finished before: not trained again\n";
    } else {
      result = train_run(cfg, jobs[j].opts, {label});
      json::Value v = to_json(*result);
      v.as_object()["config"] = config;
      util::write_file_atomic(cfg.out_dir + "/result.json", json::dump(v) + "\n");
    }
    const std::string options = cfg.block_attention_options();
    const std::string attention = (cfg.model == "gpt" ? "" : cfg.model + " LM, ") +
                                  cfg.block_attention() + (options.empty() ? "" : "(" + options + ")");
    rows.push_back({c.runs[i].name, attention, std::move(*result), std::nullopt, cfg.seed, jobs[j].config_iters,
                    jobs[j].config_epochs});
    if (c.task == "digit_mul") {
      Restored r = restore(cfg.out_dir);
      const TextDataset data = TextDataset::from_name(r.config.dataset_path());
      rows.back().score = eval_digit_mul(r, data, DigitMulEval{});
    }
    write_compare_report(c.out_dir, rows, title, c.claims);
  }
  std::cout << "\n" << compare_markdown(rows, title, c.claims) << "\nwrote " << c.out_dir << "/compare.md, "
            << c.out_dir << "/compare.json and " << c.out_dir << "/compare.svg\n";
  return 0;
}

}  // namespace attic::lab
