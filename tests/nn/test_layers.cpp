// The layers of nn/: Linear, Embedding, LayerNorm, Dropout, activations, Sequential,
// ModuleList.
#include <cmath>

#include "helpers.h"
#include "nn/nn.h"

using namespace attic;
using namespace attic::testing;

namespace {

// Overwrites a parameter's values outside the graph.
void set(Tensor& p, const Tensor& values) {
  NoGradGuard no_grad;
  p.copy_(values);
}

std::vector<std::string> names(const nn::NamedTensors& list) {
  std::vector<std::string> out;
  for (const auto& [name, t] : list) out.push_back(name);
  return out;
}

double max_abs(const Tensor& t) { return max(abs(t)).item<double>(); }

}  // namespace

// ---------------------------------------------------------------- Linear

TEST_CASE("Linear computes x W^T + b", "[nn][linear]") {
  // W = [[1, 2, 3], [4, 5, 6]], b = [0.5, -1]
  //   x = [1, 0, -1]: [1 - 3 + 0.5, 4 - 6 - 1]   = [-1.5, -3]
  //   x = [2, 1,  0]: [2 + 2 + 0.5, 8 + 5 - 1]   = [4.5, 12]
  nn::Linear lin(3, 2);
  set(lin.weight, tensor({{1, 2, 3}, {4, 5, 6}}));
  set(lin.bias, tensor({0.5, -1}));
  Tensor x = tensor({{1, 0, -1}, {2, 1, 0}});
  Tensor y = lin.forward(x);
  CHECK(y.shape() == Shape{2, 2});
  CHECK_THAT(values(y), ApproxValues({-1.5, -3, 4.5, 12}));
  // operator() is forward; a 1-D input gives a 1-D output
  CHECK_THAT(values(lin(tensor({1, 0, -1}))), ApproxValues({-1.5, -3}));
  // leading dims pass through: [2, 1, 3] -> [2, 1, 2]
  Tensor y3 = lin(x.view({2, 1, 3}));
  CHECK(y3.shape() == Shape{2, 1, 2});
  CHECK_THAT(values(y3), ApproxValues({-1.5, -3, 4.5, 12}));
}

TEST_CASE("Linear without bias has only a weight", "[nn][linear]") {
  // W = [[1, 2, 3], [4, 5, 6]]: [1, 0, -1] -> [1 - 3, 4 - 6] = [-2, -2]
  nn::Linear lin(3, 2, /*bias=*/false);
  CHECK_FALSE(lin.bias.defined());
  CHECK(names(lin.named_parameters()) == std::vector<std::string>{"weight"});
  CHECK(lin.num_parameters() == 6);
  set(lin.weight, tensor({{1, 2, 3}, {4, 5, 6}}));
  CHECK_THAT(values(lin(tensor({{1, 0, -1}}))), ApproxValues({-2, -2}));
}

TEST_CASE("Linear parameters: names, shapes, layout", "[nn][linear]") {
  nn::Linear lin(5, 3);
  CHECK(lin.in_features == 5);
  CHECK(lin.out_features == 3);
  CHECK(names(lin.named_parameters()) == std::vector<std::string>{"weight", "bias"});
  CHECK(lin.weight.shape() == Shape{3, 5});
  CHECK(lin.bias.shape() == Shape{3});
  CHECK(lin.weight.requires_grad());
  CHECK(lin.bias.requires_grad());
  CHECK(lin.num_parameters() == 18);
}

TEST_CASE("Linear rejects an input that does not end in in_features", "[nn][linear][errors]") {
  nn::Linear lin(3, 2);
  CHECK(error_message([&] { lin(ones({2, 4})); }) ==
        "Linear: input of shape [2, 4] does not end in in_features = 3");
  CHECK(error_message([&] { lin(scalar_tensor(1.0)); }) ==
        "Linear: input of shape [] does not end in in_features = 3");
  CHECK(error_message([] { nn::Linear(0, 2); }) ==
        "Linear: in_features and out_features must be positive, got 0 and 2");
}

