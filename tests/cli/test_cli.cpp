// The `attic` command end to end, on a tiny corpus: train, resume, sample, eval, errors.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "train/checkpoint.h"
#include "cli/cli_helpers.h"
#include "helpers.h"
#include "tensor/backend.h"

namespace fs = std::filesystem;

using namespace attic::testing;

namespace {

// "iter 7: loss 2.1234, time 3.21 ms" -> "iter 7: loss 2.1234" (time varies run to run)
std::vector<std::string> losses(const std::string& text) {
  std::vector<std::string> out;
  for (std::string l : lines_matching(text, "^(iter|step) ")) {
    const size_t t = l.find(", time");
    out.push_back(t == std::string::npos ? l : l.substr(0, t));
  }
  return out;
}

}  // namespace

TEST_CASE("attic train runs 30 iterations on a tiny corpus and writes its outputs", "[cli][e2e]") {
  Scratch s;
  Run r = attic_run("train " + s.tiny("out") + " --max_iters=30 --eval_interval=10");
  INFO(r.out);
  REQUIRE(r.code == 0);
  CHECK(lines_matching(r.out, "^step (0|10|20|30): train loss [0-9.]+, val loss [0-9.]+$").size() == 4);
  CHECK(lines_matching(r.out, "^iter [0-9]+: loss [0-9.]+, time [0-9.]+ ms$").size() == 31);
  CHECK(lines_matching(r.out, "^Overriding: max_iters = 30$").size() == 1);
  CHECK(lines_matching(r.out, "^peak memory: [0-9.]+ MiB \\(cpu\\)$").size() == 1);
  CHECK(fs::exists(s.path("out/ckpt.safetensors")));
  CHECK(fs::exists(s.path("out/optim.safetensors")));
  CHECK(fs::exists(s.path("out/loss.svg")));
  CHECK_FALSE(fs::exists(s.path("out/ckpt.safetensors.tmp")));
  // it learned something: the last eval is well below the first
  std::vector<std::string> steps = lines_matching(r.out, "^step ");
  const double first = std::stod(steps.front().substr(steps.front().rfind(' ') + 1));
  const double last = std::stod(steps.back().substr(steps.back().rfind(' ') + 1));
  CHECK(last < first - 0.3);

  Run smp = attic_run("sample --out_dir=" + s.path("out") +
                      " --start=To --num_samples=2 --max_new_tokens=20 --seed=3");
  INFO(smp.out);
  CHECK(smp.code == 0);
  CHECK(lines_matching(smp.out, "^---------------$").size() == 2);
  CHECK(smp.out.rfind("To", 0) == 0);
  Run again = attic_run("sample --out_dir=" + s.path("out") +
                        " --start=To --num_samples=2 --max_new_tokens=20 --seed=3");
  CHECK(again.out == smp.out);  // seeded

  Run ev = attic_run("eval --out_dir=" + s.path("out"));
  INFO(ev.out);
  CHECK(ev.code == 0);
  CHECK(lines_matching(ev.out, "^iter 30 checkpoint: train loss [0-9.]+, val loss [0-9.]+$").size() == 1);
}

TEST_CASE("N iterations straight equal N/2 then a resume of N/2", "[cli][e2e]") {
  Scratch s;
  const std::string common = " --max_iters=20 --eval_interval=10 --always_save_checkpoint=true --dropout=0.1";
  Run straight = attic_run("train " + s.tiny("a") + common);
  REQUIRE(straight.code == 0);
  Run first = attic_run("train " + s.tiny("b") + " --max_iters=10 --eval_interval=10 --always_save_checkpoint=true --dropout=0.1");
  REQUIRE(first.code == 0);
  Run second = attic_run("train " + s.tiny("b") + common + " --init_from=resume");
  INFO(second.out);
  REQUIRE(second.code == 0);
  CHECK(lines_matching(second.out, "^resuming from .* at iteration 10$").size() == 1);

  std::vector<std::string> want = losses(straight.out);
  std::vector<std::string> got = losses(first.out);
  // the first run ends with its step-10 evaluation and the step at iter 10; the resumed run
  // evaluates iteration 10 again and goes on from there
  got.pop_back();  // iter 10 of the first run
  got.pop_back();  // step 10 of the first run
  std::vector<std::string> rest = losses(second.out);
  got.insert(got.end(), rest.begin(), rest.end());
  CHECK(got == want);
}

