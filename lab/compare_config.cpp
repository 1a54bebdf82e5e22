#include "lab/compare_config.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "util/files.h"
#include "tensor/error.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

bool valid_name(const std::string& name) {
  if (name.empty()) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
      return false;
  return name != "." && name != "..";
}

}  // namespace

int64_t parse_seeds(const std::string& text, const std::string& where) {
  char* end = nullptr;
  const long long n = std::strtoll(text.c_str(), &end, 10);
  ATTIC_CHECK(!text.empty() && end != text.c_str() && *end == '\0' && n >= 1 && n <= 100, "compare: ", where,
              ": seeds must be a whole number from 1 to 100, got '", text, "'");
  return n;
}

CompareConfig CompareConfig::from_file(const std::string& path) {
  std::string text;
  try {
    text = read_text_file(path, "config file");
  } catch (const Error& e) {
    fail("compare: ", e.what());
  }
  return from_text(text, path);
}

CompareConfig CompareConfig::from_text(const std::string& text, const std::string& path) {
  CompareConfig c;
  c.path = path;
  std::set<std::string> names;
  std::istringstream in(config_text(text, path));
  int lineno = 0;
  for (std::string raw; std::getline(in, raw);) {
    ++lineno;
    const std::string line = trim_blanks(strip_comment(raw));
    if (line.empty()) {
      c.common += "\n";
      continue;
    }
    const size_t colon = line.find(':'), eq = line.find('=');
    if (colon != std::string::npos && (eq == std::string::npos || colon < eq)) {
      // NAME: key=value key=value ...
      CompareRun run{trim_blanks(line.substr(0, colon)), {}};
      ATTIC_CHECK(valid_name(run.name), path, ":", lineno, ": a run's name must be letters, digits, ",
                  "'_', '-' or '.', got '", run.name, "'");
      ATTIC_CHECK(names.insert(run.name).second, path, ":", lineno, ": run '", run.name,
                  "' is named twice");
      std::istringstream words(line.substr(colon + 1));
      for (std::string w; words >> w;) {
        const size_t e = w.find('=');
        ATTIC_CHECK(e != std::string::npos && e > 0, path, ":", lineno,
                    ": expected key=value after '", run.name, ":', got '", w, "'");
        run.overrides.emplace_back(w.substr(0, e), w.substr(e + 1));
      }
      c.runs.push_back(std::move(run));
      c.common += "\n";  // common keeps one line per line of the file: errors name the right one
      continue;
    }
    ATTIC_CHECK(eq != std::string::npos, path, ":", lineno,
                ": expected 'key = value' or 'NAME: key=value ...', got '", line, "'");
    const std::string key = trim_blanks(line.substr(0, eq));
    const std::string value = unquote(trim_blanks(line.substr(eq + 1)));
    if (key == "base") {
      c.base = (std::filesystem::path(path).parent_path() / value).lexically_normal().string();
    } else if (key == "out_dir") {
      c.out_dir = value;
    } else if (key == "task") {
      ATTIC_CHECK(value == "digit_mul", path, ":", lineno, ": task must be digit_mul, got '", value, "'");
      c.task = value;
    } else if (key == "claim") {
      c.claims.push_back(parse_claim(value));
    } else if (key == "seeds") {
      c.seeds = parse_seeds(value, path + ":" + std::to_string(lineno));
    }
    const bool own = key == "base" || key == "out_dir" || key == "task" || key == "claim" || key == "seeds";
    c.common += (own ? std::string() : raw) + "\n";
  }
  ATTIC_CHECK(!c.base.empty(), "compare: ", path, " names no base config (base = FILE)");
  ATTIC_CHECK(!c.runs.empty(), "compare: ", path, " lists no runs (NAME: key=value ...)");
  ATTIC_CHECK(!c.out_dir.empty(), "compare: ", path, ": out_dir is empty");
  for (const Claim& claim : c.claims) {
    for (const std::string& run : {claim.lhs_run, claim.rhs_run})
      ATTIC_CHECK(names.count(run) == 1, "compare: ", path, ": claim '", claim.expr(), "' names run '", run,
                  "', which the config does not list");
    for (const std::string& m : {claim.lhs_metric, claim.rhs_metric})
      ATTIC_CHECK(c.task == "digit_mul" || !(m == "exact" || m == "r2" || m == "mae" || m == "mape"), "compare: ",
                  path, ": claim '", claim.expr(), "' reads ", m, ", which needs task = digit_mul");
  }
  return c;
}

std::string CompareConfig::run_dir(size_t i, int64_t seed) const {
  return out_dir + "/" + runs.at(i).name + (seeds > 1 ? "/seed_" + std::to_string(seed) : "");
}

// Run i's config as its compare file gives it, before the command line's flags.
static TrainConfig unflagged_config(const CompareConfig& c, size_t i) {
  CompareConfig own = c;
  own.flags.clear();
  TrainConfig cfg;
  const Options opts = own.run_config(i, cfg);
  return cfg;
}

int64_t CompareConfig::config_iters(size_t i) const {
  const TrainConfig cfg = unflagged_config(*this, i);
  return cfg.max_epochs > 0 ? 0 : cfg.max_iters;
}

int64_t CompareConfig::config_epochs(size_t i) const { return unflagged_config(*this, i).max_epochs; }

Options CompareConfig::run_config(size_t i, TrainConfig& cfg, int64_t k) const {
  const CompareRun& run = runs.at(i);
  Options opts;
  cfg.bind(opts);
  std::ostringstream quiet;
  opts.load_file(base, quiet);
  opts.set("batches", "own");  // the same batches for every run of a seed; a config may say shared
  opts.load_text(common, path, nullptr);
  for (const std::string& f : flags) {
    ATTIC_CHECK(f.rfind("--out_dir", 0) != 0,
                "compare: out_dir is the compare's folder; set it with --out_dir=DIR or in the compare config");
    opts.apply_flag(f, quiet);
  }
  for (const auto& [key, value] : run.overrides) {
    ATTIC_CHECK(key != "out_dir", "compare: run '", run.name,
                "' sets out_dir; each run trains in out_dir/NAME");
    try {
      opts.set(key, unquote(value));
    } catch (const Error& e) {
      fail("compare: run '", run.name, "': ", e.what());
    }
  }
  if (k > 0) opts.set("seed", std::to_string(cfg.seed + k));
  cfg.out_dir = run_dir(i, cfg.seed);
  ATTIC_CHECK(cfg.init_from == "scratch", "compare: run '", run.name,
              "' has init_from = ", cfg.init_from, "; a compare trains every run from scratch");
  cfg.validate();
  return opts;
}

}  // namespace attic::lab