TEST_CASE("Linear's formula passes gradcheck, and Linear computes that formula",
          "[nn][linear][gradcheck]") {
  // the formula on float64 leaves, with a non-contiguous x as well
  auto formula = [](const std::vector<Tensor>& in) {
    return matmul(in[0], in[1].t()) + in[2];
  };
  CHECK(gradcheck(formula, {leaf64({4, 3}), leaf64({2, 3}), leaf64({2})}));
  CHECK(gradcheck(formula, {noncontiguous_leaf64({4, 3}), leaf64({2, 3}), leaf64({2})}));
  CHECK(gradcheck(formula, {leaf64({2, 4, 3}), leaf64({2, 3}), leaf64({2})}));

  // the module's forward is the same formula (float32 parameters)
  nn::Linear lin(3, 2);
  Tensor x = randn({4, 3});
  CHECK_THAT(values(lin(x)),
             ApproxValues(values(matmul(x, lin.weight.t()) + lin.bias), 1e-6));

  // and gradcheck through the module itself once its parameters are float64 leaves
  nn::Linear lin64(3, 2);
  lin64.weight = lin64.replace_parameter("weight", leaf64({2, 3}));
  lin64.bias = lin64.replace_parameter("bias", leaf64({2}));
  CHECK(gradcheck([&](const std::vector<Tensor>& in) { return lin64(in[0]); },
                  {leaf64({4, 3}), lin64.weight, lin64.bias}));
}

TEST_CASE("Linear's default init lies within 1/sqrt(in_features)", "[nn][linear][init]") {
  // kaiming_uniform with a = √5: bound = √(6 / ((1 + 5) · 64)) = 1/8; bias too
  manual_seed(11);
  nn::Linear lin(64, 200);
  const double bound = 1.0 / std::sqrt(64.0);
  CHECK(max_abs(lin.weight) <= bound);
  CHECK(max_abs(lin.bias) <= bound);
  // 12,800 uniform draws fill the interval: max near the bound, std near bound/√3 = 0.0722
  CHECK(max_abs(lin.weight) > 0.99 * bound);
  const double std_w = std::sqrt(var(lin.weight).item<double>());
  CHECK(std_w == Approx(bound / std::sqrt(3.0)).epsilon(0.03));
  CHECK(std::abs(mean(lin.weight).item<double>()) < 0.003);
}

// ---------------------------------------------------------------- Embedding

TEST_CASE("Embedding looks rows up by id", "[nn][embedding]") {
  // weight rows: 0 -> [0, 1, 2], 1 -> [3, 4, 5], ..., 4 -> [12, 13, 14]
  nn::Embedding emb(5, 3);
  CHECK(emb.weight.shape() == Shape{5, 3});
  CHECK(names(emb.named_parameters()) == std::vector<std::string>{"weight"});
  set(emb.weight, arange(15).view({5, 3}));
  Tensor ids = from_vector<int64_t>({4, 0, 2, 2}, {2, 2});
  Tensor y = emb(ids);
  CHECK(y.shape() == Shape{2, 2, 3});
  CHECK_THAT(values(y), ApproxValues({12, 13, 14, 0, 1, 2, 6, 7, 8, 6, 7, 8}));
}

TEST_CASE("Embedding gradient adds up over repeated ids", "[nn][embedding]") {
  // ids [1, 3, 1, 1]: row 1 collects the upstream rows 0, 2, 3; row 3 collects row 1
  nn::Embedding emb(4, 2);
  Tensor ids = from_vector<int64_t>({1, 3, 1, 1});
  Tensor g = tensor({{1, 2}, {10, 20}, {100, 200}, {1000, 2000}});
  sum(emb(ids) * g).backward();
  REQUIRE(emb.weight.grad().defined());
  CHECK_THAT(values(emb.weight.grad()), ApproxValues({0, 0, 1101, 2202, 0, 0, 10, 20}));
}

TEST_CASE("Embedding init is N(0, 1), and bad sizes or ids fail", "[nn][embedding]") {
  manual_seed(5);
  nn::Embedding emb(500, 40);
  // 20,000 draws: the mean has std 1/√20000 ≈ 0.007
  CHECK(std::abs(mean(emb.weight).item<double>()) < 0.03);
  CHECK(std::sqrt(var(emb.weight).item<double>()) == Approx(1.0).epsilon(0.03));
  CHECK(error_message([] { nn::Embedding(0, 3); }) ==
        "Embedding: sizes must be positive, got 0 and 3");
  const std::string bad_id = error_message([&] { emb(from_vector<int64_t>({500})); });
  CHECK(bad_id.rfind("embedding: ", 0) == 0);
}

