// The lab's subcommands of `attic`: measurement over the library, apart from the commands
// that train and use a model (cli/commands.h). Each takes the arguments after its name,
// prints to stdout, and throws attic::Error on bad input (main turns that into one line and
// exit code 2).
#pragma once

#include <string>
#include <vector>

namespace attic::lab {

int bench(const std::vector<std::string>& args);         // lab/bench.cpp
int compare(const std::vector<std::string>& args);       // lab/compare.cpp
int plot(const std::vector<std::string>& args);          // lab/plot.cpp
int plot_speedup(const std::vector<std::string>& args);  // lab/plot_speedup.cpp (attic plot speedup)
int analyze(const std::vector<std::string>& args);       // lab/analyze.cpp

}  // namespace attic::lab
