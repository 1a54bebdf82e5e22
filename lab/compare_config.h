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
//   seeds = 3                           # train each run with 3 seeds (or --seeds=3)
//
// A run is made of the base config, then the keys given here for every run, then the
// command line's --key=value flags, then the run's own overrides (which win, so that a flag
// cannot make the runs alike). Every run draws its batches with batches = own
// (train/train_batch.h), so runs of one seed train on the same batches whatever their
// models draw at init; a config may set batches = shared, nanoGPT's way, instead.
// With seeds = N, run NAME trains N times, with its seed S, S + 1, ..., S + N - 1, in
// out_dir/NAME/seed_S...; with one seed, in out_dir/NAME.
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
  // seeds = N: each run trains with N seeds (the command line's --seeds=N replaces it).
  int64_t seeds = 1;

  // Reads a compare config file; throws attic::Error naming the file and line.
  static CompareConfig from_file(const std::string& path);
  static CompareConfig from_text(const std::string& text, const std::string& path);

  // Fills cfg with run i's train config at its k-th seed (0 .. seeds - 1: its seed plus k)
  // and validates it; returns the Options bound to cfg (their dump() is what the run's
  // checkpoint and result.json record), so cfg must stay where it is while they are used.
  // out_dir is run_dir(i, seed); init_from must stay scratch.
  util::Options run_config(size_t i, train::TrainConfig& cfg, int64_t k = 0) const;
  // The max_iters run i is given without the command line's flags (0 when it trains in
  // epochs), and its max_epochs (0 when it counts iterations): what its claims need.
  int64_t config_iters(size_t i) const;
  int64_t config_epochs(size_t i) const;
  std::string run_dir(size_t i, int64_t seed) const;
};

// "3" -> 3: a count of seeds, 1 to 100; otherwise an attic::Error naming `where`.
int64_t parse_seeds(const std::string& text, const std::string& where);

}  // namespace attic::lab
