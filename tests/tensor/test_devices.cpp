// A representative set of op tests, run on every device this machine has (tests/devices.h):
// the CPU always, and the GPU when attic was built with CUDA and one is present. Values are
// worked out by hand; each backward is checked against its hand-derived gradient.
#include "devices.h"
#include "helpers.h"

using namespace attic;
using namespace attic::testing;

namespace {

// t on device d as a leaf that requires grad.
Tensor leaf_on(const Tensor& t, Device d) { return t.to(d).detach().requires_grad_(); }

}  // namespace

TEST_CASE("on every device: a broadcast add and mul, and their backward", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor a = leaf_on(tensor({{1, 2, 3}, {4, 5, 6}}), d);
    Tensor b = leaf_on(tensor({10, 20, 30}), d);
    Tensor y = (a + b) * a;  // (a + b) a: row 0 = 11, 44, 99; row 1 = 56, 125, 216
    CHECK(y.device() == d);
    CHECK_THAT(values(y), ApproxValues({11, 44, 99, 56, 125, 216}));
    sum(y).backward();
    // dy/da = 2a + b = 12, 24, 36 / 18, 30, 42;  dy/db = Σ_rows a = 5, 7, 9
    CHECK_THAT(values(a.grad()), ApproxValues({12, 24, 36, 18, 30, 42}));
    CHECK_THAT(values(b.grad()), ApproxValues({5, 7, 9}));
    CHECK(a.grad().device() == d);
  }
}

TEST_CASE("on every device: matmul with a transposed operand, and its backward", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor a = leaf_on(tensor({{1, 2}, {3, 4}}), d);
    Tensor b = leaf_on(tensor({{5, 6}, {7, 8}}), d);
    Tensor y = matmul(a, b.t());  // a bᵀ = [[1·5+2·6, 1·7+2·8], [3·5+4·6, 3·7+4·8]]
    CHECK_THAT(values(y), ApproxValues({17, 23, 39, 53}));
    sum(y).backward();
    // d/da = 1 b (ones [2, 2] @ b) = column sums of b per row: [12, 14] twice
    // d/db = 1ᵀ a: each row of b gets the column sums of a: [4, 6] twice
    CHECK_THAT(values(a.grad()), ApproxValues({12, 14, 12, 14}));
    CHECK_THAT(values(b.grad()), ApproxValues({4, 6, 4, 6}));
  }
}

TEST_CASE("on every device: sum, mean, max with indices, cumsum", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor x = tensor({{1, 5, 3}, {4, 2, 6}}).to(d);
    CHECK_THAT(values(sum(x, {0})), ApproxValues({5, 7, 9}));
    CHECK_THAT(values(mean(x, {1})), ApproxValues({3, 4}));  // 9/3, 12/3
    CHECK(sum(x).item<double>() == 21);
    ValuesIndices m = max(x, 1);
    CHECK_THAT(values(m.values), ApproxValues({5, 6}));
    CHECK(m.indices.to_vector<int64_t>() == std::vector<int64_t>{1, 2});
    CHECK_THAT(values(cumsum(x, 1)), ApproxValues({1, 6, 9, 4, 6, 12}));
  }
}

TEST_CASE("on every device: softmax and log_softmax of a row", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor x = tensor({{0.0, std::log(3.0)}}).to(d);  // e^x = 1, 3: softmax = 1/4, 3/4
    CHECK_THAT(values(softmax(x, -1)), ApproxValues({0.25, 0.75}));
    CHECK_THAT(values(log_softmax(x, -1)), ApproxValues({std::log(0.25), std::log(0.75)}));
  }
}

TEST_CASE("on every device: layer_norm of a row and its backward", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    // x = 1, 3: mean 2, var 1, rstd = 1/√(1 + eps) ≈ 1; norm = -1, 1; out = norm w + b
    Tensor x = leaf_on(tensor({{1, 3}}, kFloat64), d);
    Tensor w = leaf_on(tensor({2, 3}, kFloat64), d);
    Tensor b = leaf_on(tensor({0.5, -0.5}, kFloat64), d);
    Tensor y = layer_norm(x, w, b, 0.0);
    CHECK_THAT(values(y), ApproxValues({-1.5, 2.5}));  // -1·2 + 0.5, 1·3 - 0.5
    sum(y).backward();
    // db = 1, 1; dw = norm = -1, 1; dx = rstd (dn - mean(dn) - norm mean(dn norm)) with
    // dn = w = 2, 3: mean(dn) = 2.5, mean(dn norm) = (-2 + 3)/2 = 0.5 -> dx = 0, 0
    CHECK_THAT(values(b.grad()), ApproxValues({1, 1}));
    CHECK_THAT(values(w.grad()), ApproxValues({-1, 1}));
    CHECK_THAT(values(x.grad()), ApproxValues({0, 0}));
  }
}

