// TrainConfig::from_checkpoint: what `attic train --init_from=resume`, `attic eval` and
// `attic sample` read back from a checkpoint.
#include <sstream>

#include "helpers.h"
#include "cli/train_config.h"

using namespace attic::cli;

using attic::testing::error_message;

namespace {

// Another valid text for a key's value: a bool flipped, a number plus 1, a string extended.
std::string changed(const Options& o, const std::string& key) {
  const std::string type = o.type(key), v = o.value(key);
  if (type == "bool") return v == "true" ? "false" : "true";
  if (type == "int") return std::to_string(std::stoll(v) + 1);
  if (type == "float") return std::to_string(std::stod(v) + 1.0);
  return v + "_x";
}

}  // namespace

TEST_CASE("from_checkpoint: every key of TrainConfig survives a save and a resume", "[cli][config]") {
  TrainConfig saved;
  Options o;
  saved.bind(o);
  const std::vector<std::string> keys = o.keys();
  REQUIRE(keys.size() > 30);
  for (const std::string& key : keys) o.set(key, changed(o, key));
  CheckpointInfo info;
  info.config = o.dump();

  const TrainConfig back = TrainConfig::from_checkpoint(info, saved.out_dir);  // "out_x", as changed
  TrainConfig copy = back;
  Options ob;
  copy.bind(ob);
  TrainConfig defaults;
  Options od;
  defaults.bind(od);
  for (const std::string& key : keys) {
    INFO(key);
    CHECK(ob.value(key) == o.value(key));
    CHECK(ob.value(key) != od.value(key));  // so a key left at its default would be seen
  }
}

TEST_CASE("from_checkpoint: a given setting overrides, a given model key must agree", "[cli][config]") {
  TrainConfig trained;
  Options o;
  trained.bind(o);
  o.set("n_layer", "3");
  o.set("max_iters", "50");
  o.set("out_dir", "somewhere/else");
  CheckpointInfo info;
  info.config = o.dump();

  TrainConfig cmd;
  Options given;
  cmd.bind(given);
  std::ostringstream echo;
  given.apply_flag("--max_iters=80", echo);
  given.apply_flag("--n_layer=3", echo);  // the checkpoint's value: allowed
  const TrainConfig c = TrainConfig::from_checkpoint(info, "here", given);
  CHECK(c.max_iters == 80);
  CHECK(c.n_layer == 3);
  CHECK(c.out_dir == "here");  // where the checkpoint is now, not where it was written

  given.apply_flag("--n_layer=4", echo);
  CHECK(error_message([&] { (void)TrainConfig::from_checkpoint(info, "here", given); }) ==
        "n_layer = 4 was given, but the checkpoint in here was trained with n_layer = 3");

  info.config += "no_such_key = 1\n";
  CHECK(error_message([&] { (void)TrainConfig::from_checkpoint(info, "here"); })
            .find("the config in here/ckpt.safetensors:") == 0);
}
