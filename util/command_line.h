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

}  // namespace attic::util
