// The subcommands of `attic`. Each takes the arguments after its name, prints to stdout,
// and throws attic::Error on bad input (main turns that into one line and exit code 2).
#pragma once

#include <string>
#include <vector>

namespace attic::cli {

int train(const std::vector<std::string>& args);
int sample(const std::vector<std::string>& args);
int eval(const std::vector<std::string>& args);
int bench(const std::vector<std::string>& args);
int seq2seq(const std::vector<std::string>& args);  // cli/seq2seq.cpp
int compare(const std::vector<std::string>& args);  // cli/compare.cpp
int plot(const std::vector<std::string>& args);     // cli/plot.cpp
int plot_speedup(const std::vector<std::string>& args);  // cli/plot_speedup.cpp (attic plot speedup)
int data(const std::vector<std::string>& args);     // cli/data.cpp
int analyze(const std::vector<std::string>& args);  // cli/analyze.cpp

}  // namespace attic::cli
