// attic compare end to end on a tiny corpus: every run trains, the table and the picture
// hold them all, a finished run is not trained again, and bad configs are one line.
#include <fstream>
#include <sstream>

#include "cli/cli_helpers.h"
#include "util/json.h"

namespace fs = std::filesystem;
using namespace attic::testing;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A tiny base config and a compare config with the given runs.
std::string write_configs(const Scratch& s, const std::string& runs) {
  std::ofstream(s.path("base.cfg"))
      << "dataset = " << s.path("corpus.txt") << "\n"
      << "n_layer = 1\nn_head = 2\nn_embd = 16\nblock_size = 16\nbatch_size = 4\n"
         "eval_iters = 2\neval_interval = 5\nmax_iters = 10\nwarmup_iters = 2\n"
         "lr_decay_iters = 10\nlearning_rate = 3e-3\nmin_lr = 3e-4\nlog_interval = 5\n"
         "threads = 1\n";
  std::ofstream(s.path("cmp.cfg")) << "base = base.cfg\nout_dir = " << s.path("cmp") << "\n"
                                   << runs;
  return s.path("cmp.cfg");
}

}  // namespace

TEST_CASE("attic compare trains each run and writes a table and a picture of them all", "[cli][compare][e2e]") {
  Scratch s;
  const std::string cfg = write_configs(s, "softmax: attention=softmax\nlinear_elu: attention=linear_elu\n");
  Run r = attic_run("compare " + cfg);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(lines_matching(r.out, "^== 1/2 softmax ").size() == 1);
  CHECK(lines_matching(r.out, "^== 2/2 linear_elu ").size() == 1);
  CHECK(lines_matching(r.out, "^peak memory: [0-9.]+ MiB \\(cpu\\)$").size() == 2);
  for (const std::string run : {"softmax", "linear_elu"}) {
    CHECK(fs::exists(s.path("cmp/" + run + "/ckpt.safetensors")));
    CHECK(fs::exists(s.path("cmp/" + run + "/loss.svg")));
    CHECK(fs::exists(s.path("cmp/" + run + "/result.json")));
  }
  const std::string md = read(s.path("cmp/compare.md"));
  CHECK(lines_matching(md, "^\\| softmax \\| softmax \\| 0\\.[0-9]+M \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| "
                           "[0-9.]+ \\| [0-9]+ \\| [0-9.]+ MiB \\(cpu\\) \\|$").size() == 1);
  CHECK(lines_matching(md, "^\\| linear_elu \\| linear_elu \\| ").size() == 1);
  CHECK(md.find("peak memory") != std::string::npos);
  const std::string svg = read(s.path("cmp/compare.svg"));
  for (const char* name : {">softmax train<", ">softmax val<", ">linear_elu train<", ">linear_elu val<"})
    CHECK(svg.find(name) != std::string::npos);
  CHECK(svg.find(">training time (s)<") != std::string::npos);
  const attic::json::Value j = attic::json::parse(read(s.path("cmp/compare.json")));
  const auto& runs = j.at("runs").as_array();
  REQUIRE(runs.size() == 2);
  CHECK(runs[1].at("name").as_string() == "linear_elu");
  CHECK(runs[1].at("evals").as_array().size() == 3);  // iterations 0, 5 and 10
  CHECK(runs[1].at("peak_memory_bytes").as_int() > 0);
  CHECK(runs[0].at("params").as_int() > 0);
  // The same report is printed at the end.
  CHECK(r.out.find("| linear_elu | linear_elu |") != std::string::npos);

  SECTION("a finished run is not trained again") {
    Run again = attic_run("compare " + cfg);
    INFO(again.out);
    REQUIRE(again.code == 0);
    CHECK(lines_matching(again.out, "^  finished before: not trained again$").size() == 2);
    CHECK(lines_matching(again.out, "^iter ").empty());
    CHECK(read(s.path("cmp/compare.md")) == md);
  }
  SECTION("a run whose config changed trains again") {
    Run changed = attic_run("compare " + cfg + " --max_iters=6");
    INFO(changed.out);
    REQUIRE(changed.code == 0);
    CHECK(lines_matching(changed.out, "was written with another config: training again$").size() == 2);
    CHECK(lines_matching(changed.out, "^done: 6 iterations").size() == 2);
  }
  SECTION("a result.json cut short or not JSON is said, and its run trains again") {
    std::ofstream(s.path("cmp/softmax/result.json"), std::ios::trunc) << "{\"params\": 12";
    std::ofstream(s.path("cmp/linear_elu/result.json"), std::ios::trunc) << "not json";
    Run again = attic_run("compare " + cfg);
    INFO(again.out);
    REQUIRE(again.code == 0);
    CHECK(lines_matching(again.out, "^  .*/cmp/softmax/result.json cannot be read \\(json: .*\\): training again$")
              .size() == 1);
    CHECK(lines_matching(again.out, "^  .*/cmp/linear_elu/result.json cannot be read ").size() == 1);
    CHECK(lines_matching(again.out, "^done: 10 iterations").size() == 2);
    CHECK(read(s.path("cmp/compare.md")) != "");
  }
}

