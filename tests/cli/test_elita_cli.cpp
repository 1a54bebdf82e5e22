// ELiTA from the command line: `attic train --model=elita` and `--attention=elita` train,
// checkpoint their options, sample (cached and recomputed alike), evaluate and resume; a
// resumed run ends where an uninterrupted one does; bad ELiTA keys are one line, exit 2.
#include "train/checkpoint.h"
#include "cli/cli_helpers.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// The "step N: train loss X, val loss Y" lines of a run.
std::vector<std::string> eval_lines(const std::string& out) { return lines_matching(out, "^step [0-9]+: "); }

}  // namespace

TEST_CASE("attic train --model=elita trains, samples, evaluates and resumes as an "
          "uninterrupted run would", "[cli][e2e][elita]") {
  Scratch s;
  const std::string flags = " --model=elita --elita_positions=absolute --elita_numerics=clip "
                            "--lr_schedule=inverse_sqrt --eval_interval=4";
  Run r = attic_run("train " + s.tiny("a") + flags + " --max_iters=8");
  REQUIRE(r.code == 0);
  const attic::train::CheckpointInfo info = attic::train::read_checkpoint_info(s.path("a"));
  CHECK(info.attention == "elita");
  CHECK(info.attention_options == "att_w=8,numerics=clip,pos_w=16,positions=absolute");

  // Four iterations, then four more from the checkpoint: the same evaluations.
  REQUIRE(attic_run("train " + s.tiny("b") + flags + " --max_iters=4").code == 0);
  Run resumed = attic_run("train " + s.tiny("b") + flags + " --max_iters=8 --init_from=resume");
  REQUIRE(resumed.code == 0);
  REQUIRE(eval_lines(r.out).size() == 3);  // steps 0, 4, 8
  CHECK(eval_lines(resumed.out).back() == eval_lines(r.out).back());

  Run cached = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30");
  Run plain = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30 --use_cache=false");
  CHECK(cached.code == 0);
  CHECK(cached.out == plain.out);
  Run eval = attic_run("eval --out_dir=" + s.path("a") + " --eval_iters=2");
  CHECK(eval.code == 0);

  // A resume that names another model is one line naming both.
  Run other = attic_run("train " + s.tiny("a") + " --max_iters=12 --init_from=resume --model=gpt");
  CHECK(other.code == 2);
  CHECK(lines_matching(other.out, "^attic: model = gpt was given, but the checkpoint in .*a "
                                  "was trained with model = elita$").size() == 1);
}

TEST_CASE("attic train --attention=elita puts ELiTA's attention in the GPT: it samples, "
          "evaluates and resumes", "[cli][e2e][elita]") {
  Scratch s;
  Run r = attic_run("train " + s.tiny("g") + " --attention=elita --max_iters=4 --eval_interval=4");
  REQUIRE(r.code == 0);
  const attic::train::CheckpointInfo info = attic::train::read_checkpoint_info(s.path("g"));
  CHECK(info.attention == "elita");
  CHECK(info.attention_options == "att_w=8,numerics=stable,pos_w=16,positions=relative");
  CHECK(attic_run("sample --out_dir=" + s.path("g") + " --num_samples=1 --max_new_tokens=10").code == 0);
  CHECK(attic_run("eval --out_dir=" + s.path("g") + " --eval_iters=2").code == 0);
  // Resumed at 4 it checkpoints again at 8, as elita with the same options.
  Run resumed = attic_run("train " + s.tiny("g") + " --attention=elita --max_iters=8 "
                          "--eval_interval=4 --init_from=resume");
  CHECK(resumed.code == 0);
  CHECK(attic::train::read_checkpoint_info(s.path("g")).iter_num == 8);
  Run other = attic_run("train " + s.tiny("g") + " --attention=elita --elita_positions=absolute "
                        "--max_iters=12 --init_from=resume");
  CHECK(other.code == 2);

  // With absolute positions the GPT decodes through ELiTA's state: the same text either way.
  REQUIRE(attic_run("train " + s.tiny("a") + " --attention=elita --elita_positions=absolute "
                    "--max_iters=4 --eval_interval=4").code == 0);
  Run cached = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30");
  Run plain = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30 --use_cache=false");
  CHECK(cached.code == 0);
  CHECK(cached.out == plain.out);
}

TEST_CASE("bad ELiTA keys are one line and exit 2, before anything trains", "[cli][errors][elita]") {
  Scratch s;
  check_one_line(attic_run("train " + s.tiny("x") + " --model=elita --elita_numerics=exact"),
           "elita numerics must be stable or clip, got 'exact'");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=elita --elita_positions=rope"),
           "elita positions must be relative or absolute, got 'rope'");
  check_one_line(attic_run("train " + s.tiny("x") + " --elita_numerics=clip"),
           "elita_numerics sets attention elita's option numerics: it needs attention = elita or model = elita "
           "(model is gpt, attention softmax)");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=transformer"),
           "model must be gpt, pooled_lm, elita or linformer, got 'transformer'");
  check_one_line(attic_run("train " + s.tiny("x") + " --attention=elita --attention_options=pos_w=4 --elita_pos_w=8"),
           "attention elita's option pos_w is given twice: in attention_options and as elita_pos_w");
  CHECK_FALSE(fs::exists(s.path("x")));
}
