#include "util/command_line.h"

#include <iostream>

namespace attic::util {

bool parse_command_line(Options& opts, const std::vector<std::string>& args,
                        const std::string& usage, std::ostream& echo, bool config_files,
                        const std::string& more) {
  for (const std::string& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << usage << "\nkeys:\n" << opts.usage() << (more.empty() ? "" : "\n" + more);
      return false;
    }
  for (const std::string& a : args) {
    if (config_files && a.rfind("--", 0) != 0) opts.load_file(a, echo);
    else opts.apply_flag(a, echo);
  }
  return true;
}

}  // namespace attic::util
