// nn::Module: registration and its errors, dotted names, tied tensors, modes, grads,
// devices, state dicts.
#include "devices.h"
#include "helpers.h"
#include "nn/nn.h"

using namespace attic;
using namespace attic::testing;

namespace {

// A leaf module: one parameter "w" [2, 3] = 1..6 and one buffer "count" [1].
struct Leaf : nn::Module {
  Tensor w, count;
  Leaf() {
    w = register_parameter("w", tensor({{1, 2, 3}, {4, 5, 6}}));
    count = register_buffer("count", zeros({1}));
  }
};

// Parameters "a", then child "inner" (a Leaf), then "z", then child "second" (a Leaf):
// names follow registration order within a module, parameters before children.
struct Outer : nn::Module {
  Tensor a, z;
  std::shared_ptr<Leaf> inner, second;
  Outer() {
    a = register_parameter("a", zeros({4}));
    inner = register_module("inner", std::make_shared<Leaf>());
    z = register_parameter("z", zeros({1}));
    second = register_module("second", std::make_shared<Leaf>());
  }
};

// second.w is tied to inner.w: the very same tensor under two names.
struct Tied : Outer {
  Tied() { second->w = second->replace_parameter("w", inner->w); }
};

std::vector<std::string> names(const nn::NamedTensors& list) {
  std::vector<std::string> out;
  for (const auto& [name, t] : list) out.push_back(name);
  return out;
}

std::vector<std::string> keys(const nn::StateDict& dict) {
  std::vector<std::string> out;
  for (const auto& [name, t] : dict) out.push_back(name);
  return out;
}

}  // namespace

// ---------------------------------------------------------------- registration

TEST_CASE("register_parameter makes a leaf that requires grad and returns it", "[nn][module]") {
  nn::Module m;
  Tensor t = zeros({3});
  Tensor p = m.register_parameter("p", t);
  CHECK(p.is_same(t));
  CHECK(p.requires_grad());
  CHECK(p.is_leaf());
  Tensor frozen = m.register_parameter("frozen", zeros({2}), /*requires_grad=*/false);
  CHECK_FALSE(frozen.requires_grad());
  CHECK(names(m.named_parameters()) == std::vector<std::string>{"p", "frozen"});
}

TEST_CASE("register_parameter, register_buffer, register_module reject bad names",
          "[nn][module][errors]") {
  nn::Module m;
  m.register_parameter("w", zeros({2}));
  m.register_buffer("b", zeros({2}));
  m.register_module("c", std::make_shared<nn::Module>());
  // every kind of name clashes with every other kind
  CHECK(error_message([&] { m.register_parameter("w", zeros({2})); }) ==
        "register_parameter: 'w' is already registered");
  CHECK(error_message([&] { m.register_parameter("b", zeros({2})); }) ==
        "register_parameter: 'b' is already registered");
  CHECK(error_message([&] { m.register_buffer("c", zeros({2})); }) ==
        "register_buffer: 'c' is already registered");
  CHECK(error_message([&] { m.register_module("w", std::make_shared<nn::Module>()); }) ==
        "register_module: 'w' is already registered");
  // a '.' would make dotted names ambiguous
  CHECK(error_message([&] { m.register_parameter("fc.weight", zeros({2})); }) ==
        "register_parameter: name 'fc.weight' must be non-empty and contain no '.'");
  CHECK(error_message([&] { m.register_buffer("x.y", zeros({2})); }) ==
        "register_buffer: name 'x.y' must be non-empty and contain no '.'");
  CHECK(error_message([&] { m.register_module("", std::make_shared<nn::Module>()); }) ==
        "register_module: name '' must be non-empty and contain no '.'");
}