TEST_CASE("attic eval prints the train and val loss that attic train logged at the checkpoint's step",
          "[cli][e2e]") {
  Scratch s;
  Run train = attic_run("train " + s.tiny("out") + " --max_iters=12 --eval_interval=6 --dropout=0.1"
                        " --always_save_checkpoint=true --seed=7");
  INFO(train.out);
  REQUIRE(train.code == 0);
  const std::vector<std::string> step = lines_matching(train.out, "^step 12: ");
  REQUIRE(step.size() == 1);
  Run ev = attic_run("eval --out_dir=" + s.path("out"));
  INFO(ev.out);
  REQUIRE(ev.code == 0);
  // "step 12: train loss A, val loss B" -> "iter 12 checkpoint: train loss A, val loss B",
  // then the val loss in bits per character
  CHECK(ev.out.substr(0, ev.out.find('\n') + 1) == "iter 12 checkpoint: " + step[0].substr(std::string("step 12: ").size()) + "\n");
  CHECK(lines_matching(ev.out, "^val: [0-9.]+ bits per character").size() == 1);
  // a flag still overrides what eval may change: more batches give another estimate
  Run more = attic_run("eval --out_dir=" + s.path("out") + " --eval_iters=5");
  CHECK(more.code == 0);
  CHECK(more.out != ev.out);
  Run model_key = attic_run("eval --out_dir=" + s.path("out") + " --n_layer=2");
  CHECK(model_key.code == 2);
  CHECK(model_key.out == "attic: unknown config key 'n_layer' (--help lists the keys)\n");
}

TEST_CASE("a resume given only out_dir takes every key from the checkpoint and repeats the run",
          "[cli][e2e]") {
  Scratch s;
  // every key the tiny model sets differs from TrainConfig's default
  const std::string flags = s.tiny("a") + " --dropout=0.1 --bias=true --weight_decay=0.05"
                            " --beta2=0.99 --grad_clip=0.5 --eval_interval=10 --seed=5"
                            " --always_save_checkpoint=true --gradient_accumulation_steps=2";
  Run straight = attic_run("train " + flags + " --max_iters=20");
  REQUIRE(straight.code == 0);
  const std::string first_flags = std::regex_replace(flags, std::regex("/a "), "/b ");
  Run first = attic_run("train " + first_flags + " --max_iters=10");
  REQUIRE(first.code == 0);
  const std::string saved = attic::train::read_checkpoint_info(s.path("b")).config;
  Run second = attic_run("train --init_from=resume --out_dir=" + s.path("b") + " --max_iters=20");
  INFO(second.out);
  REQUIRE(second.code == 0);
  CHECK(lines_matching(second.out, "^resuming from .* at iteration 10$").size() == 1);

  // The resumed run's checkpoint records every key as the first run did, but the two given.
  const std::string resumed = attic::train::read_checkpoint_info(s.path("b")).config;
  std::istringstream a(saved), b(resumed);
  int keys = 0;
  for (std::string la, lb; std::getline(a, la) && std::getline(b, lb); ++keys) {
    INFO(la << " | " << lb);
    if (la.rfind("init_from = ", 0) == 0) CHECK(lb == "init_from = \"resume\"");
    else if (la.rfind("max_iters = ", 0) == 0) CHECK(lb == "max_iters = 20");
    else CHECK(la == lb);
  }
  CHECK(keys > 30);

  std::vector<std::string> got = losses(first.out);
  got.pop_back();  // iter 10 of the first run
  got.pop_back();  // step 10 of the first run
  std::vector<std::string> rest = losses(second.out);
  got.insert(got.end(), rest.begin(), rest.end());
  CHECK(got == losses(straight.out));
}

TEST_CASE("a resume given another model shape is one line naming the key", "[cli][errors]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=2").code == 0);
  Run r = attic_run("train " + s.tiny("out") + " --max_iters=4 --init_from=resume --n_layer=2");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: n_layer = 2 was given, but the checkpoint in .*out was "
                              "trained with n_layer = 1$").size() == 1);
}

TEST_CASE("a bool key may be given bare, as --flag, any other key needs a value", "[cli][errors]") {
  Run r = attic_run("bench train --preset=cpu --iters=1 --warmup=0 --threads=1 --json");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^\\{\"bench\": \"train\", ").size() == 1);
  r = attic_run("bench train --iters");
  CHECK(r.code == 2);
  CHECK(r.out == "attic: config key 'iters' needs a value: --iters=N (only a bool key may be given bare)\n");
  r = attic_run("train --dataset");
  CHECK(r.code == 2);
  CHECK(r.out == "attic: config key 'dataset' needs a value: --dataset=TEXT (only a bool key may be given bare)\n");
  r = attic_run("train --no_such_flag");
  CHECK(r.code == 2);
  CHECK(r.out == "attic: unknown config key 'no_such_flag' (--help lists the keys)\n");
}

