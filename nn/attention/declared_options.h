// An attention's own options, declared once: a struct whose members hold the defaults and
// whose bind() names each option with its type, range and one line of help, in the
// configurator's idiom (util/options.h):
//
//   struct RouteOptions {
//     bool norm_prev = false;
//     void bind(util::Options& o) { o.bind("norm_prev", norm_prev, "ln_1 on x_{i-2} and x_{i-1}"); }
//   };
//   const RouteOptions a = nn::read_options<RouteOptions>(o.args, "route");
//
// From that one declaration come the parse of --attention_options (every key known, every
// value of its type and range, each error naming the attention and the key), the check a
// config makes before anything is built (OptionsDecl::check), and the lines --help prints.
#pragma once

#include <functional>
#include <cstdint>
#include <string>
#include <vector>

#include "nn/attention/attention_args.h"
#include "tensor/error.h"
#include "util/options.h"

namespace attic::nn {

// "k, sharing, method" (the keys in the order bind() declares them), or "no options".
std::string option_keys(const util::Options& o);

// given's options read into args (whose values are the defaults). Throws attic::Error
// "attention <who>: unknown option 'x' (it takes k, sharing, ...)" for a key args does not
// declare, and "attention <who>: option 'k' must be >= 1, got '0'" for a bad value. A model's
// options pass who = "model <name>", and their messages start with that.
template <class Args>
Args read_options(const AttentionArgs& given, const std::string& who, Args args = Args()) {
  const std::string named = who.rfind("model ", 0) == 0 ? who : "attention " + who;
  util::Options o(named + ": option");
  args.bind(o);
  for (const auto& [key, text] : given.values()) {
    ATTIC_CHECK(o.has(key), named, ": unknown option '", key, "' (it takes ", option_keys(o), ")");
    o.set(key, text);
  }
  return args;
}

// The options of an attention that takes none.
struct NoOptions {
  void bind(util::Options&) {}
};

// An older spelling of an option, as a key of its own in attic train's config: key sets the
// declared option `option` ("elita_numerics" sets the elita attention's "numerics").
struct OptionAlias {
  std::string key;
  std::string option;
};

// What the registry keeps of a declaration.
struct OptionsDecl {
  // Throws as read_options would for the options given; builds nothing.
  std::function<void(const AttentionArgs&, const std::string& who)> check;
  // One line per option, "  key=default  type, help", for --help.
  std::function<std::string()> usage;
  // The declared default of option, as text ("16"), its type ("int") and its help; each
  // throws for an option not declared.
  std::function<std::string(const std::string& option)> default_of, type_of, help_of;
  // Args::aliases(), where Args declares it.
  std::vector<OptionAlias> aliases;
  // How a checkpoint records the options given, for a model of width n_embd and n_head
  // heads: Args::record, where Args declares it; else empty, and the text is recorded as given.
  std::function<std::string(const AttentionArgs&, int64_t n_embd, int64_t n_head)> record;
};

template <class Args>
OptionsDecl declare_options() {
  OptionsDecl d;
  d.check = [](const AttentionArgs& given, const std::string& who) { (void)read_options<Args>(given, who); };
  d.usage = [] {
    Args defaults;
    util::Options o("option");
    defaults.bind(o);
    return o.usage(/*prefix=*/"");
  };
  // One of the declaration's Options, asked f(o, option).
  auto ask = [](std::string (util::Options::*f)(const std::string&) const) {
    return [f](const std::string& option) {
      Args defaults;
      util::Options o("option");
      defaults.bind(o);
      return (o.*f)(option);
    };
  };
  d.default_of = ask(&util::Options::value);
  d.type_of = ask(&util::Options::type);
  d.help_of = ask(&util::Options::help);
  if constexpr (requires { Args::aliases(); }) d.aliases = Args::aliases();
  if constexpr (requires(const AttentionArgs& a) { Args::record(a, int64_t{}, int64_t{}); })
    d.record = &Args::record;
  return d;
}

}  // namespace attic::nn
