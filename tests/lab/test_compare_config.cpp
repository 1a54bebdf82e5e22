// The compare config: runs, the keys every run takes, and which of them wins.
#include "tests/catch.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include "lab/compare_config.h"
#include "models/registry.h"
#include "cli/cli_helpers.h"

using attic::lab::CompareConfig;
using attic::util::Options;
using attic::train::TrainConfig;

namespace {

// A compare config beside a base config in a scratch folder.
struct Files : attic::testing::Scratch {
  Files() {
    std::ofstream(dir / "base.cfg") << "n_layer = 2\nn_embd = 32\nn_head = 2\nmax_iters = 100\n"
                                       "eval_interval = 50\nattention = softmax\n";
  }
  CompareConfig parse(const std::string& text) {
    std::ofstream(dir / "cmp.cfg") << text;
    return CompareConfig::from_file(path("cmp.cfg"));
  }
};

}  // namespace

TEST_CASE("a compare config names its base, its folder, the common keys and the runs", "[cli][compare]") {
  Files f;
  const CompareConfig c = f.parse(
      "# two attentions\n"
      "base = base.cfg\n"
      "out_dir = " + f.path("cmp") + "\n"
      "max_iters = 20   # every run\n"
      "\n"
      "softmax: attention=softmax\n"
      "linear:  attention=linear_elu n_head=4   # and a second key\n");
  CHECK(c.base == (f.dir / "base.cfg").lexically_normal().string());
  CHECK(c.out_dir == f.path("cmp"));
  REQUIRE(c.runs.size() == 2);
  CHECK(c.runs[0].name == "softmax");
  CHECK(c.runs[1].name == "linear");
  REQUIRE(c.runs[1].overrides.size() == 2);
  CHECK(c.runs[1].overrides[1] == std::pair<std::string, std::string>("n_head", "4"));
  CHECK(c.run_dir(1, 1337) == f.path("cmp") + "/linear");
  CHECK(c.seeds == 1);
}

TEST_CASE("a run takes the base, then the common keys, then the flags, then its own keys", "[cli][compare]") {
  Files f;
  CompareConfig c = f.parse("base = base.cfg\nout_dir = " + f.path("cmp") +
                            "\nmax_iters = 20\nn_embd = 48\n"
                            "a: attention=linear_exp\nb: n_embd=64\n");
  c.flags = {"--n_embd=16", "--eval_interval=10"};
  TrainConfig a, b;
  const Options oa = c.run_config(0, a);
  c.run_config(1, b);
  CHECK(a.n_layer == 2);        // base
  CHECK(a.max_iters == 20);     // common key over base
  CHECK(a.n_embd == 16);        // flag over common key
  CHECK(b.n_embd == 64);        // the run's own key over the flag
  CHECK(a.eval_interval == 10);
  CHECK(a.attention == "linear_exp");
  CHECK(b.attention == "softmax");
  CHECK(a.out_dir == f.path("cmp") + "/a");
  CHECK(oa.dump().find("attention = \"linear_exp\"") != std::string::npos);
  CHECK(a.batches == "own");  // compare's default: the same batches whatever the model
}

TEST_CASE("seeds = N trains each run at N seeds in folders of their own", "[cli][compare]") {
  Files f;
  CompareConfig c = f.parse("base = base.cfg\nout_dir = " + f.path("cmp") + "\nseeds = 3\nseed = 40\n"
                            "a: attention=softmax\nb: attention=softmax batches=shared\n");
  CHECK(c.seeds == 3);
  CHECK(c.common.find("seeds") == std::string::npos);  // not a train key
  TrainConfig a0, a2, b1;
  c.run_config(0, a0, 0);
  c.run_config(0, a2, 2);
  c.run_config(1, b1, 1);
  CHECK(a0.seed == 40);
  CHECK(a2.seed == 42);
  CHECK(b1.seed == 41);
  CHECK(a0.out_dir == f.path("cmp") + "/a/seed_40");
  CHECK(a2.out_dir == f.path("cmp") + "/a/seed_42");
  CHECK(b1.batches == "shared");  // a run may ask for nanoGPT's draws
  // The length claims are judged against: the config's, whatever the command line says.
  c.flags = {"--max_iters=4"};
  TrainConfig short_run;
  c.run_config(0, short_run);
  CHECK(short_run.max_iters == 4);
  CHECK(c.config_iters(0) == 100);
  for (const char* bad : {"0", "101", "two", "3x", ""}) {
    INFO(bad);
    CHECK_THROWS_WITH(f.parse("base = base.cfg\nseeds = " + std::string(bad) + "\na: attention=softmax\n"),
                      Catch::Matchers::ContainsSubstring("seeds must be a whole number from 1 to 100"));
  }
}