TEST_CASE("every command prints its keys for --help and exits 0", "[cli]") {
  for (const std::string cmd : {"train", "eval", "sample", "bench train", "seq2seq"}) {
    Run r = attic_run(cmd + " --help");
    INFO(cmd << "\n" << r.out);
    CHECK(r.code == 0);
    CHECK(r.out.rfind("usage: attic ", 0) == 0);
    CHECK(r.out.find("\nkeys:\n  --") != std::string::npos);
  }
}

TEST_CASE("bad flags and configs give one line and exit code 2", "[cli][errors]") {
  Scratch s;
  Run r = attic_run("train --no_such_key=1");
  CHECK(r.code == 2);
  CHECK(r.out == "attic: unknown config key 'no_such_key' (--help lists the keys)\n");
  r = attic_run("train --batch_size=twelve");
  CHECK(r.code == 2);
  CHECK(r.out == "attic: config key 'batch_size' expects an integer, got 'twelve'\n");
  r = attic_run("train " + s.path("missing.cfg"));
  CHECK(r.code == 2);
  CHECK(r.out == "attic: cannot read config file '" + s.path("missing.cfg") + "': no such file\n");
  std::ofstream(s.path("bad.cfg")) << "n_layer = 2\nthis line has no equals sign\n";
  r = attic_run("train " + s.path("bad.cfg"));
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: .*bad.cfg:2: expected 'key = value'").size() == 1);
  r = attic_run("train --dataset=" + s.path("nope.txt") + " --max_iters=1");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: .*nope.txt").size() == 1);
  r = attic_run("frobnicate");
  CHECK(r.code == 2);
  r = attic_run("train --init_from=resume --out_dir=" + s.path("empty"));
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: ").size() == 1);
}

TEST_CASE("attic train --detect_anomaly=true stops at the first Inf or NaN with one line", "[cli][errors]") {
  Scratch s;
  // A sane run is unchanged by the checks.
  Run r = attic_run("train " + s.tiny("out") + " --max_iters=1 --detect_anomaly=true");
  CHECK(r.code == 0);
  // A learning rate of 1e37 throws the weights past float32's range after the first step.
  r = attic_run("train " + s.tiny("out2") + " --max_iters=3 --detect_anomaly=true"
                " --learning_rate=1e37 --grad_clip=0 --eval_interval=100");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: anomaly: forward of [A-Za-z]+ produced .* was created as "
                              "op #[0-9]+ of the forward").size() == 1);
}

TEST_CASE("a loss that is not finite stops training, and the last good checkpoint stays",
          "[cli][errors]") {
  Scratch s;
  const auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  Run good = attic_run("train " + s.tiny("out") + " --max_iters=10 --eval_interval=5"
                       " --always_save_checkpoint=true");
  REQUIRE(good.code == 0);
  const std::string model = bytes(s.path("out/ckpt.safetensors"));
  const std::string optim = bytes(s.path("out/optim.safetensors"));
  // A resume at a learning rate of 1e30 (accepted: finite as float32) diverges at once; with
  // always_save_checkpoint its next evaluation would have saved the NaN weights.
  Run bad = attic_run("train " + s.tiny("out") + " --max_iters=20 --eval_interval=5"
                      " --always_save_checkpoint=true --init_from=resume --learning_rate=1e30"
                      " --min_lr=1e29 --grad_clip=0");
  INFO(bad.out);
  CHECK(bad.code == 2);
  const auto stop = lines_matching(bad.out, "^attic: train: the (training|evaluated (train|val)) "
                                            "loss at iteration [0-9]+ is -?(nan|inf)");
  CHECK(stop.size() == 1);
  CHECK(lines_matching(bad.out, "^attic: ").size() == 1);
  CHECK(lines_matching(bad.out, "learning_rate \\(1e\\+30\\)").size() == 1);
  CHECK(lines_matching(bad.out, "^saving checkpoint").empty());
  CHECK(bytes(s.path("out/ckpt.safetensors")) == model);
  CHECK(bytes(s.path("out/optim.safetensors")) == optim);
  // The out_dir still evaluates, and resumes with the keys it was saved with.
  CHECK(attic_run("eval --out_dir=" + s.path("out")).code == 0);
  CHECK(attic_run("train --out_dir=" + s.path("out") + " --max_iters=12 --init_from=resume").code == 0);
  // From scratch the same: the first evaluation after the divergence is never reached.
  Run scratch = attic_run("train " + s.tiny("fresh") + " --max_iters=20 --eval_interval=5"
                          " --always_save_checkpoint=true --learning_rate=1e30 --min_lr=1e29"
                          " --warmup_iters=0 --grad_clip=0");
  CHECK(scratch.code == 2);
  CHECK_FALSE(fs::exists(s.path("fresh/ckpt.safetensors")));
}

