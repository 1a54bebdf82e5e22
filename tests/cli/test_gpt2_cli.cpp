// GPT-2 and BPE from the command line, on the tiny GPT-2 of tests/models/fixtures/gpt2_tiny
// (transformers wrote it): attic data bpe, training and finetuning on token folders, sampling
// and evaluating a GPT-2 folder, exporting back to transformers' layout, and nanoGPT's
// command-line keys.
#include <filesystem>
#include <fstream>

#include "catch.h"
#include "cli/cli_helpers.h"
#include "data/bpe.h"
#include "models/gpt/gpt2_folder.h"
#include "nn/safetensors.h"
#include "train/checkpoint.h"

using namespace attic;
using namespace attic::testing;
using Catch::Matchers::ContainsSubstring;

namespace {

const std::string kGpt2 = std::string(ATTIC_SOURCE_DIR) + "/tests/models/fixtures/gpt2_tiny";

// The shape flags of a tiny run on a token folder: the Scratch corpus's flags without its dataset.
std::string tiny_on(const Scratch& s, const std::string& dataset, const std::string& out) {
  return "--dataset=" + dataset + " --out_dir=" + s.path(out) +
         " --n_layer=1 --n_head=2 --n_embd=16 --block_size=16 --batch_size=4 --eval_iters=2"
         " --warmup_iters=2 --lr_decay_iters=30 --learning_rate=3e-3 --min_lr=3e-4 --log_interval=1 --threads=1";
}

}  // namespace

TEST_CASE("attic data bpe trains a BPE and writes nanoGPT's train.bin and val.bin", "[cli][bpe]") {
  Scratch s;
  const Run r = attic_run("data bpe --train_vocab=270 --text=" + s.path("corpus.txt") + " --out_dir=" + s.path("bpe"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, ContainsSubstring("trained a BPE of 270 ids"));
  for (const char* f : {"train.bin", "val.bin", "tokenizer.bpe", "meta.json"}) CHECK(fs::exists(fs::path(s.path("bpe")) / f));
  // uint16 ids; the split is the text's 90% of characters, as prepare.py splits it.
  const std::string meta = slurp(s.path("bpe") + "/meta.json");
  CHECK_THAT(meta, ContainsSubstring("\"dtype\":\"uint16\""));
  CHECK_THAT(meta, ContainsSubstring("\"train_chars\":2322"));  // int(2580 * 0.9)
  CHECK_THAT(meta, ContainsSubstring("\"val_chars\":258"));
  CHECK(fs::file_size(s.path("bpe") + "/train.bin") % 2 == 0);

  // Train on it, sample, evaluate in bits per character, resume.
  const Run t = attic_run("train " + tiny_on(s, s.path("bpe"), "out") + " --max_iters=4 --eval_interval=2");
  INFO(t.out);
  REQUIRE(t.code == 0);
  CHECK_THAT(t.out, ContainsSubstring("tokens, vocab 270"));
  CHECK(train::read_checkpoint_info(s.path("out")).tokenizer == "bpe");
  const Run smp = attic_run("sample --out_dir=" + s.path("out") + " --start=\"To be\" --num_samples=1 --max_new_tokens=5");
  INFO(smp.out);
  CHECK(smp.code == 0);
  CHECK(smp.out.rfind("To be", 0) == 0);
  const Run ev = attic_run("eval --out_dir=" + s.path("out"));
  INFO(ev.out);
  CHECK(ev.code == 0);
  CHECK(lines_matching(ev.out, "^val: [0-9.]+ bits per character \\([0-9.]+ characters per token\\)$").size() == 1);
  const Run res = attic_run("train --init_from=resume --out_dir=" + s.path("out") + " --max_iters=6");
  INFO(res.out);
  CHECK(res.code == 0);
  CHECK_THAT(res.out, ContainsSubstring("resuming from"));

  // A dataset given by another tokenizer's folder is refused by resume and eval.
  REQUIRE(attic_run("data bpe --train_vocab=260 --text=" + s.path("corpus.txt") + " --out_dir=" + s.path("bpe2")).code == 0);
  check_one_line(attic_run("eval --out_dir=" + s.path("out") + " --dataset=" + s.path("bpe2")),
                 "eval: " + s.path("bpe2") + " has another tokenizer than the checkpoint in " + s.path("out"));
}

TEST_CASE("the char model's eval gives bits per character too", "[cli][bpe]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=2").code == 0);
  const Run ev = attic_run("eval --out_dir=" + s.path("out"));
  INFO(ev.out);
  CHECK(lines_matching(ev.out, "^val: [0-9.]+ bits per character \\(1.0000 characters per token\\)$").size() == 1);
}