TEST_CASE("on every device: cross_entropy, embedding and their backward", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    // logits 0, log 3 for target 1: loss = -log(3/4)
    Tensor logits = leaf_on(tensor({{0.0, std::log(3.0)}}, kFloat64), d);
    Tensor loss = cross_entropy(logits, from_vector<int64_t>({1}).to(d));
    CHECK(loss.item<double>() == Approx(-std::log(0.75)));
    loss.backward();
    CHECK_THAT(values(logits.grad()), ApproxValues({0.25, -0.25}));  // softmax - onehot
    // rows 2, 0, 2 of a [3, 2] table; the gradient adds up on the repeated row
    Tensor table = leaf_on(tensor({{1, 2}, {3, 4}, {5, 6}}), d);
    Tensor e = embedding(table, from_vector<int64_t>({2, 0, 2}).to(d));
    CHECK_THAT(values(e), ApproxValues({5, 6, 1, 2, 5, 6}));
    sum(e).backward();
    CHECK_THAT(values(table.grad()), ApproxValues({1, 1, 0, 0, 2, 2}));
  }
}

TEST_CASE("on every device: gather, scatter_add, tril, where", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor x = tensor({{1, 2}, {3, 4}}).to(d);
    Tensor idx = from_vector<int64_t>({1, 0, 0, 0}, {2, 2}).to(d);
    // dim 1: out[i][j] = x[i][idx[i][j]] = [[2, 1], [3, 3]]
    CHECK_THAT(values(gather(x, 1, idx)), ApproxValues({2, 1, 3, 3}));
    // out[i][idx[i][j]] += 1: row 0 gets 1 at 1 and 0; row 1 gets 2 at 0
    CHECK_THAT(values(scatter_add(zeros({2, 2}).to(d), 1, idx, ones({2, 2}).to(d))),
               ApproxValues({1, 1, 2, 0}));
    CHECK_THAT(values(tril(x)), ApproxValues({1, 0, 3, 4}));
    CHECK_THAT(values(where(gt(x, 2.0), x, -x)), ApproxValues({-1, -2, 3, 4}));
  }
}

TEST_CASE("on every device: bool masks from comparisons, logic, where, tril, sums", "[devices][bool]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor x = tensor({{1, -2, 3}, {-4, 5, 6}}).to(d);
    Tensor pos = gt(x, 0.0);
    CHECK(pos.dtype() == kBool);
    CHECK(pos.device() == d);
    CHECK(pos.to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>{true, false, true, false, true, true});
    CHECK(eq(x, x.t().contiguous().t()).to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>(6, true));
    CHECK(logical_and(pos, lt(x, 4.0)).to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>{true, false, true, false, false, false});
    CHECK((pos + logical_not(pos)).to(Device::CPU).to_vector<bool>() == std::vector<bool>(6, true));
    CHECK(values(x * pos) == std::vector<double>{1, 0, 3, 0, 5, 6});
    CHECK(values(masked_fill(x, logical_not(pos), 0.5)) ==
          std::vector<double>{1, 0.5, 3, 0.5, 5, 6});
    CHECK(values(where(pos, x, zeros({}).to(d))) == std::vector<double>{1, 0, 3, 0, 5, 6});
    CHECK(tril(pos).to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>{true, false, false, false, true, false});
    CHECK(sum(pos).item<int64_t>() == 4);
    CHECK(sum(pos, {0}).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 2});
    CHECK(cumsum(pos, 1).to_vector<int64_t>() == std::vector<int64_t>{1, 1, 2, 0, 1, 2});
    CHECK(max(pos, 1).values.to(Device::CPU).to_vector<bool>() == std::vector<bool>{true, true});
    CHECK(min(pos).item<bool>() == false);
    Tensor idx = from_vector<int64_t>({1, 0, 1}).to(d);
    CHECK(index_select(pos, 0, idx).to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>{false, true, true, true, false, true, false, true, true});
    CHECK(index_add(zeros({2, 3}, kBool).to(d), 0, idx, pos.narrow(0, 0, 1).expand({3, 3}))
              .to(Device::CPU).to_vector<bool>() ==
          std::vector<bool>{true, false, true, true, false, true});
    CHECK(values(pos.to(kFloat32)) == std::vector<double>{1, 0, 1, 0, 1, 1});
  }
}

TEST_CASE("on every device: to() round trips keep values and dtypes", "[devices]") {
  for (Device d : available_devices()) {
    INFO(device_name(d));
    Tensor i = from_vector<int64_t>({(int64_t(1) << 60) + 1, -3}).to(d);
    CHECK(i.device() == d);
    CHECK(i.to(Device::CPU).to_vector<int64_t>() ==
          std::vector<int64_t>{(int64_t(1) << 60) + 1, -3});  // exact beyond 2^53
    Tensor f = tensor({{1.5, -2}, {3, 4}}).to(d).t().contiguous().to(kFloat64);
    CHECK(f.dtype() == kFloat64);
    CHECK_THAT(values(f), ApproxValues({1.5, 3, -2, 4}));
  }
}

TEST_CASE("tensors on different devices are refused with both named", "[devices]") {
  if (!cuda_available()) {
    // the CUDA side cannot even be made; the message says why
    const std::string msg = error_message([] { ones({2}).to(Device::CUDA); });
    CHECK((msg == "attic was built without CUDA" ||
           msg.rfind("cuda: no CUDA device is available (", 0) == 0));
    return;
  }
  Tensor a = ones({2}), b = ones({2}).to(Device::CUDA);
  CHECK(error_message([&] { add(a, b); }) == "add: tensors on different devices (cpu and cuda)");
  CHECK(error_message([&] { b.data_ptr<float>(); }) ==
        "data_ptr: tensor is on cuda; move it with .to(Device::CPU) first");
}
