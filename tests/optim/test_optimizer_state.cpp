// Optimizer state: what state_dict() holds, and that saving and loading it in the middle of
// a run changes nothing — the resumed run ends on the same bits as the straight one.
#include "tests/catch.h"

#include <functional>
#include <memory>

#include "helpers.h"
#include "optim/optim.h"

using namespace attic;
using namespace attic::testing;

namespace {

// A tiny model: w [3, 2] and b [2], loss = Σ (x w + b)² over a fixed x [4, 3].
struct Tiny {
  Tensor w, b, x;
  explicit Tiny(uint64_t seed) {
    manual_seed(seed);
    w = randn({3, 2}).requires_grad_();
    b = randn({2}).requires_grad_();
    x = randn({4, 3});
  }
  // nanoGPT's grouping: the matrix decays, the vector does not.
  std::vector<optim::ParamGroup> groups() const {
    return {{.params = {w}, .weight_decay = 0.1}, {.params = {b}, .weight_decay = 0.0}};
  }
  void backward() const {
    Tensor y = matmul(x, w) + b;
    sum(y * y).backward();
  }
};

using MakeOptimizer = std::function<std::unique_ptr<optim::Optimizer>(const Tiny&)>;

// n steps of opt on m, with the cosine schedule set before each (it counts from start).
void train(const Tiny& m, optim::Optimizer& opt, int64_t start, int64_t n) {
  for (int64_t it = start; it < start + n; ++it) {
    optim::set_lr(opt, optim::cosine_with_warmup(it, 0.05, 0.005, 2, 10));
    opt.zero_grad();
    m.backward();
    opt.step();
  }
}

// Trains 8 steps straight, and 4 + save + a fresh optimizer that loads + 4; the parameters
// must come out bit for bit the same.
void check_resume(const MakeOptimizer& make) {
  Tiny straight(7), resumed(7);
  auto opt_a = make(straight);
  train(straight, *opt_a, 0, 8);

  auto opt_b = make(resumed);
  train(resumed, *opt_b, 0, 4);
  nn::StateDict saved;
  for (auto& [name, t] : opt_b->state_dict()) saved[name] = t.clone();  // as if from a file
  opt_b.reset();
  auto opt_c = make(resumed);
  opt_c->load_state_dict(saved);
  train(resumed, *opt_c, 4, 4);

  CHECK(straight.w.to_vector<float>() == resumed.w.to_vector<float>());
  CHECK(straight.b.to_vector<float>() == resumed.b.to_vector<float>());

  // Without the load the second half starts from empty state, and the run differs: the
  // check above can fail.
  Tiny forgetful(7);
  train(forgetful, *make(forgetful), 0, 4);
  train(forgetful, *make(forgetful), 4, 4);
  CHECK(straight.w.to_vector<float>() != forgetful.w.to_vector<float>());
  // And the resumed optimizer holds the same state as the straight one.
  const nn::StateDict a = opt_a->state_dict(), c = opt_c->state_dict();
  REQUIRE(a.size() == c.size());
  for (const auto& [name, t] : a) {
    INFO(name);
    REQUIRE(c.count(name));
    CHECK(t.to_vector<double>() == c.at(name).to_vector<double>());
  }
}

}  // namespace

TEST_CASE("optimizer state: entries are named by the parameter's position across groups",
          "[optim]") {
  Tiny m(1);
  optim::AdamW opt(m.groups(), optim::AdamWOptions(0.01));
  // Before any step: lr, weight_decay and num_params for each of the two groups.
  nn::StateDict sd = opt.state_dict();
  CHECK(sd.size() == 6);
  CHECK(sd.at("group.0.weight_decay").item<double>() == 0.1);
  CHECK(sd.at("group.1.weight_decay").item<double>() == 0.0);
  CHECK(sd.at("group.1.num_params").item<int64_t>() == 1);

  m.backward();
  opt.step();
  opt.step();  // the same gradients again: step counts 2
  sd = opt.state_dict();
  CHECK(sd.size() == 12);
  CHECK(sd.at("state.0.step").dtype() == kInt64);
  CHECK(sd.at("state.0.step").dim() == 0);
  CHECK(sd.at("state.0.step").item<int64_t>() == 2);
  CHECK(sd.at("state.0.exp_avg").shape() == Shape{3, 2});     // w, group 0
  CHECK(sd.at("state.1.exp_avg_sq").shape() == Shape{2});     // b, group 1
  CHECK(sd.at("group.0.lr").dtype() == kFloat64);
  CHECK(sd.at("group.0.lr").dim() == 0);
  CHECK(sd.at("group.0.lr").item<double>() == 0.01);
  for (const auto& [name, t] : sd) {
    INFO(name);
    CHECK(t.device() == Device::CPU);
    CHECK(t.is_contiguous());
    CHECK_FALSE(t.requires_grad());
  }
}