TEST_CASE("attic data bpe refuses what it cannot do in one line", "[cli][bpe][errors]") {
  Scratch s;
  check_one_line(attic_run("data bpe --out_dir=" + s.path("x")), "data bpe: give --tokenizer=PATH or --train_vocab=N, one of them");
  check_one_line(attic_run("data bpe --train_vocab=100 --out_dir=" + s.path("x")),
                 "data bpe: train_vocab must be at least 257 (the 256 bytes and <|endoftext|>), got 100");
  check_one_line(attic_run("data bpe --train_vocab=300"), "data bpe: --out_dir=DIR is required");
  CHECK(attic_run("data bpe --tokenizer=" + s.path("none.bpe") + " --out_dir=" + s.path("x")).code == 2);
  CHECK_FALSE(fs::exists(s.path("x")));
}

TEST_CASE("GPT-2 samples, evaluates, finetunes, resumes and exports from its folder", "[cli][gpt2]") {
  Scratch s;
  // The GPT-2 tokenizer's ids of the corpus, as nanoGPT's data/shakespeare/prepare.py writes them.
  const Run d = attic_run("data bpe --tokenizer=" + kGpt2 + " --text=" + s.path("corpus.txt") + " --out_dir=" + s.path("tok"));
  INFO(d.out);
  REQUIRE(d.code == 0);

  const Run smp = attic_run("sample --init_from=huggingface --gpt2_dir=" + kGpt2 +
                            " --start=\"To be\" --num_samples=1 --max_new_tokens=8 --temperature=0");
  INFO(smp.out);
  CHECK(smp.code == 0);
  CHECK(smp.out.rfind("To be", 0) == 0);

  const Run ev = attic_run("eval --init_from=huggingface --gpt2_dir=" + kGpt2 + " --dataset=" + s.path("tok") +
                           " --eval_iters=2 --batch_size=2 --block_size=32");
  INFO(ev.out);
  CHECK(ev.code == 0);
  CHECK(lines_matching(ev.out, "^iter 0 huggingface: train loss [0-9.]+, val loss [0-9.]+$").size() == 1);

  // nanoGPT's finetune recipe, shrunk: batch 1, gradient accumulation, constant learning rate.
  const std::string ft = "train --init_from=huggingface --gpt2_dir=" + kGpt2 + " --dataset=" + s.path("tok") +
                         " --out_dir=" + s.path("ft") + " --block_size=32 --batch_size=1 --gradient_accumulation_steps=4"
                         " --learning_rate=3e-5 --decay_lr=False --max_iters=2 --eval_interval=1 --eval_iters=2"
                         " --always_save_checkpoint=True --threads=1 --device=cpu --compile=False --wandb_log=False";
  const Run t = attic_run(ft);
  INFO(t.out);
  REQUIRE(t.code == 0);
  CHECK_THAT(t.out, ContainsSubstring("initialized from huggingface"));
  const train::CheckpointInfo info = train::read_checkpoint_info(s.path("ft"));
  CHECK(info.tokenizer == "bpe");
  CHECK_THAT(info.config, ContainsSubstring("gelu = \"tanh\""));
  CHECK_THAT(info.config, ContainsSubstring("n_embd = 64"));
  CHECK(attic_run("sample --out_dir=" + s.path("ft") + " --num_samples=1 --max_new_tokens=4").code == 0);
  const Run res = attic_run("train --init_from=resume --out_dir=" + s.path("ft") + " --max_iters=3");
  INFO(res.out);
  CHECK(res.code == 0);

  // Back to transformers' layout: every tensor of the finetuned model, Conv1D transposed.
  const Run ex = attic_run("export --out_dir=" + s.path("ft") + " --hf_dir=" + s.path("hf"));
  INFO(ex.out);
  REQUIRE(ex.code == 0);
  for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"}) CHECK(fs::exists(fs::path(s.path("hf")) / f));
  auto back = models::load_gpt2(s.path("hf"), "huggingface", 32);
  const nn::StateDict ckpt = nn::load_safetensors(train::model_path(s.path("ft"))).tensors;
  for (const auto& [name, t] : back->state_dict()) {
    INFO(name);
    REQUIRE(ckpt.count(name));
    CHECK(ckpt.at(name).to_vector<float>() == t.to_vector<float>());
  }

  // A model key the folder fixes, given otherwise, is named.
  check_one_line(attic_run("train --init_from=huggingface --gpt2_dir=" + kGpt2 + " --n_layer=4 --dataset=" + s.path("tok") +
                           " --out_dir=" + s.path("no")),
                 "n_layer = 4 was given, but init_from = huggingface is the GPT-2 of " + kGpt2 + "/config.json, "
                 "whose n_layer is 2 (only block_size, which may crop, and dropout change in a finetune)");
  check_one_line(attic_run("train --init_from=huggingface --gpt2_dir=" + kGpt2 + " --block_size=4096 --dataset=" +
                           s.path("tok") + " --out_dir=" + s.path("no")),
                 "block_size = 4096 is more than the 128 positions of init_from = huggingface is the GPT-2 of " + kGpt2 +
                 "/config.json (a smaller one crops them, as nanoGPT's crop_block_size does)");
  CHECK_FALSE(fs::exists(s.path("no")));
}

