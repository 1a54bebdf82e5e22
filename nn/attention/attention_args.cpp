#include "nn/attention/attention_args.h"

#include <cstdlib>

#include "tensor/error.h"

namespace attic::nn {

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

AttentionArgs AttentionArgs::parse(const std::string& text) {
  AttentionArgs args;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = trim(text.substr(start, comma - start));
    start = comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    ATTIC_CHECK(eq != std::string::npos && eq > 0, "attention_options: '", item,
                "' is not key=value (options look like \"k=64,share=layerwise\")");
    const std::string key = trim(item.substr(0, eq));
    ATTIC_CHECK(!args.values_.count(key), "attention_options: '", key, "' is given twice");
    args.values_[key] = trim(item.substr(eq + 1));
  }
  return args;
}

std::string AttentionArgs::str() const {
  std::string out;
  for (const auto& [key, value] : values_) out += (out.empty() ? "" : ",") + key + "=" + value;
  return out;
}

}  // namespace attic::nn