TEST_CASE("attic compare gives every run the same seed and batches", "[cli][compare][e2e]") {
  Scratch s;
  const std::string cfg = write_configs(s, "a: attention=softmax\nb: attention=softmax\n");
  Run r = attic_run("compare " + cfg);
  INFO(r.out);
  REQUIRE(r.code == 0);
  const auto evals = [&](const std::string& run) {
    const attic::json::Value v = attic::json::parse(read(s.path("cmp/" + run + "/result.json")));
    std::vector<std::pair<double, double>> out;
    for (const auto& e : v.at("evals").as_array())
      out.emplace_back(e.as_array()[2].as_double(), e.as_array()[3].as_double());
    return out;
  };
  CHECK(evals("a").size() == 3);
  CHECK(evals("a") == evals("b"));
}

TEST_CASE("attic compare --seeds=N trains every run at N seeds and judges its claims over them",
          "[cli][compare][e2e]") {
  Scratch s;
  // b's model draws more numbers at init than a's (a wider MLP): with batches = own both still
  // train on the same batches per seed, which the identical first train loss shows.
  const std::string cfg = write_configs(s, "a: attention=softmax\nb: attention=softmax n_embd=24\n"
                                           "claim = a < b | a ends below b\n");
  Run r = attic_run("compare " + cfg + " --seeds=2");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(lines_matching(r.out, "^compare .*: 2 runs x 2 seeds into ").size() == 1);
  CHECK(lines_matching(r.out, "^== 4/4 b seed 1338 ").size() == 1);
  for (const char* dir : {"cmp/a/seed_1337", "cmp/a/seed_1338", "cmp/b/seed_1337", "cmp/b/seed_1338"})
    CHECK(fs::exists(s.path(std::string(dir) + "/result.json")));
  const std::string md = read(s.path("cmp/compare.md"));
  CHECK(lines_matching(md, "^\\| a \\| softmax \\| 0\\.[0-9]+M \\| 1337, 1338 \\| [0-9.]+ ± [0-9.]+ \\([0-9.]+–[0-9.]+\\) \\|")
            .size() == 1);
  CHECK(md.find("A claim holds when Welch's t-test") != std::string::npos);
  CHECK(lines_matching(md, "^- a ends below b \\(`a < b`\\): .* \\(2 seeds each\\): \\*\\*(holds|fails|inconclusive)\\*\\*")
            .size() == 1);
  CHECK(read(s.path("cmp/compare.svg")).find("<polygon") != std::string::npos);
  const auto first_train_loss = [&](const std::string& dir) {
    const attic::json::Value v = attic::json::parse(read(s.path(dir + "/result.json")));
    return v.at("evals").as_array()[1].as_array()[2].as_double();  // the eval at iteration 5
  };
  CHECK(first_train_loss("cmp/a/seed_1337") != first_train_loss("cmp/a/seed_1338"));

  SECTION("a claim on runs cut short by --max_iters is inconclusive") {
    Run cut = attic_run("compare " + cfg + " --seeds=2 --max_iters=4");
    INFO(cut.out);
    REQUIRE(cut.code == 0);
    CHECK(cut.out.find("**inconclusive**: a trained 4 iterations, fewer than the 10 its config asks for") !=
          std::string::npos);
  }
  SECTION("runs already trained at a seed are not trained again") {
    Run again = attic_run("compare " + cfg + " --seeds=2");
    REQUIRE(again.code == 0);
    CHECK(lines_matching(again.out, "^  finished before: not trained again$").size() == 4);
  }
  SECTION("--seeds must be a count") {
    Run bad = attic_run("compare " + cfg + " --seeds=0");
    CHECK(bad.code == 2);
    CHECK(bad.out == "attic: compare: --seeds: seeds must be a whole number from 1 to 100, got '0'\n");
  }
}

TEST_CASE("attic compare --out_dir=DIR trains and reports in DIR instead of the config's out_dir",
          "[cli][compare][e2e]") {
  Scratch s;
  const std::string cfg = write_configs(s, "a: attention=softmax\nb: attention=linear_elu\n");
  Run r = attic_run("compare " + cfg + " --out_dir=" + s.path("elsewhere") + " --max_iters=4");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(lines_matching(r.out, "^compare .*: 2 runs into .*elsewhere$").size() == 1);
  for (const char* file : {"elsewhere/a/result.json", "elsewhere/b/result.json", "elsewhere/compare.md",
                           "elsewhere/compare.svg"})
    CHECK(fs::exists(s.path(file)));
  CHECK_FALSE(fs::exists(s.path("cmp")));

  Run empty = attic_run("compare " + cfg + " --out_dir=");
  CHECK(empty.code == 2);
  CHECK(empty.out == "attic: compare: --out_dir is empty\n");
}

TEST_CASE("attic compare rejects a bad config with one line and exit code 2", "[cli][compare][e2e]") {
  Scratch s;
  Run unknown = attic_run("compare " + write_configs(s, "a: attention=softmax\nb: attention=flash\n"));
  CHECK(unknown.code == 2);
  CHECK(unknown.out == "attic: attention must be softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route, got 'flash'\n");
  CHECK_FALSE(fs::exists(s.path("cmp/a")));  // checked before the first run trains

  Run missing = attic_run("compare " + s.path("nothere.cfg"));
  CHECK(missing.code == 2);
  CHECK(lines_matching(missing.out, "^attic: compare: cannot read config file").size() == 1);

  Run none = attic_run("compare");
  CHECK(none.code == 2);
  CHECK(lines_matching(none.out, "expected a compare config file first").size() == 1);

  Run help = attic_run("compare --help");
  CHECK(help.code == 0);
  CHECK(help.out.find("usage: attic compare CONFIG") != std::string::npos);
}