TEST_CASE("optimizer state: state_dict returns copies", "[optim]") {
  Tiny m(2);
  optim::SGD opt({m.w, m.b}, optim::SGDOptions(0.1).momentum(0.9));
  m.backward();
  opt.step();
  const nn::StateDict sd = opt.state_dict();
  const std::vector<float> buf = sd.at("state.0.momentum_buffer").to_vector<float>();
  opt.step();  // changes the optimizer's buffer, not the saved one
  CHECK(sd.at("state.0.momentum_buffer").to_vector<float>() == buf);
  CHECK(opt.state_dict().at("state.0.momentum_buffer").to_vector<float>() != buf);
}

TEST_CASE("optimizer state: SGD with momentum resumes bit for bit", "[optim]") {
  check_resume([](const Tiny& m) {
    return std::make_unique<optim::SGD>(m.groups(),
                                        optim::SGDOptions(0.05).momentum(0.9).nesterov(true));
  });
}

TEST_CASE("optimizer state: Adam resumes bit for bit", "[optim]") {
  check_resume([](const Tiny& m) {
    return std::make_unique<optim::Adam>(m.groups(), optim::AdamOptions(0.05));
  });
}

TEST_CASE("optimizer state: AdamW resumes bit for bit", "[optim]") {
  check_resume([](const Tiny& m) {
    return std::make_unique<optim::AdamW>(m.groups(),
                                          optim::AdamWOptions(0.05).betas({0.9, 0.95}));
  });
}

TEST_CASE("optimizer state: loading restores each group's lr and weight_decay", "[optim]") {
  Tiny m(3);
  optim::AdamW a(m.groups(), optim::AdamWOptions(0.01));
  optim::set_lr(a, 0.0123);
  optim::AdamW b(m.groups(), optim::AdamWOptions(0.5).weight_decay(0.7));
  b.param_groups()[1].weight_decay = 0.3;
  b.load_state_dict(a.state_dict());
  CHECK(b.param_groups()[0].lr == 0.0123);
  CHECK(b.param_groups()[1].lr == 0.0123);
  CHECK(b.param_groups()[0].weight_decay == 0.1);
  CHECK(b.param_groups()[1].weight_decay == 0.0);
}

