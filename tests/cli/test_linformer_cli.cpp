// The Linformer from the command line: `attic train --model=linformer` (the package's
// LinformerLM) and `--attention=linformer` (LinformerAttention, its MHAttention, in the GPT)
// train, record their options, sample through the prefix mode's state (the same text as
// recomputing), evaluate and resume as an uninterrupted run; bad Linformer options are one
// line, exit 2.
#include "train/checkpoint.h"
#include "cli/cli_helpers.h"
#include "helpers.h"

#include <fstream>
#include <iterator>

using namespace attic;
using namespace attic::testing;

namespace {

std::vector<std::string> eval_lines(const std::string& out) { return lines_matching(out, "^step [0-9]+: "); }

}  // namespace

TEST_CASE("attic train --model=linformer trains, samples, evaluates and resumes as an uninterrupted run would",
          "[cli][e2e][linformer]") {
  Scratch s;
  const std::string flags = " --model=linformer --attention_options=k=8,sharing=kv --eval_interval=4";
  Run r = attic_run("train " + s.tiny("a") + flags + " --max_iters=8");
  REQUIRE(r.code == 0);
  const attic::train::CheckpointInfo info = attic::train::read_checkpoint_info(s.path("a"));
  CHECK(info.attention == "linformer");
  CHECK(info.attention_options == "k=8,sharing=kv");

  REQUIRE(attic_run("train " + s.tiny("b") + flags + " --max_iters=4").code == 0);
  Run resumed = attic_run("train " + s.tiny("b") + flags + " --max_iters=8 --init_from=resume");
  REQUIRE(resumed.code == 0);
  REQUIRE(eval_lines(r.out).size() == 3);  // steps 0, 4, 8
  CHECK(eval_lines(resumed.out).back() == eval_lines(r.out).back());

  Run cached = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30");
  Run plain = attic_run("sample --out_dir=" + s.path("a") + " --num_samples=2 --max_new_tokens=30 --use_cache=false");
  CHECK(cached.code == 0);
  CHECK(cached.out == plain.out);
  CHECK(attic_run("eval --out_dir=" + s.path("a") + " --eval_iters=2").code == 0);
}

TEST_CASE("attic train --attention=linformer puts the Linformer's attention in the GPT, leaky or prefix",
          "[cli][e2e][linformer]") {
  Scratch s;
  const std::string causal = GENERATE(as<std::string>{}, "prefix", "leaky");
  INFO(causal);
  Run r = attic_run("train " + s.tiny("g") + " --attention=linformer --attention_options=k=4,causal=" + causal +
                    " --max_iters=4 --eval_interval=4");
  REQUIRE(r.code == 0);
  CHECK(attic::train::read_checkpoint_info(s.path("g")).attention == "linformer");
  Run cached = attic_run("sample --out_dir=" + s.path("g") + " --num_samples=1 --max_new_tokens=20");
  Run plain = attic_run("sample --out_dir=" + s.path("g") + " --num_samples=1 --max_new_tokens=20 --use_cache=false");
  CHECK(cached.code == 0);
  CHECK(cached.out == plain.out);
  CHECK(attic_run("eval --out_dir=" + s.path("g") + " --eval_iters=2").code == 0);
}

TEST_CASE("bad Linformer options are one line and exit 2, before anything trains", "[cli][errors][linformer]") {
  Scratch s;
  check_one_line(attic_run("train " + s.tiny("x") + " --model=linformer --attention_options=k=17"),
           "model linformer: dim_k 17 is larger than input_size 16; k slots summarize n positions, k <= n");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=linformer --attention_options=method=conv"),
           "linformer: method must be learnable, convolution or no_params, got 'conv'");
  check_one_line(attic_run("train " + s.tiny("x") + " --attention=linformer --attention_options=sharing=layerwise"),
           "linformer attention: layerwise sharing spans the whole stack; use model=linformer for it, or "
           "sharing=none, headwise or kv in the GPT");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=linformer --attention_options=kk=3"),
           "attention linformer: unknown option 'kk' (it takes k, sharing, method, causal, checkpoint, "
           "full_attention, dim_d, k_reduce_by_layer, w_o_intermediate_dim, dropout, dropout_ff, dropout_tokens, "
           "activation, ff_intermediate, emb_dim, dim_ff)");
  check_one_line(attic_run("train " + s.tiny("x") + " --attention=linformer --attention_options=activation=relu"),
           "linformer attention: dropout_ff, dropout_tokens, activation, ff_intermediate, emb_dim and dim_ff are "
           "model=linformer's; the GPT's attention=linformer has the GPT's MLP and embeddings");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=linformer --attention_options=activation=tanh"),
           "model linformer: activation must be gelu or relu, got 'tanh'");
  check_one_line(attic_run("train " + s.tiny("x") + " --model=linformer --attention_options=dropout=1"),
           "attention linformer: option 'dropout' must be in [-1, 1), got '1'");
}

