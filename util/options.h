// Typed key = value settings for the `attic` command, in the way of nanoGPT's
// configurator.py: defaults live in a struct, a config file then --key=value flags override
// them in order, an unknown key or a value of the wrong type is an error, and every override
// is echoed.
#pragma once

#include <cmath>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace attic::util {

// Model: the key shapes the model's weights (n_layer, n_embd, ...), so a checkpoint fixes
// it; Setting: any other key.
enum class KeyKind { Setting, Model };

class Options {
 public:
  // noun names a key in messages: "config key 'n_layer' must be >= 1, got '0'"; an
  // attention's options say "attention linformer: option 'k' ...".
  explicit Options(std::string noun = "config key") : noun_(std::move(noun)) {}

  // Binds a key to a variable; the variable's current value is the default. Returns *this,
  // so that a range can follow: o.bind("threads", threads).int_range(0, kMaxThreads).
  Options& bind(const std::string& key, int64_t& v, const std::string& help = "",
                KeyKind kind = KeyKind::Setting);
  Options& bind(const std::string& key, double& v, const std::string& help = "",
                KeyKind kind = KeyKind::Setting);
  Options& bind(const std::string& key, bool& v, const std::string& help = "",
                KeyKind kind = KeyKind::Setting);
  Options& bind(const std::string& key, std::string& v, const std::string& help = "",
                KeyKind kind = KeyKind::Setting);

  // Limits the int key bound last to lo..hi: set() refuses any other value, naming the key
  // and the range. Without a range an int key still refuses what does not fit int64.
  Options& int_range(int64_t lo, int64_t hi);
  // Limits the float key bound last to [lo, hi], or (lo, hi] with lo_open, [lo, hi) with
  // hi_open. Any float key refuses nan, inf and a magnitude beyond float32's largest
  // (3.4e38), which is where the models use it.
  Options& float_range(double lo, double hi, bool lo_open = false, bool hi_open = false);
  // The string key bound last refuses the empty string.
  Options& non_empty();
  // The type usage() prints for the string key bound last, which holds another type's text
  // to pass on (an alias of an attention's int option, say).
  Options& shown_as(const std::string& type);

  // Applies "key = value" lines of a file, echoing each: '#' starts a comment, except inside
  // a quoted value; quotes around a value are optional, and a quoted value is taken exactly
  // (blanks and '#' kept); a UTF-8 byte-order mark is skipped. Throws attic::Error naming the
  // file and line, for a NUL byte too (a binary file is no config).
  void load_file(const std::string& path, std::ostream& echo);
  // The same for text already read; source names it in errors ("source:3: ..."), and
  // echo (if not null) receives "  key = value" for each line.
  void load_text(const std::string& text, const std::string& source, std::ostream* echo);
  // Applies one "--key=value" argument, or "--key" alone for a bool key (= true). The value
  // is taken exactly as given: the shell has already removed the quotes the user typed.
  // ("--key value" is NOT accepted: one token each.)
  void apply_flag(const std::string& arg, std::ostream& echo);
  // Sets one key from text, taken exactly; throws attic::Error for an unknown key or a bad
  // value, naming the key.
  void set(const std::string& key, const std::string& value);

  bool has(const std::string& key) const;
  KeyKind kind(const std::string& key) const;
  std::string type(const std::string& key) const;  // "int", "float", "bool" or "string"
  std::string help(const std::string& key) const;  // the help text it was bound with
  std::string value(const std::string& key) const;  // the current value as text
  std::vector<std::string> keys() const;              // in the order they were bound
  // The (key, text) pairs that set() has applied, in order: what config files and flags
  // gave, as opposed to the defaults.
  const std::vector<std::pair<std::string, std::string>>& assigned() const { return assigned_; }
  // Whether set() has assigned the key (a flag or a config line gave it).
  bool given(const std::string& key) const;
  // These keys only, bound to the same variables (for a command that accepts a few of a
  // struct's keys). Throws for a key that is not bound here.
  Options only(const std::vector<std::string>& keys) const;

  // Every key with its current value as "key = value" lines, strings in quotes, so that
  // load_text() reads back exactly these values (stored in checkpoints).
  std::string dump() const;
  // One line per key with its default and help, for --help: "  --key=default  type, help"
  // (prefix replaces the "--").
  std::string usage(const std::string& prefix = "--") const;

 private:
  struct Entry {
    std::string key, help;
    KeyKind kind;
    std::variant<int64_t*, double*, bool*, std::string*> var;
    int64_t lo = INT64_MIN, hi = INT64_MAX;  // an int key's range
    double flo = -HUGE_VAL, fhi = HUGE_VAL;  // a float key's range,
    bool flo_open = false, fhi_open = false;  // and whether its ends are excluded
    bool non_empty = false;                   // a string key's
    std::string shown_type = {};              // usage()'s type when not the variable's
    std::string noun = "config key";          // Options::noun_, for messages
    std::string type() const;                 // "int", "float", "bool" or "string"
    void parse(const std::string& text) const;
    std::string show() const;
  };
  Options& add(Entry e);
  Entry& last(const std::string& type);  // the entry bound last, which must be of this type
  const Entry* find(const std::string& key) const;
  const Entry& at(const std::string& key) const;  // throws for an unknown key
  std::string noun_;
  std::vector<Entry> entries_;
  std::vector<std::pair<std::string, std::string>> assigned_;
};

// The pieces of a config line, for other readers of config-like files (lab/compare_config.cpp).
std::string trim_blanks(const std::string& s);     // without spaces, tabs and '\r' around it
std::string unquote(const std::string& s);         // "x" or 'x' -> x; anything else as it is
// The text before a '#' comment; a '#' inside the quoted value of "key = 'value'" is kept.
std::string strip_comment(const std::string& line);
// A config file's text as lines can be read from it: a leading UTF-8 byte-order mark
// skipped; a NUL byte is an error naming source and line.
std::string config_text(const std::string& text, const std::string& source);

// "true", "True", "1" / "false", "False", "0"; anything else throws.
bool parse_bool(const std::string& key, const std::string& text, const std::string& noun = "config key");

}  // namespace attic::util
