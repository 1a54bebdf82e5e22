// Reflex and route attention from the command line: `attic data digit_mul` writes the task,
// `attic train --attention=route|reflex` trains on it and resumes as an uninterrupted run,
// `attic eval --task=digit_mul` scores sampled products, `attic analyze entropy` and
// `attic analyze routers` write their tables and pictures; bad input is one line, exit 2.
#include "train/checkpoint.h"
#include "cli/cli_helpers.h"
#include "data/digit_mul.h"
#include "helpers.h"

#include <fstream>
#include <iterator>

using namespace attic;
using namespace attic::testing;

namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A tiny GPT with 6 heads and 3 blocks (so block 2 reads x_0 and x_1) on the task's file.
std::string tiny_mul(const Scratch& s, const std::string& out_dir, const std::string& attention) {
  return "--dataset=" + s.path("mul.txt") + " --out_dir=" + s.path(out_dir) + " --attention=" + attention +
         " --n_layer=3 --n_head=6 --n_embd=24 --block_size=48 --batch_size=4 --eval_iters=2 --eval_interval=4"
         " --warmup_iters=2 --lr_decay_iters=8 --learning_rate=3e-3 --min_lr=3e-4 --log_interval=1 --threads=1";
}

}  // namespace

TEST_CASE("attic data digit_mul writes the task, and train, resume, eval --task=digit_mul and analyze run on it",
          "[cli][e2e][reflex]") {
  Scratch s;
  Run d = attic_run("data digit_mul --digits=4 --lines=400 --seed=3 --out=" + s.path("mul.txt"));
  REQUIRE(d.code == 0);
  CHECK(d.out.find("400 lines") != std::string::npos);
  CHECK(d.out.find("vocab 18") != std::string::npos);
  CHECK(read(s.path("mul.txt")) == digit_mul_text(4, 400, 3));

  Run route = attic_run("train " + tiny_mul(s, "route", "route") + " --max_iters=8");
  REQUIRE(route.code == 0);
  CHECK(attic::train::read_checkpoint_info(s.path("route")).attention == "route");
  REQUIRE(attic_run("train " + tiny_mul(s, "half", "route") + " --max_iters=4").code == 0);
  Run resumed = attic_run("train " + tiny_mul(s, "half", "route") + " --max_iters=8 --init_from=resume");
  REQUIRE(resumed.code == 0);
  const auto evals = [](const std::string& out) { return lines_matching(out, "^step [0-9]+: "); };
  CHECK(evals(resumed.out).back() == evals(route.out).back());
  REQUIRE(attic_run("train " + tiny_mul(s, "classic", "classic") + " --max_iters=8").code == 0);
  REQUIRE(attic_run("train " + tiny_mul(s, "reflex", "reflex") + " --max_iters=4").code == 0);

  Run e = attic_run("eval --task=digit_mul --out_dir=" + s.path("route") + " --n=20 --show=2 --threads=1");
  REQUIRE(e.code == 0);
  CHECK(lines_matching(e.out, "^digit_mul: 20 held-out 4-digit problems \\(seed 1\\), sampled at temperature 1$").size() == 1);
  CHECK(lines_matching(e.out, "^exact match [0-9.]+% \\([0-9]+/20\\), unparsable [0-9]+$").size() == 1);
  CHECK(lines_matching(e.out, "^  [0-9]{4}\\*[0-9]{4} = ").size() == 2);
  // The same seed draws the same problems and samples.
  CHECK(attic_run("eval --task=digit_mul --out_dir=" + s.path("route") + " --n=20 --show=2 --threads=1").out == e.out);

  Run a = attic_run("analyze entropy --out_dir=" + s.path("classic") + " --out_dir=" + s.path("route") +
                    " --n=12 --n_long=4 --extend=30,100 --threads=1");
  REQUIRE(a.code == 0);
  // block_size 48: T = 9 and 39 run, T = 109 is skipped for each model.
  CHECK(lines_matching(a.out, "^\\| T = 9 \\(12\\) \\| (classic|route) \\|( [0-9.]+ ± [0-9.]+ \\|){3}$").size() == 2);
  CHECK(lines_matching(a.out, "^\\| T = 39 \\(4\\) \\| (classic|route) \\|").size() == 2);
  CHECK(lines_matching(a.out, "T = 109 skipped, longer than block_size 48").size() == 2);
  const std::string svg = read(s.path("entropy.svg"));
  CHECK(svg.rfind("<svg", 0) == 0);
  CHECK(svg.find(">route<") != std::string::npos);
  CHECK(read(s.path("entropy.md")).find("| T = 39 (4) | route |") != std::string::npos);
  REQUIRE(attic_run("analyze entropy --centered --out_dir=" + s.path("route") + " --n=5 --n_long=0").code == 0);
  CHECK(read(s.path("entropy_centered.md")).find("centred") != std::string::npos);

  Run rt = attic_run("analyze routers --out_dir=" + s.path("route"));
  REQUIRE(rt.code == 0);
  CHECK(rt.out.find("K_router and V_router of blocks 2 to 2, 3 sources x 6 heads") != std::string::npos);
  const std::string routers = read(s.path("route/routers.svg"));
  CHECK(routers.find("block 2 K_router") != std::string::npos);
  CHECK(routers.find("block 2 V_router") != std::string::npos);
  CHECK(routers.find(">x_{i-1}<") != std::string::npos);

  check_one_line(attic_run("analyze routers --out_dir=" + s.path("reflex")),
                 "analyze routers: the checkpoint in " + s.path("reflex") +
                     " is model = gpt, attention = reflex; routers need a GPT with attention = route");
}

