// attic plot linformer-heads: the P̄ of every head of a Linformer checkpoint, drawn for one
// prompt as a grid of heat maps (layers down, heads across; lab/linformer_visualizer.h).
//
//   attic plot linformer-heads --out_dir=out-compare-linformer/linformer_prefix --start="ROMEO:"
//
// The checkpoint may be model=linformer (the LinformerLM: the prompt is zero-padded to its n
// positions, as the package's Padder does, and the padded queries are left out) or a GPT
// with attention=linformer.
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "util/command_line.h"
#include "lab/commands.h"
#include "util/files.h"
#include "train/restore.h"
#include "models/gpt.h"
#include "lab/linformer_visualizer.h"
#include "models/linformer.h"
#include "tensor/threads.h"
#include "util/atomic_file.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

namespace lf = models::linformer;

// The Linformer attentions of a restored model, named by layer; the model must have some.
std::vector<NamedAttention> linformer_layers(nn::Module& m) {
  if (auto* lm = dynamic_cast<lf::LinformerLM*>(&m)) return named_attentions(lm->stack());
  std::vector<NamedAttention> out;
  if (auto* gpt = dynamic_cast<models::GPT*>(&m))
    for (size_t i = 0; i < gpt->h->size(); ++i)
      if (auto a = std::dynamic_pointer_cast<lf::LinformerAttention>(gpt->h->at<models::Block>(i)->attn))
        out.emplace_back("layer " + std::to_string(i), a);
  return out;
}

}  // namespace

int plot(const std::vector<std::string>& args) {
  const std::string what = util::pick_subcommand("plot", {
      {"linformer-heads", "a Linformer checkpoint's attention heads, as an SVG"},
      {"speedup", "a table of speedups (attic bench's output), as an SVG"}}, args);
  if (what.empty()) return 0;
  if (args[0] == "speedup") return plot_speedup({args.begin() + 1, args.end()});
  std::string out_dir = "out", start = "", file = "linformer_heads.svg";
  int64_t n_limit = 0, cell = 8, threads = 0;
  Options opts;
  opts.bind("out_dir", out_dir, "the checkpoint's folder; the picture is written there").non_empty();
  opts.bind("start", start, "the prompt, or FILE:path (default: the first block_size characters of the val split)");
  opts.bind("n_limit", n_limit, "draw only the first n_limit queries (0: all)")
      .int_range(0, std::numeric_limits<int64_t>::max());
  opts.bind("cell", cell, "pixels per cell").int_range(1, 400);
  opts.bind("file", file, "the SVG's name inside out_dir").non_empty();
  opts.bind("threads", threads, "CPU threads (0: all)").int_range(0, kMaxThreads);
  std::ostringstream quiet;
  if (!parse_command_line(opts, {args.begin() + 1, args.end()}, "usage: attic plot linformer-heads [--key=value ...]",
                          quiet))
    return 0;
  if (threads > 0) set_num_threads(int(threads));
  if (start.rfind("FILE:", 0) == 0) start = read_text_file(start.substr(5), "the prompt file (--start=FILE:)");

  Restored r = restore(out_dir);
  nn::Module& m = *r.model;
  const std::vector<NamedAttention> layers = linformer_layers(m);
  ATTIC_CHECK(!layers.empty(), "plot linformer-heads: the checkpoint in ", out_dir, " has no Linformer attention "
              "(model = ", r.config.model, ", attention = ", r.config.attention, ")");
  const int64_t n = r.config.block_size;
  if (start.empty()) {
    std::ifstream in(r.config.dataset_path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    start = text.substr(text.size() * 9 / 10, size_t(n));  // nanoGPT's val split starts at 90 %
  }
  std::vector<int64_t> ids = r.tokenizer->encode(start);
  ATTIC_CHECK(!ids.empty() && int64_t(ids.size()) <= n, "plot: the prompt has ", ids.size(),
              " tokens; it needs 1 to block_size = ", n);
  const int64_t T = int64_t(ids.size());
  for (const auto& [name, a] : layers) a->visualize = true;
  {
    NoGradGuard no_grad;
    if (auto* lm = dynamic_cast<lf::LinformerLM*>(&m)) {
      ids.resize(size_t(n), 0);  // Padder's zeros; their queries are not drawn
      lm->forward(from_vector(ids, {1, n}));
    } else {
      dynamic_cast<models::GPT&>(m).forward(from_vector(ids, {1, T}));
    }
  }
  const int64_t rows = n_limit > 0 ? std::min(n_limit, T) : T;
  const std::string path = out_dir + "/" + file;
  util::write_file_atomic(path, heads_svg(layers, rows, int(cell)));
  std::cout << "wrote " << path << ": " << layers.size() << " layers x " << layers.front().second->heads->size()
            << " heads, " << rows << " queries\n";
  return 0;
}

}  // namespace attic::lab
