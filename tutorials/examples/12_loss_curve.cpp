// Chapter 12: the loss curves of the laptop run, drawn again from its log. The log is what
//   ./build/attic train config/shakespeare_char_cpu.cfg | tee run.log
// printed (committed as tutorials/data/12_shakespeare_char_cpu.log); the picture is drawn by
// viz::line_plot_svg with the series, colors and labels `attic train` uses for
// out_dir/loss.svg (train/train_run.cpp), so it is that picture, except that the log has the
// train loss of every log_interval-th iteration only, where loss.svg has every iteration's.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "data/data.h"
#include "viz/line_plot.h"

using namespace attic;
using Curve = std::vector<std::pair<double, double>>;

int main() {
  // The source tree: default_dataset_path() is <root>/data/shakespeare_char/input.txt.
  const auto root = std::filesystem::path(default_dataset_path()).parent_path().parent_path().parent_path();
  std::ifstream log(root / "tutorials/data/12_shakespeare_char_cpu.log");
  if (!log) {
    std::cerr << "no tutorials/data/12_shakespeare_char_cpu.log\n";
    return 1;
  }
  Curve train, eval_train, eval_val;
  std::string out_dir, done;
  long long n;
  double a, b;
  char value[256];
  for (std::string line; std::getline(log, line);) {
    // "  out_dir = X" (from a config file) or "Overriding: out_dir = X" (a flag): the last wins.
    if (std::sscanf(line.c_str(), " out_dir = %255s", value) == 1 ||
        std::sscanf(line.c_str(), "Overriding: out_dir = %255s", value) == 1)
      out_dir = value;
    else if (std::sscanf(line.c_str(), "iter %lld: loss %lf", &n, &a) == 2)
      train.emplace_back(double(n), a);
    else if (std::sscanf(line.c_str(), "step %lld: train loss %lf, val loss %lf", &n, &a, &b) == 3) {
      eval_train.emplace_back(double(n), a);
      eval_val.emplace_back(double(n), b);
      std::printf("step %4lld: train %.4f, val %.4f\n", n, a, b);
    } else if (line.starts_with("done: ")) {
      done = line;
    }
  }
  std::cout << train.size() << " logged iterations, " << eval_val.size() << " evaluations\n"
            << done << "\n";
  std::ofstream("12_loss.svg") << viz::line_plot_svg({{"train (per iteration)", "#c7d7ea", train},
                                                       {"train (eval)", "#1f77b4", eval_train},
                                                       {"val (eval)", "#d62728", eval_val}},
                                                      "attic train: " + out_dir, "iteration", "loss");
  std::cout << "wrote 12_loss.svg\n";
  return 0;
}
