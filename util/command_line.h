// The one reading of a subcommand's arguments, shared by train, eval, sample, bench and
// seq2seq, in the way of nanoGPT's configurator.py.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "util/options.h"

namespace attic::util {

// The most threads a --threads flag may ask for: far more than a laptop has, and small
// enough that the count fits an int.
constexpr int64_t kMaxThreads = 1024;

// Reads args in order. "--help" or "-h" prints `usage`, then every key of opts with its
// default and help, then `more` (if any), and returns false: the command has nothing more to do. "--key=value"
// (or "--flag" for a bool key) sets a key and echoes it; a bare argument is a config file
// when config_files is true, and an error otherwise. Returns true when the command should run.
bool parse_command_line(Options& opts, const std::vector<std::string>& args,
                        const std::string& usage, std::ostream& echo, bool config_files = false,
                        const std::string& more = "");

// A command made of subcommands (attic bench gemm, attic data bpe, ...).
struct Subcommand {
  std::string name, summary;
};
// "usage: attic COMMAND <what> [--key=value ...]" and a line per subcommand.
std::string subcommands_usage(const std::string& command, const std::vector<Subcommand>& subs);
// args[0] when it names one of subs. --help or -h first prints subcommands_usage to stdout and
// returns ""; anything else throws attic::Error listing the subcommands.
std::string pick_subcommand(const std::string& command, const std::vector<Subcommand>& subs,
                            const std::vector<std::string>& args);

}  // namespace attic::util
