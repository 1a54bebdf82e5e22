// The hostile corpus: every key of every command (as its --help lists it) given each value a
// careless or hostile user might type: 0, -1, 2^31, 2^62, 2^63, 1e308, denormals, NaN,
// empty, Unicode, bytes that are not UTF-8, line breaks, 3000 characters, a folder or
// /dev/zero where a file goes. Every command line must
//   - exit 0, or exit 2 with exactly one "attic: " line on stderr, short and valid UTF-8;
//   - never die of a signal;
//   - leave the checkpoint it reads, and on a refusal the out_dir it was given, as they were;
//   - when train exits 0, leave an out_dir that eval, sample and a resume accept (or say
//     that it saved nothing, as a run of max_iters = 0 does).
// The test prints the corpus's size and its outcomes. A key that counts work (max_iters,
// num_samples, ...) is a valid request at any size that takes as long as it says: it gets
// the small hostile values only.
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_helpers.h"
#include "tests/catch.h"
#include "util/utf8.h"

namespace fs = std::filesystem;
using namespace attic::testing;

namespace {

struct Outcome {
  int code = -1;  // exit code; 128 + N for signal N
  std::string out, err;
};

// A command line that runs past a minute is killed and counted as mishandled (where the
// system has coreutils' timeout), so that one that would run without end cannot hang the test.
const std::string& time_limit() {
  static const std::string limit = shell_run("command -v timeout").code == 0 ? "timeout -s KILL 60 " : "";
  return limit;
}

Outcome run(const std::string& args, const fs::path& err_file) {
  const std::string cmd =
      time_limit() + attic_command() + " " + args + " 2>" + sh_quote(err_file.string()) + " </dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  Outcome o;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) o.out.append(buf, n);
  const int status = pclose(p);
  o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (o.code == 137) o.code = 128 + 9;  // timeout's SIGKILL, or the kernel's: either way a signal
  o.err = slurp(err_file);
  return o;
}

struct Key {
  std::string name, type;  // type: int, float, bool or string
};

// The keys `attic <command> --help` lists, with their types.
std::vector<Key> keys_of(const std::string& command, const fs::path& err) {
  const Outcome help = run(command + " --help", err);
  REQUIRE(help.code == 0);
  std::vector<Key> keys;
  std::istringstream in(help.out);
  std::string line, pending;
  while (std::getline(in, line)) {
    if (line.rfind("  --", 0) == 0) pending = line.substr(4, line.find('=') - 4);
    if (pending.empty()) continue;
    for (const char* type : {"int", "float", "bool", "string"}) {
      const size_t at = line.find(std::string(" ") + type);
      const size_t end = at + 1 + std::string(type).size();
      if (at != std::string::npos && (end == line.size() || line[end] == ',')) {
        keys.push_back({pending, type});
        pending.clear();
        break;
      }
    }
  }
  return keys;
}

bool sanitized_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#endif
#endif
  return false;
}

struct Command {
  std::string name;                   // "train", "bench train", ...
  std::string base;                   // flags that keep an accepted run small
  std::set<std::string> work;         // keys that count work: small values only
  std::set<std::string> skip;         // keys not varied here, and why (see below)
  bool fresh_out_dir = false;         // each run gets its own --out_dir, which a refusal must not create
};

}  // namespace

