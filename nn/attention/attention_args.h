// An attention's own options, as the command line gives them in one string:
//
//   --attention_options="k=64,share=layerwise"
//
// parsed into key -> text. The attention reads them through the struct that declares its
// options (nn/attention/declared_options.h), which refuses a key it does not declare, so
// that a misspelt option is an error, not a silently ignored setting.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace attic::nn {

class AttentionArgs {
 public:
  AttentionArgs() = default;
  // "key=value,key=value" (spaces around items ignored; "" is no options). Throws
  // attic::Error for an item without '=' or a key given twice.
  static AttentionArgs parse(const std::string& text);

  bool has(const std::string& key) const { return values_.count(key) > 0; }  // given at all
  bool empty() const { return values_.empty(); }
  // Every option given, key -> text, keys sorted (read_options() goes through them).
  const std::map<std::string, std::string>& values() const { return values_; }

  // The canonical "key=value,..." text, keys sorted: what a checkpoint records.
  std::string str() const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace attic::nn
