// attic compare CONFIG: trains each run of a compare config in turn (lab/compare_config.h),
// with the same data, seed and batches, and writes a table and a picture of them all.
//
//   attic compare config/compare_attention.cfg [--key=value ...]
//
// Each run trains in OUT/NAME (its checkpoint, loss.svg and result.json); OUT gets
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
    "usage: attic compare CONFIG [--key=value ...]\n"
    "  CONFIG names a base train config and runs, one per line:\n"
    "    base = shakespeare_char_cpu.cfg   (relative to CONFIG's folder)\n"
    "    out_dir = out-compare             (run NAME trains in out_dir/NAME)\n"
    "    softmax: attention=softmax        (NAME: key=value ...)\n"
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
  c.flags.assign(args.begin() + 1, args.end());

  // Every run's config is built and checked before the first trains: a typo in the last
  // run fails now, not after an hour.
  const size_t n = c.runs.size();
  std::vector<std::unique_ptr<TrainConfig>> cfgs;
  std::vector<Options> opts;
  for (size_t i = 0; i < n; ++i) {
    cfgs.push_back(std::make_unique<TrainConfig>());
    opts.push_back(c.run_config(i, *cfgs.back()));
  }
  std::filesystem::create_directories(c.out_dir);
  const std::string title = "attic compare " + std::filesystem::path(c.path).filename().string();
  std::cout << "compare " << c.path << ": " << n << " runs into " << c.out_dir << "\n";

  std::vector<CompareRow> rows;
  for (size_t i = 0; i < n; ++i) {
    const TrainConfig& cfg = *cfgs[i];
    const std::string label = std::to_string(i + 1) + "/" + std::to_string(n) + " " + c.runs[i].name;
    const std::string config = opts[i].dump();
    std::cout << "== " << label << " (" << cfg.out_dir << ")\n" << std::flush;
    std::optional<RunResult> result = finished_result(cfg.out_dir, config);
    if (result) {
      std::cout << "  finished before: not trained again\n";
    } else {
      result = train_run(cfg, opts[i], {label});
      json::Value v = to_json(*result);
      v.as_object()["config"] = config;
      util::write_file_atomic(cfg.out_dir + "/result.json", json::dump(v) + "\n");
    }
    const std::string options = cfg.block_attention_options();
    const std::string attention = (cfg.model == "gpt" ? "" : cfg.model + " LM, ") +
                                  cfg.block_attention() + (options.empty() ? "" : "(" + options + ")");
    rows.push_back({c.runs[i].name, attention, std::move(*result), std::nullopt});
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