TEST_CASE("optimizer state: a dict that does not fit is refused with a clear message",
          "[optim]") {
  Tiny m(4);
  optim::Adam adam(m.groups());
  m.backward();
  adam.step();
  const nn::StateDict good = adam.state_dict();

  // Changes one entry of good.
  auto with = [&](const std::string& key, const Tensor& t) {
    nn::StateDict d = good;
    d[key] = t;
    return d;
  };
  auto without = [&](const std::string& key) {
    nn::StateDict d = good;
    d.erase(key);
    return d;
  };
  auto load_error = [&](const nn::StateDict& d) {
    optim::Adam fresh(m.groups());
    return error_message([&] { fresh.load_state_dict(d); });
  };

  CHECK(load_error(good).empty());
  CHECK(load_error(with("state.0.exp_avg", zeros({2, 3}))) ==
        "Adam: load_state_dict: 'state.0.exp_avg' has shape [2, 3] but parameter 0 has shape "
        "[3, 2]");
  CHECK(load_error(with("state.1.exp_avg", zeros({2}, kFloat64))) ==
        "Adam: load_state_dict: 'state.1.exp_avg' has dtype float64 but parameter 1 has dtype "
        "float32");
  CHECK(load_error(without("state.1.exp_avg_sq")) ==
        "Adam: load_state_dict: missing key 'state.1.exp_avg_sq'");
  CHECK(load_error(without("state.1.step")) ==
        "Adam: load_state_dict: missing key 'state.1.step'");
  CHECK(load_error(without("group.0.lr")) == "Adam: load_state_dict: missing key 'group.0.lr'");
  CHECK(load_error(with("state.2.exp_avg", zeros({2}))) ==
        "Adam: load_state_dict: 'state.2.exp_avg' names parameter 2 but the optimizer has 2 "
        "parameters");
  CHECK(load_error(with("group.2.lr", scalar_tensor(0.1, kFloat64))) ==
        "Adam: load_state_dict: 'group.2.lr' names group 2 but the optimizer has 2 groups");
  CHECK(load_error(with("state.0.momentum_buffer", zeros({3, 2}))) ==
        "Adam: load_state_dict: unexpected key 'state.0.momentum_buffer'");
  CHECK(load_error(with("lr", scalar_tensor(0.1, kFloat64))) ==
        "Adam: load_state_dict: unexpected key 'lr'");
  CHECK(load_error(with("state.0.step", scalar_tensor(-1, kInt64))) ==
        "Adam: load_state_dict: 'state.0.step' must be a whole number from 1 to 2^53, got -1");
  // Step 0 would divide by Adam's bias correction 1 - beta^0 = 0; 1e300 overflows int64.
  CHECK(load_error(with("state.0.step", scalar_tensor(0, kInt64))) ==
        "Adam: load_state_dict: 'state.0.step' must be a whole number from 1 to 2^53, got 0");
  CHECK(load_error(with("state.0.step", scalar_tensor(1e300, kFloat64))) ==
        "Adam: load_state_dict: 'state.0.step' must be a whole number from 1 to 2^53, got 1e+300");
  CHECK(load_error(with("group.0.lr", zeros({1}, kFloat64))) ==
        "Adam: load_state_dict: 'group.0.lr' must be a 0-d tensor, got shape [1]");
  CHECK(load_error(with("group.0.num_params", scalar_tensor(2, kInt64))) ==
        "Adam: load_state_dict: group 0 has 2 parameters in the dict but 1 in the optimizer");

  // An optimizer over one group cannot take a dict of two.
  optim::Adam one_group({m.w, m.b});
  CHECK(error_message([&] { one_group.load_state_dict(good); }) ==
        "Adam: load_state_dict: 'group.1.lr' names group 1 but the optimizer has 1 groups");
  nn::StateDict only_group_1 = good;
  for (const char* k : {"group.0.lr", "group.0.weight_decay", "group.0.num_params"})
    only_group_1.erase(k);
  optim::Adam two_groups(m.groups());
  CHECK(error_message([&] { two_groups.load_state_dict(only_group_1); }) ==
        "Adam: load_state_dict: the dict has 1 parameter groups but the optimizer has 2");
}

TEST_CASE("optimizer state: a refused load leaves the optimizer as it was", "[optim]") {
  Tiny m(5);
  optim::SGD opt(m.groups(), optim::SGDOptions(0.1).momentum(0.9));
  m.backward();
  opt.step();
  const nn::StateDict before = opt.state_dict();
  nn::StateDict bad = before;
  bad["group.0.lr"] = scalar_tensor(7.0, kFloat64);
  bad["state.1.momentum_buffer"] = zeros({5});  // b is [2]: refused, after group 0's lr
  CHECK_FALSE(error_message([&] { opt.load_state_dict(bad); }).empty());
  CHECK(opt.param_groups()[0].lr == 0.1);
  const nn::StateDict after = opt.state_dict();
  REQUIRE(after.size() == before.size());
  for (const auto& [name, t] : before)
    CHECK(after.at(name).to_vector<double>() == t.to_vector<double>());
}