TEST_CASE("registering an undefined tensor, a null module or a non-leaf fails",
          "[nn][module][errors]") {
  nn::Module m;
  CHECK(error_message([&] { m.register_parameter("w", Tensor()); }) ==
        "register_parameter: 'w' is an undefined tensor");
  CHECK(error_message([&] { m.register_buffer("b", Tensor()); }) ==
        "register_buffer: 'b' is an undefined tensor");
  CHECK(error_message([&] { m.register_module("c", std::shared_ptr<nn::Module>()); }) ==
        "register_module: 'c' is null");
  Tensor x = zeros({2}).requires_grad_();
  CHECK(error_message([&] { m.register_parameter("y", x * 2.0); }) ==
        "register_parameter: 'y' must be a leaf tensor (detach() it)");
  // nothing was registered by the failed calls
  CHECK(m.named_parameters().empty());
  CHECK(m.named_buffers().empty());
  CHECK(m.named_children().empty());
}

// ---------------------------------------------------------------- walking the tree

TEST_CASE("named_parameters gives dotted names in registration order", "[nn][module]") {
  Outer m;
  CHECK(names(m.named_parameters()) ==
        std::vector<std::string>{"a", "z", "inner.w", "second.w"});
  CHECK(names(m.named_parameters(/*recurse=*/false)) == std::vector<std::string>{"a", "z"});
  // the tensors are the modules' own handles, not copies
  const nn::NamedTensors params = m.named_parameters();
  CHECK(params[2].second.is_same(m.inner->w));
  const std::vector<Tensor> ps = m.parameters();
  REQUIRE(ps.size() == 4);
  CHECK(ps[0].is_same(m.a));
  CHECK(ps[3].is_same(m.second->w));
  CHECK(m.parameters(false).size() == 2);
}

TEST_CASE("nested children give names two dots deep", "[nn][module]") {
  struct Top : nn::Module {
    std::shared_ptr<Outer> body;
    Top() { body = register_module("body", std::make_shared<Outer>()); }
  } top;
  CHECK(names(top.named_parameters()) ==
        std::vector<std::string>{"body.a", "body.z", "body.inner.w", "body.second.w"});
  CHECK(names(top.named_buffers()) ==
        std::vector<std::string>{"body.inner.count", "body.second.count"});
  CHECK(top.named_parameters(false).empty());
  REQUIRE(top.named_children().size() == 1);
  CHECK(top.named_children()[0].first == "body");
  CHECK(top.named_children()[0].second == top.body);
}

TEST_CASE("named_buffers lists buffers only, which do not require grad", "[nn][module]") {
  Outer m;
  const nn::NamedTensors bufs = m.named_buffers();
  CHECK(names(bufs) == std::vector<std::string>{"inner.count", "second.count"});
  CHECK_FALSE(bufs[0].second.requires_grad());
  CHECK(bufs[0].second.is_same(m.inner->count));
  CHECK(m.named_buffers(false).empty());
}

TEST_CASE("a tied tensor appears once in named_parameters, under its first name",
          "[nn][module]") {
  Tied m;
  CHECK(m.second->w.is_same(m.inner->w));
  CHECK(names(m.named_parameters()) == std::vector<std::string>{"a", "z", "inner.w"});
  CHECK(m.parameters().size() == 3);
  // counted once too: 4 + 1 + 6
  CHECK(m.num_parameters() == 11);
  // the same tensor registered directly under two names is also deduplicated
  nn::Module direct;
  Tensor t = zeros({5});
  direct.register_parameter("first", t);
  direct.register_parameter("again", t);
  CHECK(names(direct.named_parameters()) == std::vector<std::string>{"first"});
}

TEST_CASE("num_parameters sums elements over all parameters", "[nn][module]") {
  // a [4] + z [1] + inner.w [2, 3] + second.w [2, 3] = 4 + 1 + 6 + 6; buffers do not count
  Outer m;
  CHECK(m.num_parameters() == 17);
  CHECK(nn::Module().num_parameters() == 0);
}

