// The user's subcommands of `attic`: train, sample, eval, data and seq2seq (the lab's, bench,
// compare, plot and analyze, are in lab/commands.h). Each takes the arguments after its
// name, prints to stdout, and throws attic::Error on bad input (main turns that into one
// line and exit code 2).
#pragma once

#include <string>
#include <vector>

namespace attic::cli {

int train(const std::vector<std::string>& args);
int sample(const std::vector<std::string>& args);
int eval(const std::vector<std::string>& args);
int seq2seq(const std::vector<std::string>& args);  // cli/seq2seq.cpp
int data(const std::vector<std::string>& args);     // cli/data.cpp
int export_hf(const std::vector<std::string>& args);  // cli/export.cpp

}  // namespace attic::cli
