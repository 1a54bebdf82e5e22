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

const std::string* AttentionArgs::find(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return nullptr;
  used_.insert(key);
  return &it->second;
}

int64_t AttentionArgs::get_int(const std::string& key, int64_t fallback) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v->c_str(), &end, 10);
  ATTIC_CHECK(!v->empty() && *end == '\0', "attention_options: ", key, " must be an integer, got '",
              *v, "'");
  return int64_t(x);
}

bool AttentionArgs::get_bool(const std::string& key, bool fallback) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  if (*v == "true" || *v == "1") return true;
  if (*v == "false" || *v == "0") return false;
  fail("attention_options: ", key, " must be true or false, got '", *v, "'");
}

bool AttentionArgs::has(const std::string& key) const { return values_.count(key) > 0; }

double AttentionArgs::get_double(const std::string& key, double fallback) const {
  const std::string* v = find(key);
  if (!v) return fallback;
  char* end = nullptr;
  const double x = std::strtod(v->c_str(), &end);
  ATTIC_CHECK(!v->empty() && *end == '\0', "attention_options: ", key, " must be a number, got '",
              *v, "'");
  return x;
}

std::string AttentionArgs::get_string(const std::string& key, const std::string& fallback) const {
  const std::string* v = find(key);
  return v ? *v : fallback;
}

void AttentionArgs::check_used(const std::string& who, const std::string& takes) const {
  for (const auto& [key, value] : values_)
    ATTIC_CHECK(used_.count(key), "attention ", who, ": unknown option '", key, "' (it takes ",
                takes.empty() ? std::string("no options") : takes, ")");
}

std::string AttentionArgs::str() const {
  std::string out;
  for (const auto& [key, value] : values_) out += (out.empty() ? "" : ",") + key + "=" + value;
  return out;
}

}  // namespace attic::nn
