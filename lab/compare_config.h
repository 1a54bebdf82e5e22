// The config of `attic compare`: a base train config and a list of named runs.
//
//   # config/compare_attention.cfg
//   base = shakespeare_char_cpu.cfg     # a train config, relative to this file's folder
//   out_dir = out-compare-attention     # the compare's folder; run NAME trains in out_dir/NAME
//   max_iters = 2000                    # any other train key: every run takes it
//
//   softmax: attention=softmax          # NAME: overrides, space-separated key=value
//   linear_elu: attention=linear_elu
//   claim = softmax < linear_elu | ...  # a claim to check (lab/compare_claims.h)
//   task = digit_mul                    # score each run on a task after training
//
// A run is made of the base config, then the keys given here for every run, then the
// command line's --key=value flags, then the run's own overrides (which win, so that a flag
// cannot make the runs alike). Every run starts from the same seed and so draws the same
// batches.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "lab/compare_claims.h"
#include "util/options.h"
#include "train/train_config.h"

namespace attic::lab {

struct CompareRun {
  std::string name;                                         // [A-Za-z0-9_.-]+, unique
  std::vector<std::pair<std::string, std::string>> overrides;  // (key, value) in order
};

struct CompareConfig {
  std::string path;      // the compare config file
  std::string base;      // the base train config, as a path from the current folder
  std::string out_dir = "out-compare";
  std::string common;    // the "key = value" lines for every run, as Options::load_text reads
  std::vector<std::string> flags;  // --key=value from the command line, for every run
  std::vector<CompareRun> runs;
  // task = digit_mul: after each run, attic eval --task=digit_mul (n 200, seed 1) scores it.
  std::string task;
  // claim = A < B | text: the write-up's claims, checked at the end (lab/compare_claims.h).
  std::vector<Claim> claims;

  // Reads a compare config file; throws attic::Error naming the file and line.
  static CompareConfig from_file(const std::string& path);
  static CompareConfig from_text(const std::string& text, const std::string& path);

  // Fills cfg with run i's train config and validates it; returns the Options bound to cfg
  // (their dump() is what the run's checkpoint and result.json record), so cfg must stay
  // where it is while they are used. out_dir is out_dir/NAME; init_from must stay scratch.
  util::Options run_config(size_t i, train::TrainConfig& cfg) const;
  std::string run_dir(size_t i) const { return out_dir + "/" + runs[i].name; }
};

}  // namespace attic::lab