TEST_CASE("a corrupt checkpoint is an error, never a crash", "[cli][errors]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=1").code == 0);
  const std::string ckpt = s.path("out/ckpt.safetensors");
  const auto size = fs::file_size(ckpt);
  fs::resize_file(ckpt, size / 2);
  Run r = attic_run("sample --out_dir=" + s.path("out") + " --max_new_tokens=5");
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: .*ckpt.safetensors").size() == 1);
  r = attic_run("train " + s.tiny("out") + " --max_iters=4 --init_from=resume");
  CHECK(r.code == 2);
}

TEST_CASE("attic train --help lists the keys", "[cli]") {
  Run r = attic_run("train --help");
  CHECK(r.code == 0);
  CHECK(r.out.find("--learning_rate=") != std::string::npos);
  CHECK(r.out.find("--threads=") != std::string::npos);
}

TEST_CASE("attic bench train prints one JSON line with ms_per_iter and peak memory", "[cli][bench]") {
  Run r = attic_run("bench train --preset=cpu --iters=2 --warmup=0 --threads=1 --json=true");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(lines_matching(r.out, "^\\{\"bench\": \"train\", \"preset\": \"cpu\", \"attention\": \"softmax\", "
                              "\"dtype\": \"float32\", \"device\": \"cpu\", \"threads\": 1, \"batch_size\": 12, \"block_size\": 64, "
                              "\"n_layer\": 4, \"n_head\": 4, \"n_embd\": 128, \"dropout\": 0, "
                              "\"iters\": 2, \"ms_per_iter\": [0-9.]+, "
                              "\"tokens_per_s\": [0-9]+, \"forward_ms\": [0-9.]+, \"backward_ms\": [0-9.]+, "
                              "\"optimizer_ms\": [0-9.]+, \"cpu_ms_per_iter\": [0-9.]+, "
                              "\"page_faults_per_iter\": [0-9.]+, "
                              "\"peak_memory_bytes\": [1-9][0-9]*, \"peak_rss_bytes\": [1-9][0-9]*\\}$")
            .size() == 1);
  Run text = attic_run("bench train --preset=cpu --iters=2 --warmup=0 --threads=1 --attention=linear_elu");
  INFO(text.out);
  CHECK(text.code == 0);
  CHECK(lines_matching(text.out, "^train cpu \\(linear_elu attention, float32\\) on cpu: B 12, T 64, 4 layers, 4 heads, "
                                 "C 128, dropout 0; 1 threads, 2 iterations").size() == 1);
  CHECK(lines_matching(text.out, "^  peak memory: [0-9.]+ MiB \\(cpu allocator\\), process peak RSS [0-9.]+ MiB$")
            .size() == 1);
  // any field of the preset's shape replaced
  Run shaped = attic_run("bench train --iters=1 --warmup=0 --threads=1 --n_embd=64 --block_size=16 "
                         "--batch_size=2 --n_layer=1 --n_head=2 --dropout=0.1 --json=true");
  INFO(shaped.out);
  CHECK(shaped.code == 0);
  CHECK(lines_matching(shaped.out, "\"batch_size\": 2, \"block_size\": 16, \"n_layer\": 1, \"n_head\": 2, "
                                   "\"n_embd\": 64, \"dropout\": 0.1, ").size() == 1);
  Run odd = attic_run("bench train --n_embd=100 --n_head=3");
  CHECK(odd.code == 2);
  CHECK(odd.out == "attic: bench train: batch_size, block_size, n_layer, n_head and n_embd must be positive "
                   "and n_embd divisible by n_head, got 12, 64, 4, 3, 100\n");
  Run bad = attic_run("bench train --preset=tpu");
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: bench train: preset must be cpu or gpu-size, got 'tpu'\n");
  Run what = attic_run("bench fastest");
  CHECK(what.code == 2);
  CHECK(what.out == "attic: bench: expected one of 'gemm', 'train', 'attention', 'sample', 'elita', 'linformer', "
                    "'gpt2', 'bpe' (attic bench --help says what each does), got 'fastest'\n");
}

