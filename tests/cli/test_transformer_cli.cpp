// `attic train --model=pooled_lm`, `attic seq2seq` and `attic bench attention` end to end,
// on tiny settings, and their one-line errors.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "cli/cli_helpers.h"
#include "helpers.h"

namespace fs = std::filesystem;
using namespace attic::testing;

namespace {

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("attic train --model=pooled_lm trains, checkpoints, samples and evaluates",
          "[cli][pooled_lm]") {
  Scratch s;
  const std::string flags = "--model=pooled_lm --attention=linear_exp --dataset=" + s.path("corpus.txt") +
                            " --out_dir=" + s.path("out") +
                            " --n_layer=1 --n_head=2 --n_embd=16 --block_size=8 --batch_size=4"
                            " --eval_iters=2 --eval_interval=5 --max_iters=5 --warmup_iters=1"
                            " --lr_decay_iters=5 --threads=1";
  Run train = attic_run("train " + flags);
  INFO(train.out);
  REQUIRE(train.code == 0);
  CHECK(has(train.out, "step 5: train loss"));
  CHECK(fs::exists(s.path("out/ckpt.safetensors")));
  Run sample = attic_run("sample --out_dir=" + s.path("out") +
                         " --start=To --num_samples=1 --max_new_tokens=12 --threads=1");
  INFO(sample.out);
  CHECK(sample.code == 0);
  CHECK(sample.out.rfind("To", 0) == 0);
  Run eval = attic_run("eval --out_dir=" + s.path("out") + " --threads=1");
  CHECK(eval.code == 0);
  CHECK(has(eval.out, "iter 5 checkpoint: train loss"));
}

TEST_CASE("the pooled LM's feed-forward width is a key: pooled_hidden, listed by --help with its type",
          "[cli][pooled_lm]") {
  Scratch s;
  auto params = [&](const std::string& extra) {
    Run r = attic_run("train --model=pooled_lm --dataset=" + s.path("corpus.txt") + " --out_dir=" + s.path("p") +
                      " --n_layer=1 --n_head=2 --n_embd=64 --block_size=8 --batch_size=2 --max_iters=0 --eval_iters=1"
                      " --threads=1" + extra);
    INFO(r.out);
    CHECK(r.code == 0);
    const auto lines = lines_matching(r.out, "^number of parameters: ");
    return lines.empty() ? std::string() : lines[0];
  };
  // 64 -> 4096 -> 64 instead of 64 -> 64 -> 64: 2 · 64 · (4096 − 64) + 4032 more parameters.
  CHECK(params("") == "number of parameters: 0.05M");
  CHECK(params(" --pooled_hidden=4096") == "number of parameters: 0.57M");
  Run bad = attic_run("train --model=pooled_lm --pooled_hidden=-1 --max_iters=0");
  CHECK(bad.code == 2);
  CHECK(has(bad.out, "attic: model pooled_lm: option 'hidden' must be in 0..16777216, got '-1'\n"));
  Run help = attic_run("train --help");
  CHECK(lines_matching(help.out, "^  --pooled_hidden=0 +int, the encoder blocks' feed-forward width \\(0: n_embd\\) "
                                 "\\(model pooled_lm's option hidden, as its own key\\)$").size() == 1);
}

TEST_CASE("attic train rejects an unknown model or attention in one line", "[cli][pooled_lm]") {
  Run r = attic_run("train --model=bert");
  CHECK(r.code == 2);
  CHECK(r.out == "Overriding: model = bert\nattic: model must be gpt, pooled_lm, elita or linformer, got 'bert'\n");
  r = attic_run("train --model=pooled_lm --attention=flash");
  CHECK(r.code == 2);
  CHECK(has(r.out, "attic: attention must be softmax, linear_elu, linear_exp, elita, linformer, classic, reflex or route, got 'flash'\n"));
  r = attic_run("train --attention=linear_elu --attention_options=k=3 --n_layer=1 --n_head=2 "
                "--n_embd=16 --block_size=16 --max_iters=1");
  CHECK(r.code == 2);
  CHECK(has(r.out, "attic: attention linear_elu: unknown option 'k' (it takes no options)\n"));
}

TEST_CASE("attic seq2seq runs on tiny settings, bench attention checks max_n", "[cli][seq2seq][bench]") {
  Run r = attic_run("seq2seq --task=reverse --length=3 --symbols=3 --steps=5 --eval_size=4 "
                    "--n_layer=1 --n_head=1 --n_embd=8 --hidden=8 --threads=1 --log_interval=0");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(has(r.out, "held-out (4 sequences): token accuracy"));
  r = attic_run("seq2seq --task=sort");
  CHECK(r.code == 2);
  CHECK(has(r.out, "attic: task must be copy or reverse, got 'sort'\n"));
  r = attic_run("bench attention --max_n=100");
  CHECK(r.code == 2);
  CHECK(has(r.out, "attic: bench attention: max_n must be >= 256"));
}
