// cli/options.h: flags, config text, and the dump that checkpoints store.
#include <sstream>

#include "helpers.h"
#include "cli/options.h"

using attic::cli::KeyKind;
using attic::cli::Options;

using attic::testing::error_message;

namespace {

struct Settings {
  int64_t iters = 100;
  double lr = 6e-4;
  bool json = false;
  std::string path = "out";
  Options opts;
  Settings() {
    opts.bind("iters", iters);
    opts.bind("lr", lr);
    opts.bind("json", json);
    opts.bind("path", path, "", KeyKind::Model);
  }
};

}  // namespace

TEST_CASE("a bare --flag is --flag=true for a bool key, and an error naming any other key", "[cli][options]") {
  Settings s;
  std::ostringstream echo;
  s.opts.apply_flag("--json", echo);
  CHECK(s.json);
  CHECK(echo.str() == "Overriding: json = true\n");
  s.opts.apply_flag("--json=false", echo);
  CHECK_FALSE(s.json);
  CHECK(error_message([&] { s.opts.apply_flag("--iters", echo); }) ==
        "config key 'iters' needs a value: --iters=N (only a bool key may be given bare)");
  CHECK(error_message([&] { s.opts.apply_flag("--lr", echo); }) ==
        "config key 'lr' needs a value: --lr=X (only a bool key may be given bare)");
  CHECK(error_message([&] { s.opts.apply_flag("--path", echo); }) ==
        "config key 'path' needs a value: --path=TEXT (only a bool key may be given bare)");
  CHECK(error_message([&] { s.opts.apply_flag("--nope", echo); }) ==
        "unknown config key 'nope' (--help lists the keys)");
  CHECK(error_message([&] { s.opts.apply_flag("json", echo); }) == "expected --key=value, got 'json'");
  CHECK(s.iters == 100);
}

TEST_CASE("dump() reads back through load_text() to the same values, '#' and spaces included",
          "[cli][options]") {
  Settings a;
  a.iters = -7;
  a.lr = 0.1 + 0.2;  // not a short decimal: the dump must keep every bit
  a.json = true;
  a.path = " my #1 run ";
  Settings b;
  b.opts.load_text(a.opts.dump(), "dump", nullptr);
  CHECK(b.iters == -7);
  CHECK(b.lr == a.lr);
  CHECK(b.json);
  CHECK(b.path == " my #1 run ");
  CHECK(b.opts.dump() == a.opts.dump());
}

TEST_CASE("config text: comments, quotes, errors with source and line", "[cli][options]") {
  Settings s;
  s.opts.load_text("# a comment\n\niters = 5  # five\npath = 'a#b' # the comment after the quote\n",
                   "x.cfg", nullptr);
  CHECK(s.iters == 5);
  CHECK(s.path == "a#b");
  CHECK(error_message([&] { s.opts.load_text("iters = 1\nlr\n", "x.cfg", nullptr); }) ==
        "x.cfg:2: expected 'key = value', got 'lr'");
  CHECK(error_message([&] { s.opts.load_text("lr = fast\n", "x.cfg", nullptr); }) ==
        "x.cfg:1: config key 'lr' expects a number, got 'fast'");
}

TEST_CASE("assigned() lists what was set, in order, and only() keeps some keys on the same variables",
          "[cli][options]") {
  Settings s;
  std::ostringstream echo;
  s.opts.load_text("iters = 3\n", "x.cfg", nullptr);
  s.opts.apply_flag("--iters=4", echo);
  s.opts.apply_flag("--json", echo);
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  CHECK(s.opts.assigned() == Pairs{{"iters", " 3"}, {"iters", "4"}, {"json", "true"}});
  CHECK(s.opts.kind("path") == KeyKind::Model);
  CHECK(s.opts.kind("iters") == KeyKind::Setting);

  Options some = s.opts.only({"lr", "path"});
  CHECK(some.keys() == std::vector<std::string>{"lr", "path"});
  some.apply_flag("--lr=0.5", echo);
  CHECK(s.lr == 0.5);
  CHECK(error_message([&] { some.apply_flag("--iters=1", echo); }) ==
        "unknown config key 'iters' (--help lists the keys)");
  CHECK(error_message([&] { (void)s.opts.only({"nope"}); }) ==
        "unknown config key 'nope' (--help lists the keys)");
}