TEST_CASE("a GPT-2 that is not there says what to download, in one line", "[cli][gpt2][errors]") {
  Scratch s;
  for (const std::string& cmd : std::vector<std::string>{"sample --init_from=gpt2", "eval --init_from=gpt2-xl --gpt2_dir=" + s.path("none"),
                                "train --init_from=gpt2-medium --out_dir=" + s.path("o")}) {
    INFO(cmd);
    const Run r = attic_run(cmd);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, ContainsSubstring("download config.json, model.safetensors, vocab.json and merges.txt"));
    CHECK(lines_matching(r.out, "^attic: ").size() == 1);
  }
  CHECK_FALSE(fs::exists(s.path("o")));
}

TEST_CASE("nanoGPT's command-line keys are accepted or refused in one line", "[cli][nanogpt]") {
  Scratch s;
  const Run ok = attic_run("train " + s.tiny("out") + " --max_iters=1 --device=cpu --compile=False --dtype=float32 "
                           "--wandb_log=False --wandb_project=owt --wandb_run_name=x --backend=nccl");
  INFO(ok.out);
  CHECK(ok.code == 0);
  const Run c = attic_run("train " + s.tiny("out2") + " --max_iters=1 --compile=True");
  INFO(c.out);
  CHECK(c.code == 0);
  CHECK(lines_matching(c.out, "^note: compile = true: attic has no compile step").size() == 1);
  check_one_line(attic_run("train " + s.tiny("no") + " --wandb_log=True"),
                 "wandb_log = true: attic does not log to Weights & Biases (it has no network client); its log is "
                 "the iter lines it prints and out_dir/loss.svg. Give wandb_log = false");
  check_one_line(attic_run("train " + s.tiny("no") + " --dtype=float16"),
                 "dtype = float16: attic trains and evaluates in float32 or bfloat16. float16 training needs a "
                 "loss scaler "
                 "(nanoGPT's GradScaler), which attic does not have, and the CPU has no float16 products; "
                 "bfloat16 has float32's range and needs none");
  CHECK_FALSE(fs::exists(s.path("no")));
  // nanoGPT's dataset = 'shakespeare_char' names the folder data/shakespeare_char.
  const Run named = attic_run("train --dataset=shakespeare_char --out_dir=" + s.path("named") +
                              " --n_layer=1 --n_head=1 --n_embd=8 --block_size=8 --batch_size=2 --max_iters=0 --eval_iters=1");
  INFO(named.out);
  CHECK(named.code == 0);
  CHECK_THAT(named.out, ContainsSubstring("shakespeare_char: 1115394 characters"));
}

TEST_CASE("every command's --help prints its usage and exits 0", "[cli][help]") {
  for (const std::string cmd : {"", "train", "sample", "eval", "compare", "seq2seq", "export", "bench", "bench gemm",
                                "bench gpt2", "bench bpe", "data", "data bpe", "data digit_mul", "analyze", "analyze entropy",
                                "analyze routers", "plot", "plot speedup", "plot linformer-heads"}) {
    INFO(cmd);
    const Run r = attic_run(cmd + " --help");
    CHECK(r.code == 0);
    CHECK(r.out.rfind("usage: attic", 0) == 0);
  }
  // attic bench bpe trains and times the tokenizer on a text.
  Scratch s;
  const Run b = attic_run("bench bpe --vocab=260 --iters=1 --text=" + s.path("corpus.txt") + " --save=" + s.path("t.bpe"));
  INFO(b.out);
  CHECK(b.code == 0);
  CHECK(lines_matching(b.out, "^bpe: trained 260 ids on .* encode_ordinary -> [0-9]+ tokens").size() == 1);
  CHECK(BpeTokenizer::load(s.path("t.bpe")).vocab_size() == 260);
  const Run none = attic_run("data");
  CHECK(none.code == 2);
  CHECK_THAT(none.out, ContainsSubstring("expected one of 'digit_mul', 'bpe'"));
}