TEST_CASE("the hostile corpus: every key of every command, hostile values, one line or a usable result",
          "[cli][robustness][corpus]") {
  Scratch s;
  const fs::path err = s.dir / "stderr.txt";
  // Every command runs in the scratch folder, so that a relative name it is given ("a\nb",
  // "digit_mul:3") is made there, and goes with it.
  struct InFolder {
    fs::path was = fs::current_path();
    ~InFolder() { fs::current_path(was); }
  } in_folder;
  fs::current_path(s.dir);
  // A checkpoint for sample, eval and analyze to read.
  REQUIRE(attic_run("train " + s.tiny("ck") + " --max_iters=4 --eval_interval=4").code == 0);
  fs::create_directories(s.dir / "a_dir");
  const std::string ck = s.path("ck");
  const std::string tiny_train = "--dataset=" + s.path("corpus.txt") +
                                 " --n_layer=1 --n_head=2 --n_embd=16 --block_size=16 --batch_size=4 --eval_iters=2"
                                 " --eval_interval=2 --max_iters=2 --warmup_iters=1 --lr_decay_iters=10 --threads=1";
  const std::vector<Command> commands = {
      {"train", tiny_train,
       {"max_iters", "max_epochs", "eval_iters", "gradient_accumulation_steps", "log_interval", "eval_interval"},
       {}, true},
      {"sample", "--out_dir=" + ck + " --start=T --num_samples=1 --max_new_tokens=4 --threads=1",
       {"num_samples", "max_new_tokens"}, {}, false},
      {"eval", "--out_dir=" + ck + " --eval_iters=1 --threads=1", {"eval_iters", "n"}, {}, false},
      {"seq2seq", "--length=4 --symbols=3 --steps=2 --eval_size=2 --n_layer=1 --n_head=1 --n_embd=8 --hidden=8 "
                  "--batch_size=2 --threads=1 --log_interval=0",
       {"steps", "log_interval"}, {}, false},
      {"bench train", "--iters=1 --warmup=0 --threads=1 --n_layer=1 --n_embd=32 --n_head=2 --block_size=16 "
                      "--batch_size=2",
       {"iters", "warmup", "new_tokens", "max_n", "softmax_max_n", "n"},
       // bench's other subcommands' keys are listed too; the train bench ignores them
       {"checkpoints", "causal", "peak_gflops_per_core"}, false},
      {"data digit_mul", "--out=" + s.path("digits.txt") + " --lines=10", {"lines"}, {}, false},
      {"data bpe", "--train_vocab=260 --text=" + s.path("corpus.txt"), {"train_vocab"}, {}, true},
      // The tiny checkpoint has no biases, so every export is refused: each in one line.
      {"export", "--out_dir=" + ck + " --hf_dir=" + s.path("hf"), {}, {}, false},
      {"analyze entropy", "--out_dir=" + ck + " --n=4 --n_long=2 --extend=2 --threads=1 --svg=" + s.path("e.svg"),
       {"n", "n_long"}, {}, false},
  };
  const std::vector<std::string> small_ints = {"0", "-1", "1.5", "abc", "", "99999999999999999999"};
  const std::vector<std::string> big_ints = {"2147483648", "4611686018427387904", "9223372036854775807",
                                             "9223372036854775808"};
  const std::vector<std::string> floats = {"0", "-1", "1e308", "1e39", "4.9e-324", "nan", "inf", "-0", "abc", ""};
  const std::vector<std::string> bools = {"maybe", "2", ""};
  const std::vector<std::string> strings = {"", std::string(3000, 'x'), "h\xc3\xa9llo \xe2\x98\x83",
                                            "caf\xe9", "a\nb", s.path("a_dir"), "/dev/zero", "FILE:/dev/zero",
                                            "FILE:" + s.path("a_dir"), "digit_mul:3"};
  const bool sanitized = sanitized_build();

  const auto ck_before = dir_snapshot(ck);
  int lines = 0, accepted = 0, refused = 0;
  std::vector<std::string> failures;
  for (const Command& c : commands) {
    for (const Key& k : keys_of(c.name, err)) {
      if (c.skip.count(k.name)) continue;
      std::vector<std::string> values = k.type == "int" ? small_ints : k.type == "float" ? floats
                                        : k.type == "bool" ? bools : strings;
      if (k.type == "int" && !c.work.count(k.name)) values.insert(values.end(), big_ints.begin(), big_ints.end());
      if (sanitized) values.resize(std::min<size_t>(values.size(), 3));  // the sanitizers are slow
      for (const std::string& v : values) {
        const std::string out_dir = s.path("run" + std::to_string(lines));
        std::string args = c.name + " " + c.base + (c.fresh_out_dir ? " --out_dir=" + sh_quote(out_dir) : "") +
                           " --" + k.name + "=" + sh_quote(v);
        ++lines;
        const Outcome o = run(args, err);
        const std::string what = "attic " + c.name + " --" + k.name + "=" + attic::util::bytes_as_utf8(v.substr(0, 40));
        auto fail = [&](const std::string& why) { failures.push_back(what + ": " + why); };
        if (o.code != 0 && o.code != 2) {
          fail("exit " + std::to_string(o.code) + "; stderr: " + o.err.substr(0, 300));
          continue;
        }
        if (dir_snapshot(ck) != ck_before) fail("changed the checkpoint it read");
        if (o.code == 2) {
          ++refused;
          const bool one_line = o.err.rfind("attic: ", 0) == 0 && o.err.find('\n') == o.err.size() - 1;
          if (!one_line) fail("refused without exactly one 'attic: ' line: " + o.err.substr(0, 300));
          if (o.err.size() > 600) fail("a message of " + std::to_string(o.err.size()) + " bytes");
          if (attic::util::first_invalid_utf8(o.err) != std::string::npos) fail("a message that is not UTF-8");
          if (c.fresh_out_dir && k.name != "out_dir" && fs::exists(out_dir)) fail("a refusal created its out_dir");
        } else {
          ++accepted;
          if (c.name == "train") {
            const std::string dir = k.name == "out_dir" ? v : out_dir;
            // A run that saved nothing says so (nanoGPT never saves iteration 0): max_iters = 0,
            // eval_only. Any other must leave a checkpoint that eval accepts.
            const bool said = o.out.find("no checkpoint written: ") != std::string::npos;
            const std::string at = " --out_dir=" + sh_quote(dir) + " --threads=1";
            if (!said && run("eval" + at + " --eval_iters=1", err).code != 0)
              fail("exit 0, but attic eval refuses its out_dir");
            if (!said && run("sample" + at + " --num_samples=1 --max_new_tokens=2", err).code != 0)
              fail("exit 0, but attic sample refuses its out_dir");
            if (!said && run("train" + at + " --init_from=resume --eval_iters=1", err).code != 0)
              fail("exit 0, but a resume refuses its out_dir");
          }
        }
        if (c.fresh_out_dir) fs::remove_all(out_dir);
      }
    }
  }
  std::cout << "hostile corpus: " << lines << " command lines: " << accepted << " accepted, " << refused
            << " refused in one line, " << failures.size() << " mishandled" << std::endl;
  for (const std::string& f : failures) std::cout << "  " << f << "\n";
  CHECK(lines > 300);
  CHECK(failures.empty());
}

