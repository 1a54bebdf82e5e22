// attic compare's outputs: compare.md (a table), compare.json (the table and every run's
// eval points) and compare.svg (train and val loss against iteration and against training
// time, two panels). They are rewritten after each run, so they show the runs done so far.
#pragma once

#include <string>
#include <vector>

#include "lab/compare_claims.h"
#include "lab/compare_row.h"
#include "util/json.h"

namespace attic::lab {

// | run | attention | params | final train | final val | best val | ms/iter | tokens/s | peak memory |
// then, when rows have scores, | run | exact | R² | MAE | MAPE | unparsable |, then the claims.
std::string compare_markdown(const std::vector<CompareRow>& rows, const std::string& title,
                             const std::vector<Claim>& claims = {});
json::Value compare_json(const std::vector<CompareRow>& rows, const std::string& title);
// One color per run; val solid, train dashed.
std::string compare_svg(const std::vector<CompareRow>& rows, const std::string& title);

// Writes the three files into out_dir, each atomically.
void write_compare_report(const std::string& out_dir, const std::vector<CompareRow>& rows,
                          const std::string& title, const std::vector<Claim>& claims = {});

}  // namespace attic::lab