TEST_CASE("attic bench train --products replays the step's matrix products alone", "[cli][bench]") {
  const std::string tiny = "bench train --iters=2 --warmup=1 --threads=1 --n_embd=32 --n_head=2 "
                           "--block_size=16 --batch_size=2 --n_layer=1 --products=true";
  Run j = attic_run(tiny + " --json=true");
  INFO(j.out);
  CHECK(j.code == 0);
  CHECK(lines_matching(j.out, "\"peak_rss_bytes\": [1-9][0-9]*, \"gemm_calls\": [1-9][0-9]*, "
                              "\"products_ms\": [0-9.]+, \"products_gflop\": 0\\.[0-9]{4}, "
                              "\"step_over_products\": [0-9.]+\\}$").size() == 1);
  Run text = attic_run(tiny);
  INFO(text.out);
  CHECK(text.code == 0);
  CHECK(lines_matching(text.out, "^  matrix products alone \\(this step's [1-9][0-9]* gemm calls, replayed after "
                                 "each step\\): [0-9.]+ ms/iter \\(median\\), 0\\.[0-9]{3} GFLOP at [0-9.]+ "
                                 "GFLOP/s; the step takes [0-9.]+x their time$").size() == 1);
  // without the flag, neither line nor fields
  Run plain = attic_run("bench train --iters=1 --warmup=0 --threads=1 --n_embd=32 --n_head=2 --block_size=16 "
                        "--batch_size=2 --n_layer=1 --json=true");
  CHECK(plain.code == 0);
  CHECK(plain.out.find("products") == std::string::npos);
  Run cold = attic_run("bench train --iters=1 --warmup=0 --products=true");
  CHECK(cold.code == 2);
  CHECK(cold.out == "attic: bench train: --products records the products of the last warm-up step, "
                    "got --warmup=0\n");
}