// ---------------------------------------------------------------- LayerNorm

TEST_CASE("LayerNorm module starts as weight 1, bias 0, and calls layer_norm",
          "[nn][layer_norm]") {
  nn::LayerNorm ln(4);
  CHECK(names(ln.named_parameters()) == std::vector<std::string>{"weight", "bias"});
  CHECK_THAT(values(ln.weight), ApproxValues({1, 1, 1, 1}));
  CHECK_THAT(values(ln.bias), ApproxValues({0, 0, 0, 0}));
  CHECK(ln.eps == 1e-5);
  // [1, 2, 3, 4]: mean 2.5, var (2.25 + 0.25 + 0.25 + 2.25)/4 = 1.25, so (x - 2.5)/√1.25 =
  // [-1.341641, -0.447214, 0.447214, 1.341641]
  nn::LayerNorm exact(4, true, 0.0);
  CHECK_THAT(values(exact(tensor({1, 2, 3, 4}))),
             ApproxValues({-1.341641, -0.447214, 0.447214, 1.341641}, 1e-5));
  // with trained-looking parameters it is exactly the op
  set(ln.weight, tensor({1, -2, 0.5, 3}));
  set(ln.bias, tensor({0, 1, 2, 3}));
  Tensor x = randn({3, 4});
  CHECK_THAT(values(ln(x)), ApproxValues(values(layer_norm(x, ln.weight, ln.bias)), 1e-6));
}

TEST_CASE("LayerNorm without bias has only a weight", "[nn][layer_norm]") {
  nn::LayerNorm ln(3, /*bias=*/false);
  CHECK(names(ln.named_parameters()) == std::vector<std::string>{"weight"});
  CHECK_FALSE(ln.bias.defined());
  Tensor x = randn({2, 3});
  CHECK_THAT(values(ln(x)), ApproxValues(values(layer_norm(x, Tensor(), Tensor())), 1e-6));
  CHECK(error_message([] { nn::LayerNorm(0); }) == "LayerNorm: size must be positive, got 0");
}

TEST_CASE("LayerNorm's parameters receive gradients", "[nn][layer_norm]") {
  // y = norm · w + b: dL/db = Σ_rows g, dL/dw = Σ_rows g · norm; with g = 1 and rows whose
  // norm is [-1, 1] (pairs [0, 2] and [5, 7]), dw = [-2, 2] and db = [2, 2]
  nn::LayerNorm ln(2, true, 0.0);
  sum(ln(tensor({{0, 2}, {5, 7}}))).backward();
  CHECK_THAT(values(ln.weight.grad()), ApproxValues({-2, 2}, 1e-5));
  CHECK_THAT(values(ln.bias.grad()), ApproxValues({2, 2}, 1e-5));
}

// ---------------------------------------------------------------- Dropout and activations

TEST_CASE("Dropout drops in train mode and is the identity in eval mode", "[nn][dropout]") {
  Generator gen(21);
  nn::Dropout drop(0.5, &gen);
  CHECK(drop.is_training());
  Tensor x = ones({50, 40});
  const std::vector<double> v = values(drop(x));
  int64_t zeros_seen = 0;
  bool two_values = true;
  for (double e : v) {
    zeros_seen += e == 0.0;
    two_values &= e == 0.0 || e == 2.0;  // kept elements are scaled by 1/(1 - 0.5)
  }
  CHECK(two_values);
  // 2,000 Bernoulli(0.5) draws: std of the count is √500 ≈ 22
  CHECK(zeros_seen > 850);
  CHECK(zeros_seen < 1150);
  drop.eval();
  CHECK(drop(x).is_same(x));
  CHECK(error_message([] { nn::Dropout(1.5); }) == "Dropout: p must be in [0, 1], got 1.5");
}

TEST_CASE("Dropout with the same seed drops the same elements", "[nn][dropout]") {
  Generator g1(3), g2(3);
  nn::Dropout a(0.3, &g1), b(0.3, &g2);
  Tensor x = randn({16, 16});
  CHECK(values(a(x)) == values(b(x)));
}

