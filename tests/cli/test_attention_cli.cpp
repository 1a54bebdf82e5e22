// --attention on the command line: an unknown name is one line listing the known ones; a
// checkpoint remembers its attention, so sample, eval and resume rebuild it, and loading it
// as another attention is an error.
#include "train/checkpoint.h"
#include "cli/cli_helpers.h"
#include "helpers.h"
#include "models/gpt.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("an unknown attention is one line listing the known ones, exit 2", "[cli][errors][socket]") {
  Scratch s;
  Run r = attic_run("train " + s.tiny("out") + " --max_iters=1 --attention=flash");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: attention must be softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route, "
                              "got 'flash'$").size() == 1);
  CHECK(lines_matching(r.out, "^attic: ").size() == 1);
  r = attic_run("train " + s.tiny("out") + " --max_iters=1 --attention_options=k=4");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: attention softmax: unknown option 'k' \\(it takes no "
                              "options\\)$").size() == 1);
  r = attic_run("train " + s.tiny("out") + " --max_iters=1 --model=pooled_lm --attention_options=k=4");
  CHECK(r.code == 2);
}

TEST_CASE("a linear-attention checkpoint samples, evaluates and resumes as linear attention, "
          "and no other", "[cli][e2e][socket]") {
  Scratch s;
  Run r = attic_run("train " + s.tiny("lin") + " --max_iters=4 --eval_interval=4 --attention=linear_elu");
  REQUIRE(r.code == 0);
  const attic::train::CheckpointInfo info = attic::train::read_checkpoint_info(s.path("lin"));
  CHECK(info.attention == "linear_elu");
  CHECK(info.attention_options.empty());
  CHECK(attic_run("sample --out_dir=" + s.path("lin") + " --num_samples=1 --max_new_tokens=20").code == 0);
  // With and without the cache the sample is the same text.
  Run cached = attic_run("sample --out_dir=" + s.path("lin") + " --num_samples=2 --max_new_tokens=40");
  Run plain = attic_run("sample --out_dir=" + s.path("lin") + " --num_samples=2 --max_new_tokens=40 --use_cache=false");
  CHECK(cached.code == 0);
  CHECK(cached.out == plain.out);
  CHECK(attic_run("eval --out_dir=" + s.path("lin") + " --eval_iters=2").code == 0);
  // Resumed at 4, it checkpoints again at the next eval, 8.
  CHECK(attic_run("train " + s.tiny("lin") + " --max_iters=8 --eval_interval=4 --init_from=resume").code == 0);

  r = attic_run("train " + s.tiny("lin") + " --max_iters=12 --init_from=resume --attention=softmax");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: attention = softmax was given, but the checkpoint in .*lin "
                              "was trained with attention = linear_elu$").size() == 1);

  // The weights' names alone match a softmax GPT's; the recorded attention tells them apart.
  models::GPTConfig c;
  c.block_size = 16;
  c.vocab_size = int64_t(info.vocabulary.size());
  c.n_layer = 1;
  c.n_head = 2;
  c.n_embd = 16;
  c.bias = false;
  models::GPT softmax_gpt(c);
  CHECK(error_message([&] { attic::train::load_model(s.path("lin"), softmax_gpt, "softmax", ""); }) ==
        "checkpoint '" + s.path("lin") + "/ckpt.safetensors' was trained with attention "
        "linear_elu, but the model was built with softmax");
  c.attention = "linear_elu";
  models::GPT linear_gpt(c);
  CHECK(attic::train::load_model(s.path("lin"), linear_gpt, "linear_elu", "").iter_num == 8);
}