TEST_CASE("a bad compare config is an error naming the file and line", "[cli][compare]") {
  Files f;
  const std::string base = "base = base.cfg\n";
  CHECK_THROWS_WITH(f.parse(base), Catch::Matchers::ContainsSubstring("lists no runs"));
  CHECK_THROWS_WITH(f.parse("a: attention=softmax\n"), Catch::Matchers::ContainsSubstring("names no base config"));
  CHECK_THROWS_WITH(f.parse(base + "a: attention=softmax\na: attention=linear_elu\n"),
                    Catch::Matchers::ContainsSubstring("cmp.cfg:3: run 'a' is named twice"));
  CHECK_THROWS_WITH(f.parse(base + "a b: attention=softmax\n"),
                    Catch::Matchers::ContainsSubstring("cmp.cfg:2: a run's name must be"));
  CHECK_THROWS_WITH(f.parse(base + "a: attention\n"),
                    Catch::Matchers::ContainsSubstring("cmp.cfg:2: expected key=value after 'a:', got 'attention'"));
  CHECK_THROWS_WITH(f.parse(base + "just words\n"), Catch::Matchers::ContainsSubstring("cmp.cfg:2: expected"));
  CHECK_THROWS_WITH(CompareConfig::from_file(f.path("missing.cfg")),
                    Catch::Matchers::ContainsSubstring("cannot read config file"));
}

TEST_CASE("a run's bad key, attention or out_dir is an error before anything trains", "[cli][compare]") {
  Files f;
  TrainConfig cfg;
  CHECK_THROWS_WITH(f.parse("base = base.cfg\na: attention=nope\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("attention must be softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route, got 'nope'"));
  CHECK_THROWS_WITH(f.parse("base = base.cfg\na: n_layr=3\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("run 'a'") && Catch::Matchers::ContainsSubstring("n_layr"));
  CHECK_THROWS_WITH(f.parse("base = base.cfg\na: out_dir=x\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("each run trains in out_dir/NAME"));
  CHECK_THROWS_WITH(f.parse("base = base.cfg\na: init_from=resume\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("trains every run from scratch"));
  CHECK_THROWS_WITH(f.parse("base = base.cfg\nn_layr = 3\na: n_layer=3\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("cmp.cfg:2"));
  CHECK_THROWS_WITH(f.parse("base = nothere.cfg\na: n_layer=3\n").run_config(0, cfg),
                    Catch::Matchers::ContainsSubstring("nothere.cfg"));
}

TEST_CASE("config/compare_elita.cfg: a GPT and an ELiTA LM under 300K parameters, equal within 5%, "
          "with ELiTA's optimizer", "[cli][compare][elita]") {
  for (const char* file : {"config/compare_elita.cfg", "config/compare_elita_long.cfg"}) {
    INFO(file);
    const CompareConfig c = CompareConfig::from_file(std::string(ATTIC_SOURCE_DIR) + "/" + file);
    REQUIRE(c.runs.size() == 2);
    std::vector<int64_t> counts;
    for (size_t i = 0; i < c.runs.size(); ++i) {
      TrainConfig cfg;
      const Options o = c.run_config(i, cfg);
      CHECK(cfg.lr_schedule == "inverse_sqrt");
      CHECK(cfg.lr_at(0) == Approx(1e-3));
      CHECK(cfg.lr_at(399) == Approx(1e-2 / 20));
      CHECK(cfg.beta1 == 0.9);
      CHECK(cfg.beta2 == 0.99);
      CHECK(cfg.weight_decay == 0.0);
      counts.push_back(attic::models::make_model(cfg.model, cfg.model_spec(65))->num_parameters());
    }
    CHECK(c.runs[0].name == "gpt");
    CHECK(c.runs[1].name == "elita");
    CHECK(counts[1] < 300000);
    if (std::string(file) == "config/compare_elita.cfg") {
      CHECK(counts[0] < 300000);
      CHECK(std::abs(double(counts[0]) / double(counts[1]) - 1.0) < 0.05);
      CHECK(counts[0] == 252480);
      CHECK(counts[1] == 250736);
    }
  }
}