TEST_CASE("every option of the package's Linformer and LinformerLM reaches attic train", "[cli][e2e][linformer]") {
  Scratch s;
  // The LM with every option away from its default, and the non-causal LM the package also builds.
  const std::string lm = "full_attention=false,dim_d=4,k_reduce_by_layer=2,w_o_intermediate_dim=12,dropout=0.1,"
                         "dropout_ff=0.2,dropout_tokens=0.05,activation=relu,ff_intermediate=24,emb_dim=20,"
                         "dim_ff=40,sharing=headwise,k=8";
  Run r = attic_run("train " + s.tiny("lm") + " --model=linformer --n_layer=2 --max_iters=2 --eval_interval=2 "
                    "--attention_options=" + lm);
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(attic::train::read_checkpoint_info(s.path("lm")).attention_options == lm);
  CHECK(attic_run("sample --out_dir=" + s.path("lm") + " --num_samples=1 --max_new_tokens=5").code == 0);
  Run full = attic_run("train " + s.tiny("full") + " --model=linformer --max_iters=2 --eval_interval=2 "
                       "--attention_options=full_attention=true,causal=none");
  CHECK(full.code == 0);
  // The GPT's attention takes the attention's own: full_attention, dim_d, k_reduce_by_layer,
  // w_o_intermediate_dim and dropout.
  Run gpt = attic_run("train " + s.tiny("gpt") + " --attention=linformer --n_layer=2 --max_iters=2 "
                      "--eval_interval=2 --attention_options=k=8,dim_d=4,k_reduce_by_layer=3,w_o_intermediate_dim=8,"
                      "dropout=0.1");
  INFO(gpt.out);
  CHECK(gpt.code == 0);
  // --help lists them, with their help lines.
  Run help = attic_run("train --help");
  for (const char* key : {"full_attention=", "dim_d=", "k_reduce_by_layer=", "w_o_intermediate_dim=", "dropout_ff=",
                          "dropout_tokens=", "activation=", "ff_intermediate=", "emb_dim=", "dim_ff="})
    CHECK(help.out.find(key) != std::string::npos);
}

TEST_CASE("attic plot linformer-heads draws every head of a Linformer checkpoint, LM or GPT", "[cli][linformer][viz]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("lm") + " --model=linformer --attention_options=k=4 --n_layer=2 --max_iters=2 "
                    "--eval_interval=2").code == 0);
  Run r = attic_run("plot linformer-heads --out_dir=" + s.path("lm") + " --start=\"to be\" --file=heads.svg");
  CHECK(r.code == 0);
  CHECK(r.out == "wrote " + s.path("lm") + "/heads.svg: 2 layers x 2 heads, 5 queries\n");
  std::ifstream in(s.path("lm") + "/heads.svg");
  const std::string svg((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(svg.find(">layer 1, head 1</text>") != std::string::npos);

  REQUIRE(attic_run("train " + s.tiny("gpt") + " --attention=linformer --attention_options=k=4 --max_iters=2 "
                    "--eval_interval=2").code == 0);
  CHECK(attic_run("plot linformer-heads --out_dir=" + s.path("gpt") + " --n_limit=8").code == 0);

  REQUIRE(attic_run("train " + s.tiny("soft") + " --max_iters=2 --eval_interval=2").code == 0);
  Run none = attic_run("plot linformer-heads --out_dir=" + s.path("soft"));
  CHECK(none.code == 2);
  CHECK(none.out == "attic: plot linformer-heads: the checkpoint in " + s.path("soft") +
                        " has no Linformer attention (model = gpt, attention = softmax)\n");
}

TEST_CASE("attic seq2seq --attention=linformer trains the Linformer's encoder-decoder", "[cli][linformer][seq2seq]") {
  Run r = attic_run("seq2seq --task=reverse --attention=linformer --k=2 --length=4 --symbols=3 --steps=5 "
                    "--eval_size=4 --n_layer=1 --n_head=1 --n_embd=8 --hidden=8 --threads=1 --log_interval=0");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out.find("reverse, 4 symbols from 1..3, linformer attention") != std::string::npos);
  // --k is the first spelling of attention_options k: both spellings train the same model.
  Run spelt = attic_run("seq2seq --task=reverse --attention=linformer --attention_options=k=2 --length=4 --symbols=3 "
                        "--steps=5 --eval_size=4 --n_layer=1 --n_head=1 --n_embd=8 --hidden=8 --threads=1 --log_interval=0");
  CHECK(spelt.code == 0);
  CHECK(lines_matching(spelt.out, "final train loss") == lines_matching(r.out, "final train loss"));
  check_one_line(attic_run("seq2seq --attention=linformer --k=2 --attention_options=k=3"),
                 "seq2seq: the linformer attention's option k is given twice: in attention_options and as --k");
  check_one_line(attic_run("seq2seq --attention_options=k=3"),
                 "attention softmax: unknown option 'k' (it takes no options)");
  Run bad = attic_run("seq2seq --k=3");
  CHECK(bad.code == 2);
  CHECK(bad.out.find("attic: seq2seq: k is the linformer attention's option, got k 3 with attention softmax") !=
        std::string::npos);
}