TEST_CASE("replace_parameter swaps the tensor under a name and checks the shape",
          "[nn][module]") {
  Leaf m;
  Tensor t = full({2, 3}, 7.0).requires_grad_();
  Tensor r = m.replace_parameter("w", t);
  CHECK(r.is_same(t));
  CHECK(m.named_parameters()[0].second.is_same(t));
  CHECK(error_message([&] { m.replace_parameter("w", zeros({3, 2})); }) ==
        "replace_parameter: 'w' has shape [2, 3], the replacement [3, 2]");
  CHECK(error_message([&] { m.replace_parameter("w", Tensor()); }) ==
        "replace_parameter: 'w' has shape [2, 3], the replacement is undefined");
  CHECK(error_message([&] { m.replace_parameter("nope", zeros({2, 3})); }) ==
        "replace_parameter: no parameter named 'nope'");
  // a buffer is not a parameter
  CHECK(error_message([&] { m.replace_parameter("count", zeros({1})); }) ==
        "replace_parameter: no parameter named 'count'");
}

// ---------------------------------------------------------------- modes, grads, devices

TEST_CASE("train and eval reach every descendant", "[nn][module]") {
  struct Top : nn::Module {
    std::shared_ptr<Outer> body;
    Top() { body = register_module("body", std::make_shared<Outer>()); }
  } top;
  CHECK(top.is_training());
  CHECK(top.body->inner->is_training());
  top.eval();
  CHECK_FALSE(top.is_training());
  CHECK_FALSE(top.body->is_training());
  CHECK_FALSE(top.body->inner->is_training());
  CHECK_FALSE(top.body->second->is_training());
  top.train();
  CHECK(top.body->second->is_training());
  // eval on a child leaves the parent alone
  top.body->eval();
  CHECK(top.is_training());
  CHECK_FALSE(top.body->inner->is_training());
}

TEST_CASE("zero_grad clears the grad of every parameter", "[nn][module]") {
  Outer m;
  Tensor loss = sum(m.a) + sum(m.z) + sum(m.inner->w * m.inner->w) + sum(m.second->w);
  loss.backward();
  for (const Tensor& p : m.parameters()) CHECK(p.grad().defined());
  // d/dw Σw² = 2w = [2, 4, 6, 8, 10, 12]
  CHECK_THAT(values(m.inner->w.grad()), ApproxValues({2, 4, 6, 8, 10, 12}));
  m.zero_grad();
  for (const Tensor& p : m.parameters()) CHECK_FALSE(p.grad().defined());
  // a second backward starts from nothing instead of adding to the first
  sum(m.a).backward();
  CHECK_THAT(values(m.a.grad()), ApproxValues({1, 1, 1, 1}));
}

TEST_CASE("to(CPU) is a no-op and to(CUDA) throws in a CPU-only build", "[nn][module]") {
  Leaf m;
  Tensor w = m.w;
  const void* data = w.raw_data();
  m.to(Device::CPU);
  CHECK(m.w.is_same(w));
  CHECK(m.w.raw_data() == data);
  CHECK(m.w.device() == Device::CPU);
#ifndef ATTIC_WITH_CUDA
  CHECK(error_message([&] { m.to(Device::CUDA); }) == "attic was built without CUDA");
  // the failed move left everything where it was
  CHECK(m.w.device() == Device::CPU);
  CHECK_THAT(values(m.w), ApproxValues({1, 2, 3, 4, 5, 6}));
#endif
}

// A module with a persistent buffer "count" and a non-persistent one "cache".
struct WithCache : nn::Module {
  Tensor count, cache;
  WithCache() {
    count = register_buffer("count", zeros({1}));
    cache = register_buffer("cache", tensor({1, 2, 3}), /*persistent=*/false);
  }
};

TEST_CASE("a non-persistent buffer is a buffer but not in the state dict", "[nn][module]") {
  auto m = std::make_shared<WithCache>();
  struct Holder : nn::Module {
    std::shared_ptr<WithCache> child;
    explicit Holder(std::shared_ptr<WithCache> c) { child = register_module("child", c); }
  } holder(m);
  CHECK(names(holder.named_buffers()) == std::vector<std::string>{"child.count", "child.cache"});
  CHECK(keys(holder.state_dict()) == std::vector<std::string>{"child.count"});
  // a dict without it loads strictly, and one with it is rejected
  holder.load_state_dict({{"child.count", ones({1})}});
  CHECK_THAT(values(m->count), ApproxValues({1}));
  CHECK(error_message([&] {
    holder.load_state_dict({{"child.count", ones({1})}, {"child.cache", zeros({3})}});
  }) == "load_state_dict: unexpected key 'child.cache' (the module has no such parameter or buffer)");
  CHECK_THAT(values(m->cache), ApproxValues({1, 2, 3}));
}

