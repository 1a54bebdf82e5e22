// The bad-input corpus: flags, config files, prompts and datasets that `attic` must refuse,
// each run through the real command. A refusal is exit code 2 and exactly one line on
// stderr, "attic: ...", that names the setting or file at fault, is short however long the
// input, and holds nothing of the C++ library ("terminate", "std::", "basic_filebuf").
// A few valid edge inputs follow, which must be accepted exactly as given.
//
// Each TEST_CASE prints "bad inputs (GROUP): K of N mishandled": run against any `attic`
// binary, the program counts what that binary gets wrong.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "tests/catch.h"
#include <sys/stat.h>

#include "cli/cli_helpers.h"
#include <sys/wait.h>

namespace fs = std::filesystem;

namespace {

using attic::testing::sh_quote;
using attic::testing::slurp;

struct Outcome {
  int code;
  std::string out, err;
};

// The scratch folder: a small corpus, a checkpoint trained on it, and the bad files.
struct Fixture {
  fs::path dir;
  std::string corpus_text;

  Fixture() {
    dir = fs::temp_directory_path() / ("attic-bad-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir / "a_dir");
    fs::create_directories(dir / "empty_dir");
    REQUIRE(mkfifo((dir / "a_fifo").c_str(), 0600) == 0);  // a pipe: no place for a file to be renamed to
    for (int i = 0; i < 60; ++i) corpus_text += "ROMEO: \"Hi! To be, or not to be,\" he said.\n";
    write("corpus.txt", corpus_text);
    write("empty.txt", "");
    write("short.txt", "To be.\n");  // 7 characters: shorter than block_size 16
    write("nul.cfg", std::string("max_iters = 7\0garbage\n", 22));
    write("open_quote.cfg", "out_dir = \"" + path("q#x") + "\n");
    write("after_quote.cfg", "out_dir = \"" + path("q") + "\" junk\n");
    write("bom_typo.cfg", "\xEF\xBB\xBFn_layr = 2\n");
    write("big_value.cfg", "model = " + std::string(1 << 20, 'x') + "\n");
    write("bad_line.cfg", "max_iters 3\n");
    write("bad_compare.cfg", "base = bom.cfg\nout_dir = " + path("cmp") + "\nrun: threads=-4\n");
    std::string junk(4096, '\0');
    std::mt19937 rng(7);
    for (char& c : junk) c = char(rng());
    write("junk.bin", junk);
    // the valid ones
    write("bom.cfg", "\xEF\xBB\xBFmax_iters = 0\n");
    fs::create_directories(dir / "with#hash");
    write("with#hash/corpus.txt", corpus_text);
    write("hash.cfg", "dataset = \"" + path("with#hash/corpus.txt") + "\"  # a \"quoted\" comment\n");
    const Outcome ck = run({"train", "--max_iters=1", "--eval_interval=1", "--out_dir=" + path("ck")});
    INFO(ck.out << ck.err);
    REQUIRE(ck.code == 0);
  }
  ~Fixture() { fs::remove_all(dir); }

  std::string path(const std::string& name) const { return (dir / name).string(); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(dir / name, std::ios::binary) << text;
  }
  // The flags of a tiny GPT on the corpus, before the case's own (a later flag wins).
  std::vector<std::string> tiny() const {
    return {"--dataset=" + path("corpus.txt"), "--out_dir=" + path("out"), "--n_layer=1",
            "--n_head=2", "--n_embd=16", "--block_size=16", "--batch_size=4", "--eval_iters=2",
            "--warmup_iters=0", "--lr_decay_iters=30", "--max_iters=0", "--threads=1"};
  }

  // `attic` with args; stdout and stderr apart. A run still going after 60 s is stopped
  // (where `timeout` exists): it took an input it should have refused.
  Outcome run(std::vector<std::string> args) const {
    if (!args.empty() && args[0] == "train") {
      std::vector<std::string> t = tiny();
      args.insert(args.begin() + 1, t.begin(), t.end());
    }
    static const bool has_timeout = std::system("command -v timeout > /dev/null 2>&1") == 0;
    std::string cmd = "cd ";
    cmd.append(sh_quote(dir.string())).append(" && ").append(has_timeout ? "timeout 60 " : "").append(attic::testing::attic_command());
    for (const std::string& a : args) cmd.append(" ").append(sh_quote(a));
    cmd.append(" > ").append(sh_quote(path("stdout"))).append(" 2> ").append(sh_quote(path("stderr")));
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
  }
};

struct Case {
  std::vector<std::string> args;  // after `attic`; train's get the tiny model's flags first
  std::string names;              // what the message must name: the setting, or the file
};

// Why the outcome is not a proper refusal ("" when it is).
std::string refusal_problem(const Outcome& o, const std::string& names) {
  if (o.code != 2) return "exit code " + std::to_string(o.code) + ", not 2";
  if (o.err.empty() || o.err.back() != '\n' || o.err.find('\n') != o.err.size() - 1)
    return "stderr is not exactly one line";
  if (o.err.rfind("attic: ", 0) != 0) return "the line does not start with 'attic: '";
  for (const char* leak : {"terminate", "std::", "basic_filebuf", "filesystem error"})
    if (o.err.find(leak) != std::string::npos) return std::string("the line shows '") + leak + "'";
  if (o.err.size() > 1000) return "the line is " + std::to_string(o.err.size()) + " bytes long";
  if (o.err.find(names) == std::string::npos) return "the line does not name '" + names + "'";
  return "";
}

// Runs every case; each must be refused. Prints the count of those that were not.
void expect_refused(const Fixture& f, const std::string& group, const std::vector<Case>& cases) {
  int bad = 0;
  for (const Case& c : cases) {
    const Outcome o = f.run(c.args);
    const std::string problem = refusal_problem(o, c.names);
    std::string shown;
    for (const std::string& a : c.args) shown.append(shown.empty() ? "" : " ").append(a, 0, 120);
    INFO("attic " << shown << "\n  " << problem << "\n  stderr: " << o.err.substr(0, 600));
    CHECK(problem.empty());
    bad += !problem.empty();
  }
  std::cout << "bad inputs (" << group << "): " << bad << " of " << cases.size() << " mishandled\n";
}

}  // namespace

TEST_CASE("an unknown command is one line and the hint attic --help", "[cli][bad_inputs]") {
  Fixture f;
  const Outcome o = f.run({"frobnicate"});
  const std::string problem = refusal_problem(o, "frobnicate");
  INFO(o.err);
  CHECK(problem.empty());
  CHECK(o.err.find("attic --help") != std::string::npos);
  std::cout << "bad inputs (command): " << (problem.empty() ? 0 : 1) << " of 1 mishandled\n";
}

TEST_CASE("train refuses each bad flag with one line naming the setting", "[cli][bad_inputs]") {
  Fixture f;
  expect_refused(f, "train flags", {
    {{"train", "--threads=4294967297"}, "threads"},
    {{"train", "--threads=2147483648"}, "'2147483648'"},
    {{"train", "--threads=-1"}, "threads"},
    {{"train", "--threads=99999999999999999999"}, "threads"},
    {{"train", "--max_iters=-1"}, "max_iters"},
    {{"train", "--max_iters=7x"}, "max_iters"},
    {{"train", "--max_iters=1.5"}, "max_iters"},
    {{"train", "--max_iters="}, "max_iters"},
    {{"train", "--max_iters= 3"}, "max_iters"},
    {{"train", "--eval_iters=0"}, "eval_iters"},
    {{"train", "--eval_iters=-5"}, "eval_iters"},
    {{"train", "--eval_interval=0"}, "eval_interval"},
    {{"train", "--log_interval=-1"}, "log_interval"},
    {{"train", "--batch_size=0"}, "batch_size"},
    {{"train", "--batch_size=-1"}, "batch_size"},
    {{"train", "--block_size=0"}, "block_size"},
    {{"train", "--n_layer=0"}, "n_layer"},
    {{"train", "--n_head=-2"}, "n_head"},
    {{"train", "--n_embd=0"}, "n_embd"},
    {{"train", "--gradient_accumulation_steps=0"}, "gradient_accumulation_steps"},
    {{"train", "--warmup_iters=-1"}, "warmup_iters"},
    {{"train", "--seed=-1"}, "seed"},
    {{"train", "--seed=18446744073709551616"}, "seed"},
    {{"train", "--learning_rate=nan"}, "learning_rate"},
    {{"train", "--learning_rate=inf"}, "learning_rate"},
    {{"train", "--learning_rate=-0.1"}, "learning_rate"},
    {{"train", "--learning_rate=1e400"}, "learning_rate"},
    {{"train", "--learning_rate=1e-400"}, "learning_rate"},
    {{"train", "--min_lr=-1"}, "min_lr"},
    {{"train", "--weight_decay=-0.1"}, "weight_decay"},
    {{"train", "--beta1=1"}, "beta1"},
    {{"train", "--beta2=-0.5"}, "beta2"},
    {{"train", "--grad_clip=-1"}, "grad_clip"},
    {{"train", "--grad_clip=inf"}, "grad_clip"},
    {{"train", "--dropout=1"}, "dropout"},
    {{"train", "--dropout=-0.1"}, "dropout"},
    {{"train", "--dropout=nan"}, "dropout"},
    {{"train", "--decay_lr=yes"}, "decay_lr"},
    {{"train", "--bias=2"}, "bias"},
    {{"train", "--init_from="}, "init_from"},
    {{"train", "--model="}, "model"},
    {{"train", "--attention="}, "attention"},
    {{"train", "--lr_schedule="}, "lr_schedule"},
    {{"train", "--device="}, "device"},
    {{"train", "--model=" + std::string(100000, 'x')}, "model"},
    {{"train", "--n_layr=2"}, "n_layr"},
    {{"train", "--max_iters"}, "max_iters"},
    {{"train", "--out_dir="}, "out_dir"},
    {{"train", "--out_dir=" + f.path("corpus.txt")}, "corpus.txt"},
    {{"train", "--out_dir=" + f.path("a\nb")}, "out_dir"},
    {{"train", "--attention_options=a=\"'"}, "attention_options"},
    {{"train", "--init_from=resume", "--out_dir=" + f.path("empty_dir")}, "empty_dir"},
  });
}

TEST_CASE("train refuses bad config files and datasets with one line naming the file", "[cli][bad_inputs]") {
  Fixture f;
  expect_refused(f, "config files and datasets", {
    {{"train", f.path("a_dir")}, "a_dir"},
    {{"train", f.path("missing.cfg")}, "missing.cfg"},
    {{"train", f.path("nul.cfg")}, "nul.cfg"},
    {{"train", f.path("open_quote.cfg")}, "out_dir"},
    {{"train", f.path("after_quote.cfg")}, "out_dir"},
    {{"train", f.path("bom_typo.cfg")}, "unknown config key 'n_layr'"},
    {{"train", f.path("big_value.cfg")}, "model"},
    {{"train", f.path("bad_line.cfg")}, "bad_line.cfg:1"},
    {{"train", f.path("junk.bin")}, "junk.bin"},
    {{"train", "--dataset=" + f.path("a_dir")}, "a_dir"},
    {{"train", "--dataset=" + f.path("missing.txt")}, "missing.txt"},
    {{"train", "--dataset=" + f.path("empty.txt")}, "empty.txt"},
    {{"train", "--dataset=" + f.path("short.txt")}, "block_size"},
    {{"train", "--dataset=digit_mul:11"}, "digit_mul"},
  });
}

TEST_CASE("sample and eval refuse each bad flag with one line naming the setting", "[cli][bad_inputs]") {
  Fixture f;
  const std::string ck = "--out_dir=" + f.path("ck");
  expect_refused(f, "sample and eval", {
    {{"sample", ck, "--threads=-1"}, "threads"},
    {{"sample", ck, "--threads=4294967297"}, "threads"},
    {{"sample", ck, "--num_samples=0"}, "num_samples"},
    {{"sample", ck, "--num_samples=-1"}, "num_samples"},
    {{"sample", ck, "--max_new_tokens=-1"}, "max_new_tokens"},
    {{"sample", ck, "--top_k=-1"}, "top_k"},
    {{"sample", ck, "--temperature=-1"}, "temperature"},
    {{"sample", ck, "--temperature=nan"}, "temperature"},
    {{"sample", ck, "--seed=-1"}, "seed"},
    {{"sample", ck, "--use_cache=maybe"}, "use_cache"},
    {{"sample", ck, "--start="}, "start"},
    {{"sample", ck, "--start=Zebra"}, "start"},
    {{"sample", ck, "--start=FILE:" + f.path("a_dir")}, "a_dir"},
    {{"sample", ck, "--start=FILE:" + f.path("missing.txt")}, "missing.txt"},
    {{"sample", ck, "--start=FILE:" + f.path("empty.txt")}, "empty.txt"},
    {{"sample", ck, "--device=tpu"}, "device"},
    {{"sample", "--out_dir="}, "out_dir"},
    {{"sample", "--out_dir=" + f.path("empty_dir")}, "empty_dir"},
    {{"sample", "--out_dir=" + f.path("corpus.txt")}, "corpus.txt"},
    {{"eval", ck, "--eval_iters=-1"}, "eval_iters"},
    {{"eval", ck, "--eval_iters=0"}, "eval_iters"},
    {{"eval", ck, "--batch_size=-1"}, "batch_size"},
    {{"eval", ck, "--batch_size=0"}, "batch_size"},
    {{"eval", ck, "--threads=-1"}, "threads"},
    {{"eval", ck, "--threads=4294967297"}, "threads"},
    {{"eval", ck, "--seed=-1"}, "seed"},
    {{"eval", ck, "--dataset=" + f.path("a_dir")}, "a_dir"},
    {{"eval", ck, "--dataset=" + f.path("short.txt")}, "short.txt"},
    {{"eval", ck, "--task=sorting"}, "task"},
    {{"eval", ck, "--task=digit_mul", "--n=0"}, "n"},
    {{"eval", ck, "--task=digit_mul", "--top_k=-1"}, "top_k"},
    {{"eval", ck, "--task=digit_mul", "--temperature=-1"}, "temperature"},
    {{"eval", ck, "--task=digit_mul", "--show=-1"}, "show"},
    {{"eval", "--out_dir="}, "out_dir"},
  });
}

TEST_CASE("bench refuses each bad flag with one line naming the setting", "[cli][bad_inputs]") {
  Fixture f;
  expect_refused(f, "bench", {
    {{"bench", "gemm", "--peak_gflops_per_core=0"}, "peak_gflops_per_core"},
    {{"bench", "gemm", "--peak_gflops_per_core=-5"}, "peak_gflops_per_core"},
    {{"bench", "gemm", "--peak_gflops_per_core=nan"}, "peak_gflops_per_core"},
    {{"bench", "gemm", "--threads=-1"}, "threads"},
    {{"bench", "gemm", "--threads=4294967297"}, "threads"},
    {{"bench", "gemm", "--json=2"}, "json"},
    {{"bench", "train", "--iters=0"}, "iters"},
    {{"bench", "train", "--iters=-1"}, "iters"},
    {{"bench", "train", "--warmup=-1"}, "warmup"},
    {{"bench", "train", "--batch_size=-1"}, "batch_size"},
    {{"bench", "train", "--batch_size=0"}, "batch_size"},
    {{"bench", "train", "--n_layer=-1"}, "n_layer"},
    {{"bench", "train", "--n_embd=-1"}, "n_embd"},
    {{"bench", "train", "--dropout=-1"}, "dropout"},
    {{"bench", "train", "--dropout=1"}, "dropout"},
    {{"bench", "train", "--preset="}, "preset"},
    {{"bench", "attention", "--max_n=-1"}, "max_n"},
    {{"bench", "attention", "--softmax_max_n=-2"}, "softmax_max_n"},
    {{"bench", "sample", "--new_tokens=0"}, "new_tokens"},
    {{"bench", "sample", "--block_size=-1"}, "block_size"},
    {{"bench", "sample", "--block_size=1"}, "block_size"},
    {{"bench", "elita", "--max_n=-1"}, "max_n"},
    {{"bench", "linformer", "--checkpoints", "--n=-1"}, "n"},
    {{"bench", "linformer", "--max_n=9223372036854775807"}, "max_n"},
    {{"bench", ""}, "bench"},
  });
}

TEST_CASE("seq2seq, analyze, plot, data and compare refuse each bad flag with one line naming it",
          "[cli][bad_inputs]") {
  Fixture f;
  const std::string ck = "--out_dir=" + f.path("ck");
  expect_refused(f, "seq2seq, analyze, plot, data, compare", {
    {{"seq2seq", "--steps=-1"}, "steps"},
    {{"seq2seq", "--length=0"}, "length"},
    {{"seq2seq", "--symbols=0"}, "symbols"},
    {{"seq2seq", "--batch_size=0"}, "batch_size"},
    {{"seq2seq", "--learning_rate=nan"}, "learning_rate"},
    {{"seq2seq", "--eval_size=-1"}, "eval_size"},
    {{"seq2seq", "--log_interval=-1"}, "log_interval"},
    {{"seq2seq", "--n_layer=0"}, "n_layer"},
    {{"seq2seq", "--n_head=0"}, "n_head"},
    {{"seq2seq", "--hidden=0"}, "hidden"},
    {{"seq2seq", "--k=-1", "--attention=linformer"}, "k"},
    {{"seq2seq", "--threads=-1"}, "threads"},
    {{"seq2seq", "--threads=4294967297"}, "threads"},
    {{"analyze", "entropy", ck, "--alpha=0"}, "alpha"},
    {{"analyze", "entropy", ck, "--alpha=nan"}, "alpha"},
    {{"analyze", "entropy", ck, "--n=0"}, "n"},
    {{"analyze", "entropy", ck, "--threads=4294967297"}, "threads"},
    {{"analyze", "entropy", ck, "--seed=-1"}, "seed"},
    {{"analyze", "entropy", ck, "--extend=30,x"}, "extend"},
    {{"analyze", "entropy", "--out_dir="}, "out_dir"},
    {{"analyze", "routers", ck, "--cell=0"}, "cell"},
    {{"analyze", "routers", ck, "--cell=401"}, "cell"},
    {{"analyze", "routers", "--out_dir="}, "out_dir"},
    {{"analyze", "routers", ck, "--file="}, "file"},
    {{"plot", "linformer-heads", ck, "--cell=0"}, "cell"},
    {{"plot", "linformer-heads", ck, "--n_limit=-1"}, "n_limit"},
    {{"plot", "linformer-heads", ck, "--threads=-1"}, "threads"},
    {{"plot", "linformer-heads", ck, "--start=FILE:" + f.path("a_dir")}, "a_dir"},
    {{"plot", "linformer-heads", "--out_dir="}, "out_dir"},
    {{"plot", "speedup", "--in=" + f.path("a_dir"), "--out=" + f.path("s.svg")}, "a_dir"},
    {{"plot", "speedup", "--in=" + f.path("missing.tsv"), "--out=" + f.path("s.svg")}, "missing.tsv"},
    {{"plot", "speedup", "--in=" + f.path("junk.bin"), "--out=" + f.path("s.svg")}, "junk.bin"},
    {{"data", "digit_mul", "--digits=0", "--out=" + f.path("m.txt")}, "digits"},
    {{"data", "digit_mul", "--lines=0", "--out=" + f.path("m.txt")}, "lines"},
    {{"data", "digit_mul", "--lines=-1", "--out=" + f.path("m.txt")}, "lines"},
    {{"data", "digit_mul", "--seed=-1", "--out=" + f.path("m.txt")}, "seed"},
    {{"data", "digit_mul", "--out="}, "out"},
    {{"data", "digit_mul", "--lines=10", "--out=" + f.path("a_dir")}, "a_dir"},
    {{"data", "digit_mul", "--lines=10", "--out=" + f.path("a_fifo")}, "a_fifo"},
    {{"plot", "speedup", "--in=" + f.path("corpus.txt"), "--out=" + f.path("a_fifo")}, "a_fifo"},
    {{"analyze", "entropy", ck, "--svg=" + f.path("a_dir")}, "a_dir"},
    {{"compare", f.path("a_dir")}, "a_dir"},
    {{"compare", f.path("missing.cfg")}, "missing.cfg"},
    {{"compare", f.path("nul.cfg")}, "nul.cfg"},
    {{"compare", f.path("bad_compare.cfg")}, "threads"},
  });
}

TEST_CASE("valid edge inputs are accepted exactly as given", "[cli][bad_inputs]") {
  Fixture f;
  int bad = 0, n = 0;
  auto expect = [&](bool ok, const Outcome& o, const std::string& what) {
    INFO(what << "\n  exit " << o.code << "\n  stdout: " << o.out.substr(0, 400) << "\n  stderr: " << o.err);
    CHECK(ok);
    bad += !ok;
    ++n;
  };
  // a denormal learning rate is a number
  Outcome o = f.run({"train", "--learning_rate=1e-320", "--min_lr=0"});
  expect(o.code == 0 && o.out.find("Overriding: learning_rate = ") != std::string::npos, o,
         "--learning_rate=1e-320");
  // a prompt is taken exactly as given: trailing blanks and quotes kept
  const std::string ck = "--out_dir=" + f.path("ck");
  o = f.run({"sample", ck, "--start=ROMEO: ", "--num_samples=1", "--max_new_tokens=0"});
  expect(o.code == 0 && o.out == "ROMEO: \n---------------\n", o, "--start='ROMEO: '");
  o = f.run({"sample", ck, "--start=\"Hi\"", "--num_samples=1", "--max_new_tokens=0"});
  expect(o.code == 0 && o.out == "\"Hi\"\n---------------\n", o, "--start='\"Hi\"'");
  f.write("prompt.txt", " To be");
  o = f.run({"sample", ck, "--start=FILE:" + f.path("prompt.txt"), "--num_samples=1", "--max_new_tokens=0"});
  expect(o.code == 0 && o.out == " To be\n---------------\n", o, "--start=FILE:prompt.txt");
  // a UTF-8 byte-order mark before the first key is skipped
  o = f.run({"train", f.path("bom.cfg")});
  expect(o.code == 0 && o.out.find("  max_iters = 0\n") != std::string::npos, o, "bom.cfg");
  // '#' inside a quoted value is part of the value; after the closing quote it starts a comment
  o = f.run({"train", f.path("hash.cfg")});
  expect(o.code == 0 && o.out.find("dataset " + f.path("with#hash/corpus.txt") + ":") != std::string::npos,
         o, "hash.cfg");
  // a file of any bytes is a corpus: a char-level model reads bytes
  o = f.run({"train", "--dataset=" + f.path("junk.bin")});
  expect(o.code == 0, o, "--dataset=junk.bin");
  // the largest thread count and a zero (all threads) are accepted
  o = f.run({"train", "--threads=0"});
  expect(o.code == 0, o, "--threads=0");
  std::cout << "valid edge inputs: " << bad << " of " << n << " mishandled\n";
}
