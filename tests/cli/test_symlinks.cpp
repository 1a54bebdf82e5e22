// A symbolic link planted in an out_dir never makes attic write outside it. Anyone can plant
// one in a shared folder such as /tmp: at a temporary's name or at the lock, attic refuses it
// in one line naming it; at a final name (the checkpoint, loss.svg), the rename that commits
// the new file replaces the link itself, and the file it pointed at is untouched.
#include "tests/catch.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_helpers.h"

using namespace attic::testing;

namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("a link planted at a temporary's name or the lock is refused, naming it",
          "[cli][files][security]") {
  for (const std::string name : {"train.lock", "ckpt.safetensors.tmp", "optim.safetensors.next.tmp",
                                 "loss.svg.tmp"}) {
    INFO(name);
    Scratch s;
    const std::string victim = s.path("victim.txt");
    std::ofstream(victim) << "do not touch";
    fs::create_directories(s.path("out"));
    fs::create_symlink(victim, s.path("out/" + name));
    const Run r = attic_run("train " + s.tiny("out") + " --max_iters=4 --eval_interval=2"
                            " --always_save_checkpoint=true");
    INFO(r.out);
    CHECK(r.code == 2);
    CHECK(lines_matching(r.out, "^attic: ").size() == 1);
    CHECK(lines_matching(r.out, "^attic: .*'" + s.path("out/" + name) + "'.* symbolic link").size() == 1);
    CHECK(read_all(victim) == "do not touch");
    CHECK(fs::is_symlink(s.path("out/" + name)));  // left as it was: attic removes no link
  }
}

TEST_CASE("a link planted at a final name is replaced, never written through",
          "[cli][files][security]") {
  Scratch s;
  const std::string victim = s.path("victim.txt");
  std::ofstream(victim) << "do not touch";
  fs::create_directories(s.path("out"));
  for (const std::string name : {"ckpt.safetensors", "optim.safetensors", "loss.svg"})
    fs::create_symlink(victim, s.path("out/" + name));
  const Run r = attic_run("train " + s.tiny("out") + " --max_iters=4 --eval_interval=2"
                          " --always_save_checkpoint=true");
  INFO(r.out);
  CHECK(r.code == 0);
  CHECK(read_all(victim) == "do not touch");
  for (const std::string name : {"ckpt.safetensors", "optim.safetensors", "loss.svg"}) {
    INFO(name);
    CHECK_FALSE(fs::is_symlink(s.path("out/" + name)));
  }
  CHECK(attic_run("eval --out_dir=" + s.path("out")).code == 0);
}
