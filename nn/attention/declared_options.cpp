#include "nn/attention/declared_options.h"

namespace attic::nn {

std::string option_keys(const util::Options& o) {
  std::string out;
  for (const std::string& key : o.keys()) out += (out.empty() ? "" : ", ") + key;
  return out.empty() ? "no options" : out;
}

}  // namespace attic::nn
