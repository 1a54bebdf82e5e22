// attic analyze: look inside trained GPTs.
//
//   attic analyze entropy --out_dir=A --out_dir=B [--centered]   Rényi entropy per block
//   attic analyze routers --out_dir=D                             route attention's routers
//
// entropy (lab/analyze_entropy.cpp) measures how much each block's representations have
// collapsed, for one or more checkpoints side by side; routers draws a route-attention
// checkpoint's K_router and V_router (lab/reflex_visualizer.h).
#include <iostream>
#include <sstream>

#include "lab/analyze_entropy.h"
#include "util/command_line.h"
#include "lab/commands.h"
#include "train/restore.h"
#include "models/gpt.h"
#include "lab/reflex_visualizer.h"
#include "util/atomic_file.h"
#include "util/files.h"

namespace attic::lab {

using namespace train;
using namespace util;

namespace {

int analyze_routers(const std::vector<std::string>& args) {
  std::string out_dir = "out", file = "routers.svg";
  int64_t cell = 44;
  Options opts;
  opts.bind("out_dir", out_dir, "a checkpoint of a GPT with attention = route; the picture goes there")
      .non_empty();
  opts.bind("file", file, "the SVG's name inside out_dir").non_empty();
  opts.bind("cell", cell, "pixels per cell").int_range(1, 400);
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic analyze routers --out_dir=DIR [--key=value ...]", quiet))
    return 0;
  Restored r = restore(out_dir);
  auto* gpt = dynamic_cast<models::GPT*>(&*r.model);
  ATTIC_CHECK(gpt && r.config.attention == "route", "analyze routers: the checkpoint in ", out_dir,
              " is model = ", r.config.model, ", attention = ", r.config.attention,
              "; routers need a GPT with attention = route");
  ATTIC_CHECK(r.config.n_layer > 2, "analyze routers: the checkpoint in ", out_dir, " has ",
              r.config.n_layer, " blocks; routers are used from block 2 on");
  const std::string path = out_dir + "/" + file;
  util::check_output_file(path, "the routers picture (--file)");
  util::write_file_atomic(path, routers_svg(*gpt, int(cell)));
  std::cout << "wrote " << path << ": K_router and V_router of blocks 2 to " << r.config.n_layer - 1
            << ", 3 sources x " << r.config.n_head << " heads\n";
  return 0;
}

}  // namespace

int analyze(const std::vector<std::string>& args) {
  const std::string what = util::pick_subcommand("analyze", {
      {"entropy", "the Renyi entropy of each block's outputs, of one or more checkpoints"},
      {"routers", "route attention's K and V routers of a checkpoint, as an SVG"}}, args);
  if (what.empty()) return 0;
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (what == "entropy") return analyze_entropy(rest);
  return analyze_routers(rest);
}

}  // namespace attic::lab
