// An attention's own options, as the command line gives them in one string:
//
//   --attention_options="k=64,share=layerwise"
//
// parsed into key -> text. The attention reads the keys it knows with a default for each;
// check_used() then rejects any key that nobody read, so that a misspelt option is an
// error, not a silently ignored setting.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>

namespace attic::nn {

class AttentionArgs {
 public:
  AttentionArgs() = default;
  // "key=value,key=value" (spaces around items ignored; "" is no options). Throws
  // attic::Error for an item without '=' or a key given twice.
  static AttentionArgs parse(const std::string& text);

  int64_t get_int(const std::string& key, int64_t fallback) const;
  double get_double(const std::string& key, double fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;  // true/false or 1/0
  bool has(const std::string& key) const;  // given at all (does not mark it read)
  std::string get_string(const std::string& key, const std::string& fallback) const;
  bool empty() const { return values_.empty(); }

  // Throws attic::Error "attention <who>: unknown option 'x' (it takes: ...)" for a key no
  // get_* has read. takes lists the keys the attention knows, for the message.
  void check_used(const std::string& who, const std::string& takes) const;

  // The canonical "key=value,..." text, keys sorted: what a checkpoint records.
  std::string str() const;

 private:
  const std::string* find(const std::string& key) const;  // marks the key as read
  std::map<std::string, std::string> values_;
  mutable std::set<std::string> used_;
};

}  // namespace attic::nn
