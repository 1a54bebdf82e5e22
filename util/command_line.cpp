#include "util/command_line.h"
#include "util/quote_value.h"

#include <iostream>

#include "tensor/error.h"

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

std::string subcommands_usage(const std::string& command, const std::vector<Subcommand>& subs) {
  std::string out = "usage: attic " + command + " <what> [--key=value ...]\n";
  for (const Subcommand& s : subs) {
    out += "  " + s.name;
    out.append(s.name.size() < 16 ? 16 - s.name.size() : 1, ' ');
    out += s.summary + "\n";
  }
  return out + "attic " + command + " <what> --help lists its keys\n";
}

std::string pick_subcommand(const std::string& command, const std::vector<Subcommand>& subs,
                            const std::vector<std::string>& args) {
  const std::string what = args.empty() ? std::string() : args[0];
  if (what == "--help" || what == "-h") {
    std::cout << subcommands_usage(command, subs);
    return "";
  }
  std::string names;
  for (const Subcommand& s : subs) {
    if (s.name == what) return what;
    names += (names.empty() ? "'" : ", '") + s.name + "'";
  }
  fail(command, ": expected one of ", names, " (attic ", command, " --help says what each does), got ",
       quote_value(what));
}

}  // namespace attic::util