TEST_CASE("to(device) moves parameters and both kinds of buffers, in place", "[nn][module][devices]") {
  for (const Device d : available_devices()) {
    WithCache m;
    const Tensor cache = m.cache;
    m.to(d);
    CHECK(m.count.device() == d);
    CHECK(m.cache.device() == d);
    CHECK(cache.device() == d);  // the handle held elsewhere followed the move
    CHECK_THAT(values(m.cache.to(Device::CPU)), ApproxValues({1, 2, 3}));
    m.to(Device::CPU);
    CHECK(m.cache.device() == Device::CPU);
  }
}

// ---------------------------------------------------------------- state dicts

TEST_CASE("state_dict holds parameters and buffers by dotted name, sorted", "[nn][module]") {
  Outer m;
  const nn::StateDict dict = m.state_dict();
  CHECK(keys(dict) == std::vector<std::string>{"a", "inner.count", "inner.w", "second.count",
                                               "second.w", "z"});
  // the entries are the module's tensors themselves
  CHECK(dict.at("inner.w").is_same(m.inner->w));
  CHECK(dict.at("second.count").is_same(m.second->count));
}

TEST_CASE("state_dict lists a tied tensor under each of its names", "[nn][module]") {
  Tied m;
  const nn::StateDict dict = m.state_dict();
  REQUIRE(dict.count("inner.w"));
  REQUIRE(dict.count("second.w"));
  CHECK(dict.at("inner.w").is_same(dict.at("second.w")));
  CHECK(dict.size() == 6);
}

TEST_CASE("load_state_dict copies values into the module's own tensors", "[nn][module]") {
  Outer src, dst;
  {
    NoGradGuard no_grad;
    src.a.fill_(1.5);
    src.inner->w.copy_(tensor({{-1, -2, -3}, {-4, -5, -6}}));
    src.second->count.fill_(9);
  }
  Tensor held = dst.inner->w;  // a handle kept elsewhere (an optimizer, say)
  TensorImpl* impl = held.impl();
  dst.load_state_dict(src.state_dict());
  CHECK(dst.inner->w.impl() == impl);
  CHECK_THAT(values(held), ApproxValues({-1, -2, -3, -4, -5, -6}));
  CHECK_THAT(values(dst.a), ApproxValues({1.5, 1.5, 1.5, 1.5}));
  CHECK_THAT(values(dst.second->count), ApproxValues({9}));
  // copied, not shared: changing the source afterwards leaves dst alone
  CHECK_FALSE(dst.a.shares_storage(src.a));
  {
    NoGradGuard no_grad;
    src.a.fill_(0.0);
  }
  CHECK_THAT(values(dst.a), ApproxValues({1.5, 1.5, 1.5, 1.5}));
  // parameters are still leaves that require grad
  CHECK(dst.a.requires_grad());
  CHECK(dst.a.is_leaf());
}

TEST_CASE("load_state_dict strict: missing and unexpected keys", "[nn][module][errors]") {
  Leaf m;
  nn::StateDict dict = m.state_dict();
  nn::StateDict missing = dict;
  missing.erase("count");
  CHECK(error_message([&] { m.load_state_dict(missing); }) ==
        "load_state_dict: missing key 'count'");
  nn::StateDict extra = dict;
  extra["bias"] = zeros({2});
  CHECK(error_message([&] { m.load_state_dict(extra); }) ==
        "load_state_dict: unexpected key 'bias' (the module has no such parameter or buffer)");
}