TEST_CASE("the lab's refusals name the file, the checkpoint or the flag to change", "[cli][robustness]") {
  Scratch s;
  const std::string small = " --n_layer=3 --block_size=8 --max_iters=4 --eval_interval=4";
  REQUIRE(attic_run("train " + s.tiny("route") + small + " --attention=route").code == 0);
  {
    std::ofstream(s.path("other.txt")) << std::string(2000, 'q') << "\n";
  }
  REQUIRE(attic_run("train " + s.tiny("long") + " --n_layer=3 --max_iters=4 --eval_interval=4").code == 0);
  REQUIRE(attic_run("train " + s.tiny("other") + " --n_layer=3 --max_iters=4 --eval_interval=4 --dataset=" +
                    s.path("other.txt")).code == 0);
  fs::create_directories(s.path("route/a_dir"));
  const auto before = dir_snapshot(s.path("route"));
  check_one_line(attic_run("analyze routers --out_dir=" + s.path("route") + " --file=a_dir"),
                 "cannot write the routers picture (--file) '" + s.path("route/a_dir") +
                     "': it exists and is a folder; give a file's path");
  check_one_line(attic_run("analyze entropy --out_dir=" + s.path("route") + " --n=4 --n_long=2 --threads=1"),
                 "analyze entropy: the short prompts are 9 tokens, longer than the block_size 8 of " +
                     s.path("route") + "'s checkpoint; give checkpoints of block_size >= 9");
  CHECK(dir_snapshot(s.path("route")) == before);
  const Run two = attic_run("analyze entropy --out_dir=" + s.path("long") + " --out_dir=" + s.path("other") +
                            " --n=4 --n_long=2 --threads=1 --svg=" + s.path("e.svg"));
  CHECK(two.code == 2);
  CHECK(lines_matching(two.out, "^attic: analyze entropy: the prompts, drawn from the dataset of " + s.path("long") +
                                    ", are not in the vocabulary of " + s.path("other") + "'s checkpoint")
            .size() == 1);
  check_one_line(attic_run("bench sample --block_size=4611686018427387904"),
                 "config key 'block_size' must be in 1..1048576, got '4611686018427387904'");
}
