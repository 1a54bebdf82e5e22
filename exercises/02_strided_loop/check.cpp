// Chapter 2 exercise check: binary() from strided_loop.cpp against attic's own ops on inputs
// with every kind of strides: contiguous, transposed, sliced with a step, broadcast, expanded
// (stride 0), with an offset, 0-d and empty. add and mul are one IEEE operation per element in
// both, so they must agree exactly; exp(x) * y goes through attic's exp, within 1e-5. Then
// strided_binary is swapped in for the CPU backend's binary kernel (tensor/swap_in.h): attic's
// own add, sub, mul and div, and a GPT's training steps, run on it.
#include "tests/catch.h"

#include <cmath>
#include <stdexcept>

#include <memory>

#include "data/data.h"
#include "models/gpt.h"
#include "ops/ops.h"
#include "optim/optim.h"
#include "strided_loop.h"
#include "tensor/swap_in.h"

using namespace attic;

namespace {

float add_f(float x, float y) { return x + y; }
float mul_f(float x, float y) { return x * y; }
float exp_mul_f(float x, float y) { return std::exp(x) * y; }

struct Case {
  const char* what;
  Tensor a, b;
};

// Pairs of inputs whose strides are anything but plain rows.
std::vector<Case> cases() {
  manual_seed(2);
  const Tensor m = randn({3, 4});
  const Tensor wide = randn({4, 8});
  const Tensor cube = randn({2, 3, 4, 5});
  return {
      {"[3, 4] + [3, 4], both contiguous", m, randn({3, 4})},
      {"transposed: [4, 3] (strides [1, 4]) and a contiguous [4, 3]", m.t(), randn({4, 3})},
      {"both transposed", m.t(), randn({3, 4}).t()},
      {"sliced: every second column of [4, 8], offset 1", wide.slice(1, 1, 8, 2), randn({4, 4})},
      {"narrowed rows and a transpose", wide.narrow(0, 1, 3).narrow(1, 2, 4), m.t().t()},
      {"broadcast [3, 4] and [4]", m, randn({4})},
      {"broadcast [3, 4] and [3, 1]", m, randn({3, 1})},
      {"broadcast [4, 1, 5] and [3, 1]: both grow", randn({4, 1, 5}), randn({3, 1})},
      {"expanded [2, 3, 4] (stride 0) and a transposed [3, 4]",
       randn({3, 4}).unsqueeze(0).expand({2, 3, 4}), m.t().contiguous().t()},
      {"permuted 4-d [5, 4, 2, 3] and a column [5, 1, 1, 1]", cube.permute({3, 2, 0, 1}),
       randn({5, 1, 1, 1})},
      {"a selected column (stride 4) and a row", m.select(1, 2).unsqueeze(1), randn({1, 6})},
      {"0-d and [2, 3]", scalar_tensor(1.5), randn({2, 3})},
      {"0-d and 0-d", scalar_tensor(-2.0), scalar_tensor(0.25)},
      {"empty [0, 3] and [3]", zeros({0, 3}), randn({3})},
  };
}

}  // namespace

TEST_CASE("exercise 02: broadcast_shape", "[exercise02]") {
  CHECK(exercise::broadcast_shape({2, 3}, {2, 3}) == Shape{2, 3});
  CHECK(exercise::broadcast_shape({2, 3}, {3}) == Shape{2, 3});
  CHECK(exercise::broadcast_shape({2, 1}, {3}) == Shape{2, 3});
  CHECK(exercise::broadcast_shape({4, 1, 5}, {3, 1}) == Shape{4, 3, 5});
  CHECK(exercise::broadcast_shape({}, {2, 2}) == Shape{2, 2});
  CHECK(exercise::broadcast_shape({0, 3}, {1}) == Shape{0, 3});
  CHECK_THROWS_AS(exercise::broadcast_shape({2, 3}, {4, 3}), std::invalid_argument);
  CHECK_THROWS_AS(exercise::broadcast_shape({3}, {4}), std::invalid_argument);
}

TEST_CASE("exercise 02: broadcast_strides", "[exercise02]") {
  const Tensor m = zeros({3, 4});  // strides [4, 1]
  CHECK(exercise::broadcast_strides(m, {3, 4}) == std::vector<int64_t>{4, 1});
  CHECK(exercise::broadcast_strides(m, {2, 3, 4}) == std::vector<int64_t>{0, 4, 1});
  CHECK(exercise::broadcast_strides(m.t(), {4, 3}) == std::vector<int64_t>{1, 4});
  CHECK(exercise::broadcast_strides(zeros({3, 1}), {2, 3, 4}) == std::vector<int64_t>{0, 1, 0});
  CHECK(exercise::broadcast_strides(scalar_tensor(1.0), {2, 2}) == std::vector<int64_t>{0, 0});
}

TEST_CASE("exercise 02: binary(a, b, +) equals attic's add exactly", "[exercise02]") {
  for (const Case& c : cases()) {
    INFO(c.what);
    const Tensor mine = exercise::binary(c.a, c.b, add_f);
    const Tensor ref = add(c.a, c.b);
    REQUIRE(mine.shape() == ref.shape());
    CHECK(mine.to_vector<float>() == ref.to_vector<float>());
  }
}

