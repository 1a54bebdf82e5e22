// TrainConfig::from_checkpoint: what `attic train --init_from=resume`, `attic eval` and
// `attic sample` read back from a checkpoint.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "helpers.h"
#include "train/train_config.h"
#include "models/elita/config.h"
#include "models/gpt/config.h"

using namespace attic::train;
using namespace attic::util;

using attic::testing::error_message;

namespace {

// Another valid text for a key's value: a bool flipped, an int plus 1, a float halved plus
// 0.01 (so that dropout and the betas stay in [0, 1)), a string extended.
std::string changed(const Options& o, const std::string& key) {
  const std::string type = o.type(key), v = o.value(key);
  if (type == "bool") return v == "true" ? "false" : "true";
  if (type == "int") return std::to_string(std::stoll(v) + 1);
  if (type == "float") return std::to_string(std::stod(v) / 2 + 0.01);
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

TEST_CASE("lr_schedule inverse_sqrt is ELiTA's min(1e-3, 1e-2/√step)", "[cli][config][elita]") {
  TrainConfig c;
  c.lr_schedule = "inverse_sqrt";
  c.learning_rate = 1e-3;
  c.warmup_iters = 100;
  c.validate();
  for (int64_t iter : {0, 50, 99, 100, 399, 9999}) {
    INFO("iter " << iter);
    const double step = double(iter + 1);
    CHECK(c.lr_at(iter) == Approx(std::min(1e-3, 1e-2 / std::sqrt(step))).epsilon(1e-12));
  }
  c.warmup_iters = 0;
  CHECK(error_message([&] { c.validate(); }) ==
        "lr_schedule inverse_sqrt needs warmup_iters > 0 (the step where the decay starts), got 0");
  c.lr_schedule = "linear";
  CHECK(error_message([&] { c.validate(); }) == "lr_schedule must be cosine, inverse_sqrt, step, cosine_epochs or step_epochs, got 'linear'");
}

TEST_CASE("ELiTA's keys: the block attention and its options, and where they are refused",
          "[cli][config][elita]") {
  TrainConfig c;
  Options o;
  c.bind(o);  // the elita_* keys are the aliases the elita attention and model declare
  c.n_embd = 64;
  c.n_head = 4;
  c.model = "elita";
  c.validate();
  CHECK(c.block_attention() == "elita");
  CHECK(c.block_attention_options() == "att_w=16,numerics=stable,pos_w=16,positions=relative");
  o.set("elita_numerics", "clip");
  o.set("elita_positions", "absolute");
  o.set("elita_att_w", "8");
  CHECK(c.block_attention_options() == "att_w=8,numerics=clip,pos_w=16,positions=absolute");
  const attic::models::elita::ElitaConfig e = attic::models::elita::elita_config(c.model_spec(65));
  CHECK(e.att_w == 8);
  CHECK(e.numerics == attic::models::elita::Numerics::Clip);
  CHECK(e.positions == attic::models::elita::Positions::Absolute);

  o.set("elita_numerics", "exact");
  CHECK(error_message([&] { c.validate(); }) == "elita numerics must be stable or clip, got 'exact'");
  o.set("elita_numerics", "stable");
  c.attention = "linear_elu";
  CHECK(error_message([&] { c.validate(); }) ==
        "model elita has ELiTA's attention in every block; attention = linear_elu needs model gpt");

  // In the GPT, attention = elita reads the same keys.
  c.model = "gpt";
  c.attention = "elita";
  c.validate();
  CHECK(attic::models::gpt_config(c.model_spec(65)).attention == "elita");
  CHECK(attic::models::gpt_config(c.model_spec(65)).attention_options ==
        "att_w=8,numerics=stable,pos_w=16,positions=absolute");
  // attention_options is the other spelling of the same options; the record is the same.
  TrainConfig d;
  Options od;
  d.bind(od);
  d.n_embd = 64;
  d.n_head = 4;
  d.attention = "elita";
  d.attention_options = "positions=absolute,att_w=8";
  d.validate();
  CHECK(d.block_attention_options() == c.block_attention_options());
  c.attention_options = "positions=relative";
  CHECK(error_message([&] { c.validate(); }) ==
        "attention elita's option positions is given twice: in attention_options and as elita_positions");
  c.attention_options = "";
  o.set("elita_ff", "4");
  CHECK(error_message([&] { c.validate(); }) ==
        "elita_ff sets model elita's option ff: it needs model = elita, got model gpt");

  TrainConfig pooled;
  pooled.model = "pooled_lm";
  pooled.attention = "elita";
  CHECK(error_message([&] { pooled.validate(); }) ==
        "attention elita is a GPT attention only: model pooled_lm needs one with a q, k, v form "
        "(softmax, linear_elu or linear_exp)");

  TrainConfig softmax;
  Options os;
  softmax.bind(os);
  os.set("elita_positions", "absolute");
  CHECK(error_message([&] { softmax.validate(); }) ==
        "elita_positions sets attention elita's option positions: it needs attention = elita or model = elita "
        "(model is gpt, attention softmax)");
}
