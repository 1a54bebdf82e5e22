// Typed key = value settings for the `attic` command, in the way of nanoGPT's
// configurator.py: defaults live in a struct, a config file then --key=value flags override
// them in order, an unknown key or a value of the wrong type is an error, and every override
// is echoed.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

namespace attic::cli {

class Options {
 public:
  // Binds a key to a variable; the variable's current value is the default.
  void bind(const std::string& key, int64_t& v, const std::string& help = "");
  void bind(const std::string& key, double& v, const std::string& help = "");
  void bind(const std::string& key, bool& v, const std::string& help = "");
  void bind(const std::string& key, std::string& v, const std::string& help = "");

  // Applies "key = value" lines of a file ('#' starts a comment; quotes around strings are
  // optional). Throws attic::Error naming the file and line.
  void load_file(const std::string& path, std::ostream& echo);
  // Applies one "--key=value" argument (also "--key value" is NOT accepted: one token each).
  void apply_flag(const std::string& arg, std::ostream& echo);
  // Sets one key from text; throws attic::Error for an unknown key or a bad value.
  void set(const std::string& key, const std::string& value);

  bool has(const std::string& key) const;
  // Every key with its current value as "key = value" lines (stored in checkpoints).
  std::string dump() const;
  // One line per key with its default and help, for --help.
  std::string usage() const;

 private:
  struct Entry {
    std::string key, help, type;
    std::function<void(const std::string&)> parse;
    std::function<std::string()> show;
  };
  const Entry* find(const std::string& key) const;
  std::vector<Entry> entries_;
};

// "true", "True", "1" / "false", "False", "0"; anything else throws.
bool parse_bool(const std::string& key, const std::string& text);

}  // namespace attic::cli
