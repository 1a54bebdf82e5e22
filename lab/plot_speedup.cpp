// attic plot speedup: the training step's speed-up over the fastest PyTorch peer, drawn from
// the table `make bench-peer` writes (bench/peer/compare.sh), one panel per swept axis.
//
//   attic plot speedup --in=build/bench-peer/sweep.tsv --out=build/bench-peer/sweep.svg
//
// The table has one line per point, tab-separated: the axis (n_embd or block_size), its
// value, and attic's speed-up (the fastest peer's ms per step / attic's). Lines starting
// with '#' are comments.
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "util/command_line.h"
#include "lab/commands.h"
#include "util/files.h"
#include "tensor/error.h"
#include "util/atomic_file.h"
#include "util/quote_value.h"
#include "viz/line_plot.h"

namespace attic::lab {

using namespace util;

int plot_speedup(const std::vector<std::string>& args) {
  std::string in, out, title = "attic's training step against the fastest PyTorch peer";
  Options opts;
  opts.bind("in", in, "the table: axis, value, speed-up per line, tab-separated");
  opts.bind("out", out, "the SVG to write");
  opts.bind("title", title, "the picture's title");
  std::ostringstream quiet;
  if (!parse_command_line(opts, args, "usage: attic plot speedup --in=TABLE --out=FILE.svg", quiet))
    return 0;
  ATTIC_CHECK(!in.empty() && !out.empty(), "plot speedup: --in and --out are required");
  check_output_file(out, "the picture (--out)");
  std::istringstream f(read_text_file(in, "the table (--in)"));
  std::map<std::string, std::vector<std::pair<double, double>>> axes;  // axis -> (value, speed-up)
  std::string line;
  for (int number = 1; std::getline(f, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string axis;
    double x = 0, speedup = 0;
    ATTIC_CHECK(std::getline(fields, axis, '\t') && (fields >> x >> speedup) && x > 0 && speedup > 0,
                "plot speedup: ", in, " line ", number, " is not 'axis<TAB>value<TAB>speed-up': ",
                util::quote_value(line));
    axes[axis].emplace_back(x, speedup);
  }
  ATTIC_CHECK(!axes.empty(), "plot speedup: ", in, " has no points");
  std::vector<viz::Panel> panels;
  for (auto& [axis, points] : axes) {
    std::sort(points.begin(), points.end());
    const double lo = points.front().first, hi = points.back().first;
    viz::Panel p;
    p.title = "speed-up as " + axis + " grows";
    p.xlabel = axis;
    p.ylabel = "fastest peer's ms / attic's ms";
    p.series.push_back({"attic", "#1f77b4", points});
    p.series.push_back({"1x (as fast)", "#7f7f7f", {{lo, 1.0}, {hi, 1.0}}, true});
    p.series.push_back({"1.5x (the goal)", "#2ca02c", {{lo, 1.5}, {hi, 1.5}}, true});
    panels.push_back(std::move(p));
  }
  util::write_file_atomic(out, viz::panels_svg(panels, title));
  std::cout << "wrote " << out << ": " << axes.size() << " panels\n";
  return 0;
}

}  // namespace attic::lab
