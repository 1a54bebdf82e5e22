// What the CLI tests share: running the `attic` command and a scratch folder with a corpus.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/catch.h"
#include "util/fnv1a.h"
#include <sys/wait.h>

namespace attic::testing {

namespace fs = std::filesystem;

struct Run {
  int code;
  std::string out;  // stdout and stderr together
};

// The command line that starts the `attic` program: ATTIC_BIN, after the emulator that runs
// it when it was cross-compiled (ATTIC_EMULATOR, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu";
// empty in a native build). Both are set by CMake.
inline std::string attic_command() {
  const std::string emulator = ATTIC_EMULATOR;
  return emulator.empty() ? std::string(ATTIC_BIN) : emulator + " " + ATTIC_BIN;
}

// Runs a shell command line and captures what it prints on stdout (append 2>&1 for both).
inline Run shell_run(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Runs `attic <args>` and captures what it prints.
inline Run attic_run(const std::string& args) {
  return shell_run(attic_command() + " " + args + " 2>&1");
}

// In a test that caps attic's memory: `if (skip_under_emulator()) return;`. An emulator
// (qemu-user) maps the guest's address space inside its own, so a cap measures qemu, not attic.
inline bool skip_under_emulator() {
  if (std::string(ATTIC_EMULATOR).empty()) return false;
  std::cout << "skipped: attic runs under an emulator, whose memory is not attic's" << std::endl;
  return true;
}

// Runs `attic <args>` in a shell that first caps its address space at `kib` KiB (ulimit -v):
// a laptop's memory, so that a test can ask for too much without taxing the machine.
inline Run attic_run_capped(long kib, const std::string& args) {
  return shell_run("(ulimit -v " + std::to_string(kib) + " && exec " + attic_command() + " " +
                   args + ") 2>&1");
}

// A scratch folder holding a small corpus, removed at the end of the test.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("attic-cli-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir);
    std::ofstream(dir / "corpus.txt") << [] {
      std::string s;
      for (int i = 0; i < 60; ++i) s += "To be, or not to be, that is the question.\n";
      return s;
    }();
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  // The flags of a tiny model on the corpus.
  std::string tiny(const std::string& out_dir) const {
    return "--dataset=" + path("corpus.txt") + " --out_dir=" + path(out_dir) +
           " --n_layer=1 --n_head=2 --n_embd=16 --block_size=16 --batch_size=4 --eval_iters=2"
           " --warmup_iters=5 --lr_decay_iters=30 --learning_rate=3e-3 --min_lr=3e-4"
           " --log_interval=1 --threads=1";
  }
};

inline std::vector<std::string> lines_matching(const std::string& text, const std::string& pattern) {
  std::vector<std::string> out;
  std::regex re(pattern);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, re)) out.push_back(line);
  return out;
}

// 'text' for sh: every character literal.
inline std::string sh_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The whole file at p ("" when it cannot be read).
inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every file below dir, by relative name, with its size and FNV-1a checksum: what "the
// folder is as it was, byte for byte" compares. Empty for a folder that does not exist.
inline std::map<std::string, std::string> dir_snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (!e.is_regular_file()) continue;
    const std::string b = slurp(e.path());
    util::Fnv1a sum;
    sum.update(b.data(), b.size());
    out[fs::relative(e.path(), dir).string()] = std::to_string(b.size()) + ":" + util::hex16(sum.value());
  }
  return out;
}

// r failed with exit code 2 and printed exactly one "attic: " line, "attic: " + message
// (the echoed overrides may come before it).
inline void check_one_line(const Run& r, const std::string& message) {
  CHECK(r.code == 2);
  const std::vector<std::string> lines = lines_matching(r.out, "^attic: ");
  REQUIRE(lines.size() == 1);
  CHECK(lines[0] == "attic: " + message);
}

}  // namespace attic::testing
