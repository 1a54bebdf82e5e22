// Typed key = value settings for the `attic` command, in the way of nanoGPT's
// configurator.py: defaults live in a struct, a config file then --key=value flags override
// them in order, an unknown key or a value of the wrong type is an error, and every override
// is echoed.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

namespace attic::cli {

// Model: the key shapes the model's weights (n_layer, n_embd, ...), so a checkpoint fixes
// it; Setting: any other key.
enum class KeyKind { Setting, Model };

class Options {
 public:
  // Binds a key to a variable; the variable's current value is the default.
  void bind(const std::string& key, int64_t& v, const std::string& help = "",
            KeyKind kind = KeyKind::Setting);
  void bind(const std::string& key, double& v, const std::string& help = "",
            KeyKind kind = KeyKind::Setting);
  void bind(const std::string& key, bool& v, const std::string& help = "",
            KeyKind kind = KeyKind::Setting);
  void bind(const std::string& key, std::string& v, const std::string& help = "",
            KeyKind kind = KeyKind::Setting);

  // Applies "key = value" lines of a file ('#' starts a comment, except inside a quoted
  // value; quotes around strings are optional), echoing each. Throws attic::Error naming
  // the file and line.
  void load_file(const std::string& path, std::ostream& echo);
  // The same for text already read; source names it in errors ("source:3: ..."), and
  // echo (if not null) receives "  key = value" for each line.
  void load_text(const std::string& text, const std::string& source, std::ostream* echo);
  // Applies one "--key=value" argument, or "--key" alone for a bool key (= true).
  // ("--key value" is NOT accepted: one token each.)
  void apply_flag(const std::string& arg, std::ostream& echo);
  // Sets one key from text; throws attic::Error for an unknown key or a bad value.
  void set(const std::string& key, const std::string& value);

  bool has(const std::string& key) const;
  KeyKind kind(const std::string& key) const;
  std::string type(const std::string& key) const;  // "int", "float", "bool" or "string"
  std::string value(const std::string& key) const;  // the current value as text
  std::vector<std::string> keys() const;              // in the order they were bound
  // The (key, text) pairs that set() has applied, in order: what config files and flags
  // gave, as opposed to the defaults.
  const std::vector<std::pair<std::string, std::string>>& assigned() const { return assigned_; }
  // These keys only, bound to the same variables (for a command that accepts a few of a
  // struct's keys). Throws for a key that is not bound here.
  Options only(const std::vector<std::string>& keys) const;

  // Every key with its current value as "key = value" lines, strings in quotes, so that
  // load_text() reads back exactly these values (stored in checkpoints).
  std::string dump() const;
  // One line per key with its default and help, for --help.
  std::string usage() const;

 private:
  struct Entry {
    std::string key, help, type;
    KeyKind kind;
    std::function<void(const std::string&)> parse;
    std::function<std::string()> show;
  };
  const Entry* find(const std::string& key) const;
  const Entry& at(const std::string& key) const;  // throws for an unknown key
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, std::string>> assigned_;
};

// The pieces of a config line, for other readers of config-like files (cli/compare_config.cpp).
std::string trim_blanks(const std::string& s);     // without spaces, tabs and '\r' around it
std::string unquote(const std::string& s);         // "x" or 'x' -> x; anything else as it is
std::string strip_comment(const std::string& line);  // the text before a '#' comment

// "true", "True", "1" / "false", "False", "0"; anything else throws.
bool parse_bool(const std::string& key, const std::string& text);

}  // namespace attic::cli