TEST_CASE("bad digit_mul, eval and analyze input is one line and exit 2", "[cli][errors][reflex]") {
  Scratch s;
  check_one_line(attic_run("data digit_mul --digits=10 --out=" + s.path("x.txt")),
                 "digit_mul: digits must be in 1..9 (a·b must fit in 63 bits), got 10");
  check_one_line(attic_run("data digit_mul --lines=5"), "data digit_mul: --out=FILE is required");
  check_one_line(attic_run("data shakespeare"), "data: expected one of 'digit_mul', 'bpe' (attic data --help says what "
                 "each does), got 'shakespeare'");
  // A generated dataset that does not exist names the ones that do.
  for (const std::string name : {"digit_mul:3", "digit_mul:0", "digit_mul:-1", "digit_mul:",
                                 "digit_mul:99999999999999999999", "digit_mul"})
    check_one_line(attic_run("train --dataset=" + name + " --out_dir=" + s.path("dm") + " --max_iters=1"),
                   "dataset '" + name + "': the generated datasets are digit_mul:4 and digit_mul:5; "
                   "for 1 to 9 digits write one with 'attic data digit_mul --digits=N --out=FILE' "
                   "and give that file");
  CHECK_FALSE(fs::exists(s.path("dm")));
  CHECK_FALSE(fs::exists(s.path("x.txt")));
  check_one_line(attic_run("analyze"), "analyze: expected one of 'entropy', 'routers' (attic analyze --help says what "
                 "each does), got ''");
  check_one_line(attic_run("analyze entropy"), "analyze entropy: give at least one --out_dir=DIR");
  check_one_line(attic_run("analyze entropy --out_dir=x --extend=30,-1"),
                 "analyze entropy: extend must list positive token counts like 30,100, got '30,-1'");
  check_one_line(attic_run("analyze entropy --out_dir=x --n=5 --n_long=6"),
                 "analyze entropy: need n >= 1 and 0 <= n_long <= n, got n 5 and n_long 6");

  // A Shakespeare-like checkpoint: eval --task=digit_mul names the dataset it cannot use.
  REQUIRE(attic_run("train " + s.tiny("txt") + " --max_iters=2 --eval_interval=2").code == 0);
  check_one_line(attic_run("eval --task=digit_mul --out_dir=" + s.path("txt")),
                 "eval --task=digit_mul: the dataset " + s.path("corpus.txt") +
                     " does not start with a digit_mul line ('a*b = [...] => c')");
  check_one_line(attic_run("eval --task=sorting --out_dir=" + s.path("txt")),
                 "eval: task must be digit_mul or empty, got 'sorting'");
  // On text that is not the task, the entropy's short prompts are windows of the val split.
  Run a = attic_run("analyze entropy --out_dir=" + s.path("txt") + " --n=3 --extend=");
  CHECK(a.code == 0);
  CHECK(lines_matching(a.out, "^\\| T = 9 \\(3\\) \\| txt \\|").size() == 1);
  // A picture named .md would be overwritten by the table that goes beside it.
  check_one_line(attic_run("analyze entropy --out_dir=" + s.path("txt") + " --n=3 --extend= --svg=" +
                           s.path("x.md")),
                 "analyze entropy: --svg=" + s.path("x.md") + " is where the table goes (the "
                 "picture's name with .md); name the picture .svg");
  CHECK_FALSE(fs::exists(s.path("x.md")));
  check_one_line(attic_run("train " + s.tiny("r") + " --attention=reflex --n_head=2 --attention_options=sa_heads=2,prev1_heads=1"),
                 "attention reflex: sa_heads 2 and prev1_heads 1 must be >= 0 and sum to at most n_head 2");
}
