// `attic bench linformer` end to end, in its JSON form: the sequence sweep gives one line per
// attention and n, with every key, and --checkpoints one line per level. Only the presence
// and shape of the figures are checked, never a timing.
#include <regex>

#include "cli/cli_helpers.h"

using namespace attic::testing;

namespace {

// The text a regex group matched, per line of `lines`.
std::vector<std::string> group(const std::vector<std::string>& lines, const std::string& pattern,
                               int g) {
  std::vector<std::string> out;
  const std::regex re(pattern);
  for (const std::string& line : lines) {
    std::smatch m;
    if (std::regex_search(line, m, re)) out.push_back(m[g].str());
  }
  return out;
}

}  // namespace

TEST_CASE("attic bench linformer --json: rows n = 4096 and 8192 per causal mode, softmax to its "
          "max, every key", "[cli][bench][linformer]") {
  // n = 4096 .. 8192 for causal none and prefix, softmax at 4096 only: about 6 s on 2 cores
  Run r = attic_run("bench linformer --max_n=8192 --softmax_max_n=4096 --json");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string row = "^\\{\"bench\": \"linformer\", \"attention\": \"(linformer|softmax)\", "
                          "\"causal\": \"(none|prefix|mask)\", \"n\": ([0-9]+), "
                          "\"fwd_ms\": [0-9]+\\.[0-9]{3}, "
                          "\"fwd_bwd_ms\": [0-9]+\\.[0-9]{3}, \"peak_bytes\": [1-9][0-9]*, "
                          "\"growth\": ([0-9]+\\.[0-9]{2})\\}$";
  const std::vector<std::string> rows = lines_matching(r.out, row);
  CHECK(rows.size() == lines_matching(r.out, ".").size());  // nothing but the rows
  REQUIRE(rows.size() == 5);
  using Texts = std::vector<std::string>;
  CHECK(group(rows, row, 1) == Texts{"linformer", "linformer", "linformer", "linformer", "softmax"});
  CHECK(group(rows, row, 2) == Texts{"none", "none", "prefix", "prefix", "mask"});
  CHECK(group(rows, row, 3) == Texts{"4096", "8192", "4096", "8192", "4096"});
  const Texts growth = group(rows, row, 4);
  // t(2n)/t(n) is 0 where there is no row at n/2
  CHECK(growth[0] == "0.00");
  CHECK(growth[1] != "0.00");
  CHECK(growth[2] == "0.00");
  CHECK(growth[3] != "0.00");

  Run bad = attic_run("bench linformer --max_n=2048");
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: bench linformer: max_n must be >= 4096 and softmax_max_n >= 0, got 2048 "
                   "and 16384\n");
}

TEST_CASE("attic bench linformer --causal=none runs only the non-causal rows", "[cli][bench][linformer]") {
  Run r = attic_run("bench linformer --max_n=4096 --softmax_max_n=0 --causal=none --json");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::vector<std::string> rows = lines_matching(r.out, ".");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].find("\"attention\": \"linformer\", \"causal\": \"none\", \"n\": 4096,") !=
        std::string::npos);

  Run bad = attic_run("bench linformer --causal=sideways");
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: bench linformer: causal must be none, prefix or both, got 'sideways'\n");
}

TEST_CASE("attic bench linformer --checkpoints --json: one row per level C0, C1, C2 with ratios to C0",
          "[cli][bench][linformer]") {
  Run r = attic_run("bench linformer --checkpoints --n=256 --json");
  INFO(r.out);
  REQUIRE(r.code == 0);
  const std::string row = "^\\{\"bench\": \"linformer\", \"level\": \"(C[0-2])\", \"n\": 256, "
                          "\"depth\": 12, "
                          "\"fwd_bwd_ms\": [0-9.]+, \"round_ms\": \\[[0-9.]+, [0-9.]+, [0-9.]+\\], "
                          "\"peak_bytes\": [1-9][0-9]*, \"memory_ratio\": ([0-9.]+), "
                          "\"time_ratio\": ([0-9.]+)\\}$";
  const std::vector<std::string> rows = lines_matching(r.out, row);
  CHECK(rows.size() == lines_matching(r.out, ".").size());
  REQUIRE(rows.size() == 3);
  CHECK(group(rows, row, 1) == std::vector<std::string>{"C0", "C1", "C2"});
  CHECK(group(rows, row, 2)[0] == "1.000");
  CHECK(group(rows, row, 3)[0] == "1.000");

  Run bad = attic_run("bench linformer --checkpoints --n=64");
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: bench linformer: n must be >= 128 (k) with --checkpoints, got 64\n");
}