TEST_CASE("GELU, ReLU and Tanh modules apply their functions", "[nn][activation]") {
  Tensor x = tensor({-1, 0, 1});
  // relu: max(x, 0)
  CHECK_THAT(values(nn::ReLU()(x)), ApproxValues({0, 0, 1}));
  // tanh(±1) = ±0.761594
  CHECK_THAT(values(nn::Tanh()(x)), ApproxValues({-0.761594, 0, 0.761594}));
  // exact: x Φ(x); Φ(1) = 0.841345, so gelu(1) = 0.841345 and gelu(-1) = -(1 - Φ(1)) = -0.158655
  CHECK_THAT(values(nn::GELU()(x)), ApproxValues({-0.158655, 0, 0.841345}));
  // tanh form: 0.5 (1 + tanh(√(2/π) (1 + 0.044715))) = 0.841192 at x = 1
  nn::GELU approx("tanh");
  CHECK(approx.approximate == "tanh");
  CHECK_THAT(values(approx(x)), ApproxValues({-0.158808, 0, 0.841192}));
  // none of them has parameters
  CHECK(nn::GELU().named_parameters().empty());
}

// ---------------------------------------------------------------- containers

TEST_CASE("Sequential chains its modules and names them by index", "[nn][container]") {
  auto fc1 = std::make_shared<nn::Linear>(3, 4);
  auto fc2 = std::make_shared<nn::Linear>(4, 2);
  nn::Sequential seq{fc1, std::make_shared<nn::ReLU>(), fc2};
  CHECK(seq.size() == 3);
  CHECK(names(seq.named_parameters()) ==
        std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"});
  REQUIRE(seq.named_children().size() == 3);
  CHECK(seq.named_children()[1].first == "1");
  Tensor x = randn({5, 3});
  CHECK_THAT(values(seq(x)), ApproxValues(values(fc2->forward(relu(fc1->forward(x)))), 1e-6));
  // push_back appends under the next index
  seq.push_back(std::make_shared<nn::Tanh>());
  CHECK(seq.named_children().back().first == "3");
  CHECK(seq(x).shape() == Shape{5, 2});
  CHECK(error_message([&] { seq.push_back(nullptr); }) == "register_module: '4' is null");
  CHECK(seq.size() == 4);
  // an empty Sequential is the identity
  nn::Sequential empty_seq;
  CHECK(empty_seq(x).is_same(x));
}

TEST_CASE("Sequential passes train and eval down to a Dropout inside it", "[nn][container]") {
  nn::Sequential seq{std::make_shared<nn::Dropout>(0.9)};
  Tensor x = ones({100});
  seq.eval();
  CHECK(seq(x).is_same(x));
  seq.train();
  CHECK_FALSE(seq(x).is_same(x));
}

TEST_CASE("ModuleList holds modules by index", "[nn][container]") {
  nn::ModuleList list;
  auto lin = std::make_shared<nn::Linear>(2, 3);
  list.push_back(lin);
  list.push_back(std::make_shared<nn::LayerNorm>(3));
  CHECK(list.size() == 2);
  CHECK(list[0] == lin);
  CHECK(list.at<nn::Linear>(0)->in_features == 2);
  CHECK(list.at<nn::LayerNorm>(1)->eps == 1e-5);
  CHECK(names(list.named_parameters()) ==
        std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias"});
  size_t n = 0;
  for (const auto& m : list) n += m != nullptr;
  CHECK(n == 2);
  CHECK(error_message([&] { (void)list[2]; }) ==
        "ModuleList: index 2 is out of range for 2 modules");
  CHECK(error_message([&] { list.at<nn::Linear>(1); }) ==
        "ModuleList: item 1 is not of the requested type");
  CHECK(error_message([&] { list.at<nn::Linear>(7); }) ==
        "ModuleList: index 7 is out of range for 2 modules");
}

TEST_CASE("ModuleList inside a module gives names like h.0.weight", "[nn][container]") {
  struct Net : nn::Module {
    std::shared_ptr<nn::ModuleList> h;
    Net() {
      h = register_module("h", std::make_shared<nn::ModuleList>());
      h->push_back(std::make_shared<nn::LayerNorm>(2, false));
      h->push_back(std::make_shared<nn::LayerNorm>(2, false));
    }
  } net;
  CHECK(names(net.named_parameters()) == std::vector<std::string>{"h.0.weight", "h.1.weight"});
  net.eval();
  CHECK_FALSE(net.h->at<nn::LayerNorm>(1)->is_training());
}
