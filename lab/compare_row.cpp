#include "lab/compare_row.h"

#include <algorithm>

namespace attic::lab {

std::vector<std::string> run_names(const std::vector<CompareRow>& rows) {
  std::vector<std::string> names;
  for (const CompareRow& row : rows)
    if (std::find(names.begin(), names.end(), row.name) == names.end()) names.push_back(row.name);
  return names;
}

std::vector<const CompareRow*> rows_of(const std::vector<CompareRow>& rows, const std::string& name) {
  std::vector<const CompareRow*> out;
  for (const CompareRow& row : rows)
    if (row.name == name) out.push_back(&row);
  return out;
}

}  // namespace attic::lab