TEST_CASE("load_state_dict: shape and dtype mismatches fail and change nothing",
          "[nn][module][errors]") {
  Leaf m;
  nn::StateDict dict = {{"w", zeros({3, 2})}, {"count", zeros({1})}};
  CHECK(error_message([&] { m.load_state_dict(dict); }) ==
        "load_state_dict: 'w' has shape [3, 2] in the dict but [2, 3] in the module");
  dict = {{"w", zeros({2, 3}, kFloat64)}, {"count", zeros({1})}};
  CHECK(error_message([&] { m.load_state_dict(dict); }) ==
        "load_state_dict: 'w' has dtype float64 in the dict but float32 in the module");
  // non-strict still checks the shapes of the keys it loads
  CHECK(error_message([&] { m.load_state_dict({{"count", zeros({2})}}, false); }) ==
        "load_state_dict: 'count' has shape [2] in the dict but [1] in the module");
  CHECK(error_message([&] { m.load_state_dict({{"count", Tensor()}}, false); }) ==
        "load_state_dict: 'count' is an undefined tensor in the dict");
  // "count" sorts before "w": a bad "w" must not leave "count" loaded
  dict = {{"w", zeros({3, 2})}, {"count", full({1}, 5.0)}};
  CHECK_FALSE(error_message([&] { m.load_state_dict(dict); }).empty());
  CHECK_THAT(values(m.count), ApproxValues({0}));
  CHECK_THAT(values(m.w), ApproxValues({1, 2, 3, 4, 5, 6}));
}

TEST_CASE("load_state_dict non-strict loads the keys it knows and skips the rest",
          "[nn][module]") {
  Outer m;
  m.load_state_dict({{"inner.count", full({1}, 3.0)}, {"unknown", zeros({7})}},
                    /*strict=*/false);
  CHECK_THAT(values(m.inner->count), ApproxValues({3}));
  CHECK_THAT(values(m.inner->w), ApproxValues({1, 2, 3, 4, 5, 6}));
  CHECK_THAT(values(m.second->count), ApproxValues({0}));
}

TEST_CASE("load_state_dict into tied weights writes the one shared tensor", "[nn][module]") {
  Tied m;
  nn::StateDict dict;
  for (const auto& [name, t] : m.state_dict()) dict[name] = t.detach().clone();
  NoGradGuard no_grad;
  dict["inner.w"].fill_(2.0);
  dict["second.w"].fill_(2.0);
  m.load_state_dict(dict);
  CHECK(m.second->w.is_same(m.inner->w));
  CHECK_THAT(values(m.second->w), ApproxValues(std::vector<double>(6, 2.0)));
}

TEST_CASE("load_state_dict strict: one name of a tied tensor is enough", "[nn][module]") {
  Tied src;
  {
    NoGradGuard no_grad;
    src.inner->w.fill_(4.0);
  }
  for (const char* kept : {"inner.w", "second.w"}) {
    INFO(kept);
    nn::StateDict dict = src.state_dict();
    dict.erase(std::string(kept) == "inner.w" ? "second.w" : "inner.w");
    Tied m;
    m.load_state_dict(dict);  // strict
    CHECK(m.second->w.is_same(m.inner->w));
    CHECK_THAT(values(m.inner->w), ApproxValues(std::vector<double>(6, 4.0)));
    CHECK(keys(m.state_dict()) == keys(src.state_dict()));
  }
  // with neither name it is still missing
  nn::StateDict none = src.state_dict();
  none.erase("inner.w");
  none.erase("second.w");
  Tied m;
  CHECK(error_message([&] { m.load_state_dict(none); }) ==
        "load_state_dict: missing key 'inner.w' (nor any name tied to it)");
}

TEST_CASE("load_state_dict: two names of one tied tensor must agree", "[nn][module][errors]") {
  Tied m;
  nn::StateDict dict;
  for (const auto& [name, t] : m.state_dict()) dict[name] = t.detach().clone();
  NoGradGuard no_grad;
  dict["second.w"].fill_(2.0);
  CHECK(error_message([&] { m.load_state_dict(dict); }) ==
        "load_state_dict: 'inner.w' and 'second.w' are one tied tensor in the module but "
        "differ in the dict");
  CHECK_THAT(values(m.inner->w), ApproxValues({1, 2, 3, 4, 5, 6}));  // unchanged
}
