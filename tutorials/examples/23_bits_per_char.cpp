// Chapter 23: the laptop GPT on characters and on BPE tokens, compared in bits per character.
// After `./build/attic data bpe --train_vocab=512 --out_dir=data/shakespeare_bpe512` wrote the
// BPE dataset, the log is what
//   ./build/attic compare config/compare_char_bpe.cfg | tee compare.log
// printed (committed as tutorials/data/23_compare_char_bpe.log). A val loss in nats per token
// becomes bits per character as  loss / ln 2 / (characters per val token).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "data/text_dataset.h"
#include "viz/line_plot.h"

using namespace attic;

struct Run {
  long long total = 0, val = 0;  // the text's length and the val split's, in characters or tokens
  std::vector<std::pair<double, double>> evals;  // (step, val loss in nats per token)
};

int main() {
  const auto root = std::filesystem::path(default_dataset_path()).parent_path().parent_path().parent_path();
  std::ifstream log(root / "tutorials/data/23_compare_char_bpe.log");
  if (!log) {
    std::cerr << "no tutorials/data/23_compare_char_bpe.log\n";
    return 1;
  }
  std::map<std::string, Run> runs;
  std::vector<std::string> order;
  std::string name;
  for (std::string line; std::getline(log, line);) {
    char word[64], unit[32];
    long long n, total, vocab, train, val;
    double a, b;
    if (std::sscanf(line.c_str(), "== %lld/%lld %63s", &n, &total, word) == 3) {
      name = word;
      order.push_back(name);
    } else if (std::sscanf(line.c_str(), "dataset %63[^:]: %lld %31[a-z], vocab %lld, train %lld, val %lld", word, &n,
                           unit, &vocab, &train, &val) == 6) {
      runs[name].total = n;
      runs[name].val = val;
      std::printf("%-7s %-18s vocab %3lld, val split %lld %s\n", name.c_str(), word, vocab, val, unit);
    } else if (std::sscanf(line.c_str(), "step %lld: train loss %lf, val loss %lf", &n, &a, &b) == 3) {
      runs[name].evals.emplace_back(double(n), b);
    }
  }
  // Both datasets are the same text cut at the same character, int(1115394 * 0.9), so the
  // val split is the same 111540 characters, as 111540 ids or as fewer BPE tokens.
  const double val_chars = double(runs.at("char").val);
  std::printf("the whole text: %lld characters, %lld BPE tokens, %.3f characters per token\n", runs.at("char").total,
              runs.at("bpe512").total, double(runs.at("char").total) / double(runs.at("bpe512").total));
  std::vector<viz::Series> series, plotted;
  const char* colors[] = {"#1f77b4", "#d62728"};
  for (size_t i = 0; i < order.size(); ++i) {
    const Run& r = runs.at(order[i]);
    const double cpt = val_chars / double(r.val);
    std::vector<std::pair<double, double>> bpc;
    for (auto [step, loss] : r.evals) bpc.emplace_back(step, loss / std::log(2.0) / cpt);
    const auto [step, loss] = r.evals.back();
    std::printf("%-7s step %.0f: val loss %.4f nats per token, %.4f characters per token -> %.4f bits per character\n",
                order[i].c_str(), step, loss, cpt, bpc.back().second);
    series.push_back({order[i] + " (val)", colors[i % 2], bpc});
    plotted.push_back({order[i] + " (val)", colors[i % 2], {bpc.begin() + 1, bpc.end()}});  // from step 250
  }
  std::printf("%-7s", "step");
  for (const std::string& run : order) std::printf(" %12s", (run + " bpc").c_str());
  std::printf("\n");
  for (size_t k = 0; k < runs.at(order[0]).evals.size(); ++k) {
    std::printf("%-7.0f", series[0].points[k].first);
    for (const viz::Series& s : series) std::printf(" %12.4f", s.points[k].second);
    std::printf("\n");
  }
  std::ofstream("23_bits_per_char.svg")
      << viz::line_plot_svg(plotted, "attic compare config/compare_char_bpe.cfg", "iteration", "val bits per character");
  std::cout << "wrote 23_bits_per_char.svg\n";
  return 0;
}