TEST_CASE("attic plot speedup draws the sweep's table, one panel per axis", "[cli][bench][viz]") {
  Scratch s;
  std::ofstream(s.path("sweep.tsv")) << "# axis\tvalue\tspeed-up\n"
                                        "n_embd\t128\t1.61\nn_embd\t256\t1.42\n"
                                        "block_size\t64\t1.61\nblock_size\t256\t1.9\n";
  Run r = attic_run("plot speedup --in=" + s.path("sweep.tsv") + " --out=" + s.path("sweep.svg"));
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(r.out == "wrote " + s.path("sweep.svg") + ": 2 panels\n");
  std::ifstream f(s.path("sweep.svg"));
  const std::string svg((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK(svg.find("speed-up as n_embd grows") != std::string::npos);
  CHECK(svg.find("speed-up as block_size grows") != std::string::npos);
  std::ofstream(s.path("bad.tsv")) << "n_embd\t128\tfast\n";
  Run bad = attic_run("plot speedup --in=" + s.path("bad.tsv") + " --out=" + s.path("bad.svg"));
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: plot speedup: " + s.path("bad.tsv") +
                       " line 1 is not 'axis<TAB>value<TAB>speed-up': 'n_embd\\t128\\tfast'\n");
  CHECK(!std::filesystem::exists(s.path("bad.svg")));
}

TEST_CASE("device cuda is one clear line and exit 2 where CUDA cannot run", "[cli][device]") {
  Scratch s;
  // The CPU benches refuse another device on any machine, rather than print CPU figures.
  for (const std::string bench : {"gemm", "attention", "sample", "elita", "linformer"}) {
    Run r = attic_run("bench " + bench + " --device=cuda");
    INFO(r.out);
    CHECK(r.out == "attic: bench " + bench + " times the CPU only; --device=cuda is for bench train and bench gpt2\n");
    CHECK(r.code == 2);
  }
  if (attic::cuda_available()) {  // a GPU machine: the tiny model trains there instead
    Run r = attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=2 --device=cuda");
    INFO(r.out);
    CHECK(r.code == 0);
    return;
  }
  // "attic was built without CUDA" in a CPU-only build; the driver's reason in a CUDA build
  const std::string why = "^attic: (attic was built without CUDA|cuda: no CUDA device is "
                          "available \\(.*\\))\n$";
  for (const std::string& cmd :
       {"train " + s.tiny("out") + " --max_iters=2 --device=cuda",
        "sample --out_dir=" + s.path("none") + " --device=cuda",
        "eval --out_dir=" + s.path("none") + " --device=cuda",
        std::string("bench train --preset=cpu --iters=1 --device=cuda"),
        std::string("bench gpt2 --what=step --iters=1 --warmup=0 --device=cuda")}) {
    Run r = attic_run(cmd);
    INFO(cmd << "\n" << r.out);
    CHECK(r.code == 2);
    CHECK(std::regex_search(r.out.substr(r.out.rfind("attic: ")), std::regex(why)));
  }
  Run bad = attic_run("bench train --device=tpu");
  CHECK(bad.code == 2);
  CHECK(bad.out == "attic: device must be cpu or cuda, got 'tpu'\n");
}

TEST_CASE("a dataset beyond ASCII trains on its bytes, and its checkpoint evaluates, samples and resumes",
          "[cli][e2e][robustness]") {
  Scratch s;
  std::string all_bytes;
  for (int i = 0; i < 40; ++i)
    for (int b = 0; b < 256; ++b) all_bytes += static_cast<char>(b);
  std::string utf8, latin1;
  for (int i = 0; i < 200; ++i) utf8 += "h\xc3\xa9llo w\xc3\xb6rld \xe2\x98\x83 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x8e\x89 \n";
  for (int i = 0; i < 300; ++i) latin1 += "caf\xe9 na\xefve\n";
  for (const auto& [name, text] : {std::pair{"utf8", utf8}, {"latin1", latin1}, {"bytes", all_bytes}}) {
    INFO(name);
    std::ofstream(s.path(std::string(name) + ".txt"), std::ios::binary) << text;
    const std::string out = std::string(name) + "_out";
    const std::string flags = s.tiny(out) + " --dataset=" + s.path(std::string(name) + ".txt");
    Run r = attic_run("train " + flags + " --max_iters=4 --eval_interval=4");
    INFO(r.out);
    REQUIRE(r.code == 0);
    CHECK(lines_matching(r.out, "^note: [0-9]+ of the [0-9]+ tokens are bytes 0x80\\.\\.0xff").size() == 1);
    CHECK(attic_run("eval --out_dir=" + s.path(out) + " --eval_iters=2 --threads=1").code == 0);
    CHECK(attic_run("sample --out_dir=" + s.path(out) + " --start=h --num_samples=1 --max_new_tokens=8 --threads=1")
              .code == (std::string(name) == "latin1" ? 2 : 0));  // Latin-1's text has no 'h'
    CHECK(attic_run("train --out_dir=" + s.path(out) + " --init_from=resume --max_iters=8").code == 0);
  }
  // A path that is not UTF-8 cannot go into a checkpoint's (JSON) header: refused before any work.
  check_one_line(attic_run("train " + s.tiny("x") + " --out_dir=" + s.path("caf\xe9")),
                 "config key 'out_dir' must be UTF-8 text (byte " + std::to_string(s.path("caf").size()) +
                     " is not), got '" + s.path("caf") + "\\xe9'");
  CHECK_FALSE(fs::exists(s.path("caf\xe9")));
}

TEST_CASE("a resume runs with the settings it is given: a new weight_decay changes the steps after it",
          "[cli][e2e][robustness]") {
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("a") + " --max_iters=6 --eval_interval=6").code == 0);
  fs::copy(s.path("a"), s.path("b"), fs::copy_options::recursive);
  fs::copy(s.path("a"), s.path("c"), fs::copy_options::recursive);
  auto last_iter_line = [&](const std::string& dir, const std::string& more) {
    Run r = attic_run("train --out_dir=" + s.path(dir) + " --init_from=resume --max_iters=12" + more);
    INFO(r.out);
    REQUIRE(r.code == 0);
    const std::vector<std::string> lines = lines_matching(r.out, "^iter 12: loss ");
    REQUIRE(lines.size() == 1);
    return lines[0].substr(0, lines[0].find(", time"));
  };
  const std::string plain = last_iter_line("a", "");
  CHECK(last_iter_line("b", " --weight_decay=0.1") == plain);  // the checkpoint's own value
  CHECK(last_iter_line("c", " --weight_decay=30") != plain);
}
