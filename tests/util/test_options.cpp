// util/options.h: flags, config text, and the dump that checkpoints store.
#include <cmath>
#include <limits>
#include <sstream>

#include "helpers.h"
#include "util/options.h"

using attic::util::KeyKind;
using attic::util::Options;

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
  CHECK(s.opts.assigned() == Pairs{{"iters", "3"}, {"iters", "4"}, {"json", "true"}});
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

TEST_CASE("ranges name the key and the accepted values, and a float is any finite double, denormals too",
          "[cli][options]") {
  int64_t threads = 0, seed = 0;
  double peak = 1, dropout = 0, lr = 0;
  Options o;
  o.bind("threads", threads).int_range(0, 1024);
  o.bind("seed", seed).int_range(0, std::numeric_limits<int64_t>::max());
  o.bind("peak", peak).float_range(0, HUGE_VAL, /*lo_open=*/true);
  o.bind("dropout", dropout).float_range(0, 1, false, /*hi_open=*/true);
  o.bind("lr", lr);
  CHECK(error_message([&] { o.set("threads", "4294967297"); }) ==
        "config key 'threads' must be in 0..1024, got '4294967297'");
  CHECK(error_message([&] { o.set("threads", "-1"); }) == "config key 'threads' must be in 0..1024, got '-1'");
  CHECK(error_message([&] { o.set("seed", "-1"); }) == "config key 'seed' must be >= 0, got '-1'");
  CHECK(error_message([&] { o.set("seed", "99999999999999999999"); }) ==
        "config key 'seed' must be >= 0, got '99999999999999999999'");
  CHECK(error_message([&] { o.set("seed", " 5"); }) == "config key 'seed' expects an integer, got ' 5'");
  CHECK(error_message([&] { o.set("seed", std::string("7\0x", 3)); }) ==
        "config key 'seed' expects an integer, got '7\\x00x'");
  CHECK(error_message([&] { o.set("peak", "0"); }) == "config key 'peak' must be > 0, got '0'");
  CHECK(error_message([&] { o.set("dropout", "1"); }) == "config key 'dropout' must be in [0, 1), got '1'");
  CHECK(error_message([&] { o.set("lr", "nan"); }) == "config key 'lr' expects a finite number, got 'nan'");
  CHECK(error_message([&] { o.set("lr", "1e400"); }).find("config key 'lr' is beyond what a double holds") == 0);
  CHECK(error_message([&] { o.set("lr", "1e-400"); }).find("config key 'lr' is beyond what a double holds") == 0);
  o.set("lr", "1e-320");  // a denormal
  CHECK(lr > 0);
  CHECK(lr < 1e-300);
  // The models compute in float32: a magnitude beyond its largest would be inf there.
  CHECK(error_message([&] { o.set("lr", "1e308"); }) ==
        "config key 'lr' must be at most 3.4e38 in magnitude (the largest float32, as the models compute), "
        "got '1e308'");
  CHECK(error_message([&] { o.set("lr", "-9.3e18"); }).empty());  // 2^63 is a float32 still
  o.set("lr", "3.4e38");
  CHECK(lr == 3.4e38);
  o.set("threads", "1024");
  CHECK(threads == 1024);
  CHECK_FALSE(o.given("peak"));
  CHECK(o.given("threads"));
}

TEST_CASE("a long value is cut in the message, a flag's text is taken exactly", "[cli][options]") {
  Settings s;
  const std::string msg = error_message([&] { s.opts.set("iters", std::string(100000, '9') + "x"); });
  CHECK(msg == "config key 'iters' expects an integer, got '" + std::string(80, '9') + "...' (100001 bytes)");
  std::ostringstream echo;
  s.opts.apply_flag("--path= \"my run\" ", echo);
  CHECK(s.path == " \"my run\" ");
}

TEST_CASE("config text: a byte-order mark is skipped, a NUL byte and a broken quote are errors",
          "[cli][options]") {
  Settings s;
  s.opts.load_text("\xEF\xBB\xBFiters = 4\npath = 'a \"b\" # c' # a comment 'quoted'\n", "x.cfg", nullptr);
  CHECK(s.iters == 4);
  CHECK(s.path == "a \"b\" # c");
  Settings t;  // and the dump of such a value reads back
  t.opts.load_text(s.opts.dump(), "dump", nullptr);
  CHECK(t.path == "a \"b\" # c");
  s.opts.load_text("path = \"a\"b\"\n", "x.cfg", nullptr);  // a quote that only text follows is inside
  CHECK(s.path == "a\"b");
  CHECK(error_message([&] { s.opts.load_text(std::string("iters = 7\0garbage\n", 18), "x.cfg", nullptr); }) ==
        "x.cfg:1: holds a NUL byte; a config file is text (is this a binary file?)");
  CHECK(error_message([&] { s.opts.load_text("path = \"a#b\n", "x.cfg", nullptr); }) ==
        "x.cfg:1: config key 'path': the value's opening \" has no closing one: '\"a#b'");
  CHECK(error_message([&] { s.opts.load_text("path = 'a' b\n", "x.cfg", nullptr); }) ==
        "x.cfg:1: config key 'path': text follows the closing quote of ''a' b'");
}