TEST_CASE("exercise 02: binary(a, b, *) equals attic's mul exactly", "[exercise02]") {
  for (const Case& c : cases()) {
    INFO(c.what);
    const Tensor mine = exercise::binary(c.a, c.b, mul_f);
    const Tensor ref = mul(c.a, c.b);
    REQUIRE(mine.shape() == ref.shape());
    CHECK(mine.to_vector<float>() == ref.to_vector<float>());
  }
}

TEST_CASE("exercise 02: binary(a, b, exp(x) * y) is within 1e-5 of attic's exp(a) * b",
          "[exercise02]") {
  for (const Case& c : cases()) {
    INFO(c.what);
    const Tensor mine = exercise::binary(c.a, c.b, exp_mul_f);
    const Tensor ref = mul(exp(c.a), c.b);
    REQUIRE(mine.shape() == ref.shape());
    const std::vector<float> x = mine.to_vector<float>(), y = ref.to_vector<float>();
    for (size_t i = 0; i < x.size(); ++i) CHECK(x[i] == Approx(y[i]).epsilon(1e-5).margin(1e-6));
  }
}

TEST_CASE("exercise 02: the output is written where its strides say", "[exercise02]") {
  // Writing into a transposed output: out [4, 3] with strides [1, 4].
  manual_seed(3);
  const Tensor a = randn({4, 3}), b = randn({3});
  Tensor out_storage = zeros({3, 4});
  const Tensor out = out_storage.t();
  KTensor ko{out.raw_data(), kFloat32, out.shape(), out.strides()};
  KTensor ka{a.raw_data(), kFloat32, {4, 3}, a.strides()};
  KTensor kb{b.raw_data(), kFloat32, {4, 3}, exercise::broadcast_strides(b, {4, 3})};
  exercise::strided_binary(ko, ka, kb, add_f);
  CHECK(out.to_vector<float>() == add(a, b).to_vector<float>());
}

namespace {

float sub_f(float x, float y) { return x - y; }
float div_f(float x, float y) { return x / y; }

// The CPU backend's binary kernel, for float32 add, sub, mul and div: strided_binary with the
// operation as f. Every other op and dtype goes back to the backend (false).
int64_t my_calls = 0;
bool my_binary(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  if (out.dtype != kFloat32 || a.dtype != kFloat32) return false;
  float (*f)(float, float) = nullptr;
  switch (op) {
    case BinaryOp::Add: f = add_f; break;
    case BinaryOp::Sub: f = sub_f; break;
    case BinaryOp::Mul: f = mul_f; break;
    case BinaryOp::Div: f = div_f; break;
    default: return false;
  }
  ++my_calls;
  exercise::strided_binary(out, a, b, f);
  return true;
}

}  // namespace

TEST_CASE("exercise 02: swapped in, strided_binary serves attic's add, sub, mul and div",
          "[exercise02]") {
  for (const Case& c : cases()) {
    INFO(c.what);
    const std::vector<Tensor> attics{add(c.a, c.b), sub(c.a, c.b), mul(c.a, c.b), div(c.a, c.b)};
    std::vector<Tensor> mine;
    my_calls = 0;
    {
      BinarySwap swap(my_binary);
      mine = {add(c.a, c.b), sub(c.a, c.b), mul(c.a, c.b), div(c.a, c.b)};
    }
    CHECK(my_calls == 4);
    for (size_t i = 0; i < mine.size(); ++i) {
      REQUIRE(mine[i].shape() == attics[i].shape());
      // One IEEE operation per element either way: equal to the bit (NaN where both are).
      const std::vector<float> x = mine[i].to_vector<float>(), y = attics[i].to_vector<float>();
      for (size_t j = 0; j < x.size(); ++j) CHECK((x[j] == y[j] || (x[j] != x[j] && y[j] != y[j])));
    }
  }
}

TEST_CASE("exercise 02: swapped in, strided_binary runs a GPT's training steps",
          "[exercise02]") {
  const TextDataset ds = TextDataset::from_file(default_dataset_path());
  // A GPT of 2 blocks, width 32: forward, backward and AdamW, 10 steps, once per kernel.
  auto train = [&](bool mine) {
    manual_seed(9);
    models::GPTConfig cfg;
    cfg.block_size = 16;
    cfg.vocab_size = ds.vocab_size();
    cfg.n_layer = 2;
    cfg.n_head = 4;
    cfg.n_embd = 32;
    auto model = std::make_unique<models::GPT>(cfg);
    optim::AdamW opt = model->configure_optimizers(0.1, 1e-2, {0.9, 0.99});
    Generator gen(10);
    std::vector<double> losses;
    BinarySwap swap(mine ? my_binary : nullptr);
    for (int step = 0; step < 10; ++step) {
      const Batch b = ds.get_batch(Split::Train, 4, 16, gen);
      Tensor loss = model->forward(b.x, b.y).loss;
      loss.backward();
      opt.step();
      opt.zero_grad();
      losses.push_back(loss.item<double>());
    }
    return losses;
  };
  const std::vector<double> attics = train(false);
  my_calls = 0;
  const std::vector<double> mine = train(true);
  INFO("the binary ops of 10 steps that went through strided_binary: " << my_calls);
  CHECK(my_calls > 100);
  for (size_t i = 0; i < mine.size(); ++i) {
    INFO("step " << i);
    CHECK(mine[i] == Approx(attics[i]).margin(1e-5));
  }
}
