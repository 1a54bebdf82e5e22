// Training that runs out of memory, or is refused threads, ends in one line naming the
// settings that asked for too much, and exit 2: never std::terminate.
#include "tests/catch.h"

#include <string>

#include "cli/cli_helpers.h"
#include "devices.h"

using namespace attic::testing;

namespace {

// Exactly one error line, and no sign of std::terminate.
void check_one_clean_line(const Run& r) {
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK(lines_matching(r.out, "^attic: ").size() == 1);
  CHECK(r.out.find("terminate") == std::string::npos);
  CHECK(r.out.find("std::bad_alloc") == std::string::npos);
}

}  // namespace

TEST_CASE("a model too large for memory names n_layer and the size it asked for",
          "[cli][memory]") {
  if (skip_under_asan() || skip_under_emulator()) return;
  Scratch s;
  const Run r = attic_run_capped(1000000, "train " + s.tiny("out") + " --n_layer=100000");
  check_one_clean_line(r);
  CHECK(r.out.find("building the model") != std::string::npos);
  CHECK(r.out.find("n_layer=100000") != std::string::npos);
  CHECK(r.out.find("ran out of memory") != std::string::npos);
}

TEST_CASE("threads the system refuses end in one line that says to ask for fewer",
          "[cli][memory]") {
  if (skip_under_asan() || skip_under_emulator()) return;
  Scratch s;
  // Each thread reserves its stack (8 MiB by default) out of the 1 GB.
  const Run r = attic_run_capped(1000000, "train " + s.tiny("out") + " --threads=200");
  check_one_clean_line(r);
  CHECK(r.out.find("thread pool") != std::string::npos);
  CHECK(r.out.find("--threads") != std::string::npos);
}

TEST_CASE("a width whose tensors cannot be counted names the settings", "[cli][memory]") {
  Scratch s;
  // The token table [vocab, 2^62] has more elements than int64 holds: refused by the size
  // check before anything is built, and before the out_dir is made.
  const Run r = attic_run("train " + s.tiny("out") + " --n_head=1 --n_embd=4611686018427387904");
  check_one_clean_line(r);
  CHECK(r.out.find("train: the model with") != std::string::npos);
  CHECK(r.out.find("n_embd=4611686018427387904") != std::string::npos);
  CHECK(r.out.find("would need about") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path("out")));
}

TEST_CASE("a size the machine cannot hold is refused at once, with the estimate",
          "[cli][memory]") {
  Scratch s;
  // 2^31 blocks: the build would run for minutes, allocating until killed.
  Run r = attic_run("train " + s.tiny("out") + " --n_layer=2147483648");
  check_one_clean_line(r);
  CHECK(r.out.find("n_layer=2147483648") != std::string::npos);
  CHECK(r.out.find("would need about") != std::string::npos);
  CHECK(r.out.find("of memory") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path("out")));
  // seq2seq: a length or a batch whose sizes overflow int64 (undefined behaviour before),
  // and an evaluation set too large to decode.
  for (const std::string flag : {"--length=4611686018427387904", "--batch_size=4611686018427387904",
                                 "--eval_size=2147483648", "--symbols=4611686018427387904",
                                 "--n_embd=4611686018427387904"}) {
    INFO(flag);
    r = attic_run("seq2seq --steps=1 " + flag);
    check_one_clean_line(r);
    CHECK(r.out.find("seq2seq with length=") != std::string::npos);
    CHECK(r.out.find(flag.substr(2)) != std::string::npos);
    CHECK(r.out.find("would need about") != std::string::npos);
  }
}

TEST_CASE("an evaluation too large for memory names batch_size", "[cli][memory]") {
  if (skip_under_asan() || skip_under_emulator()) return;
  Scratch s;
  REQUIRE(attic_run("train " + s.tiny("out") + " --max_iters=2 --eval_interval=2").code == 0);
  // A batch of 10^8 windows of 16 tokens: 12.8 GB of int64 token ids.
  const Run r = attic_run_capped(1000000, "eval --out_dir=" + s.path("out") +
                                               " --batch_size=100000000 --eval_iters=1");
  check_one_clean_line(r);
  CHECK(r.out.find("eval: evaluating") != std::string::npos);
  CHECK(r.out.find("batch_size=100000000") != std::string::npos);
}
