// bfloat16 and float16: the conversions of tensor/half.h by hand, then bit for bit against
// PyTorch's CPU tensors on every class of float32 pattern (tests/tensor/fixtures/
// half_torch.safetensors, written by bench/peer/make_half_fixture.py), and the tensor-level
// pieces: to(), printing, safetensors, and the ops' refusal to compute in them.
#include <cmath>
#include <cstring>
#include <limits>

#include "helpers.h"
#include "nn/safetensors.h"
#include "nn/safetensors_helpers.h"

using namespace attic;

namespace {

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float float_of(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

nn::SafetensorsFile fixture() {
  return nn::load_safetensors(std::string(ATTIC_SOURCE_DIR) +
                              "/tests/tensor/fixtures/half_torch.safetensors");
}

}  // namespace

TEST_CASE("bfloat16: rounding to nearest even, by hand", "[half]") {
  CHECK(float_to_bfloat16_bits(1.0f) == 0x3F80);
  // 1 + 2^-8 lies halfway between 1 and 1 + 2^-7: the tie goes to the even 1.
  CHECK(float_to_bfloat16_bits(float_of(0x3F808000)) == 0x3F80);
  // 1 + 2^-7 + 2^-8, halfway between two odd-and-even neighbours: up to the even 0x3F82.
  CHECK(float_to_bfloat16_bits(float_of(0x3F818000)) == 0x3F82);
  CHECK(float_to_bfloat16_bits(float_of(0x3F808001)) == 0x3F81);  // just above the tie
  CHECK(float_to_bfloat16_bits(-2.0f) == 0xC000);
  CHECK(float_to_bfloat16_bits(float_of(0x7F7FFFFF)) == 0x7F80);  // largest float: to inf
  CHECK(float_to_bfloat16_bits(std::numeric_limits<float>::infinity()) == 0x7F80);
  CHECK(float_to_bfloat16_bits(std::nanf("")) == 0xFFFF);
  CHECK(float_to_bfloat16_bits(float_of(0x00000001)) == 0x0000);  // smallest subnormal: 0
  CHECK(float_to_bfloat16_bits(float_of(0x00008000)) == 0x0000);  // a tie, to even 0
  CHECK(float_to_bfloat16_bits(float_of(0x00018000)) == 0x0002);  // a tie, to even 2
  // Widening is a shift, for every pattern.
  for (uint32_t h = 0; h < 65536; ++h)
    REQUIRE(bits_of(bfloat16_bits_to_float(uint16_t(h))) == h << 16);
}

TEST_CASE("float16: rounding, subnormals and range, by hand", "[half]") {
  CHECK(float_to_float16_bits(1.0f) == 0x3C00);
  CHECK(float_to_float16_bits(-2.0f) == 0xC000);
  CHECK(float_to_float16_bits(65504.0f) == 0x7BFF);              // the largest float16
  CHECK(float_to_float16_bits(65519.0f) == 0x7BFF);              // below the midpoint
  CHECK(float_to_float16_bits(65520.0f) == 0x7C00);              // the midpoint: to inf
  CHECK(float_to_float16_bits(std::ldexp(1.0f, -14)) == 0x0400);  // smallest normal
  CHECK(float_to_float16_bits(std::ldexp(1.0f, -24)) == 0x0001);  // smallest subnormal
  CHECK(float_to_float16_bits(std::ldexp(1.0f, -25)) == 0x0000);  // half of it: to even 0
  CHECK(float_to_float16_bits(std::ldexp(3.0f, -25)) == 0x0002);  // 1.5 units: to even 2
  CHECK(float_to_float16_bits(1.0f + std::ldexp(1.0f, -11)) == 0x3C00);      // a tie, to even
  CHECK(float_to_float16_bits(1.0f + std::ldexp(3.0f, -11)) == 0x3C02);      // a tie, to even
  CHECK(float_to_float16_bits(-std::numeric_limits<float>::infinity()) == 0xFC00);
  CHECK(float_to_float16_bits(float_of(0xFFC00001)) == 0xFE00);  // NaN keeps its sign
  CHECK(float16_bits_to_float(0x0001) == std::ldexp(1.0f, -24));
  CHECK(float16_bits_to_float(0x8400) == -std::ldexp(1.0f, -14));
  CHECK(float16_bits_to_float(0x7BFF) == 65504.0f);
  CHECK(std::isnan(float16_bits_to_float(0x7E00)));
  // Every finite float16 survives the round trip through float32.
  for (uint32_t h = 0; h < 65536; ++h)
    if ((h & 0x7C00) != 0x7C00) REQUIRE(float_to_float16_bits(float16_bits_to_float(uint16_t(h))) == h);
}

TEST_CASE("bfloat16 and float16 conversions equal PyTorch's bit for bit", "[half][pytorch]") {
  const nn::SafetensorsFile f = fixture();
  const Tensor x = f.tensors.at("x");
  REQUIRE(x.dtype() == kFloat32);
  const Tensor bf = f.tensors.at("bf16"), hf = f.tensors.at("f16");
  REQUIRE(bf.dtype() == kBFloat16);  // read from the file's BF16 and F16 entries
  REQUIRE(hf.dtype() == kFloat16);
  const float* xs = x.data_ptr<float>();
  const bfloat16* want_bf = bf.data_ptr<bfloat16>();
  const float16* want_hf = hf.data_ptr<float16>();
  // The scalar conversions, and Tensor::to, which runs the CPU copy kernel.
  const Tensor got_bf = x.to(kBFloat16), got_hf = x.to(kFloat16);
  int64_t bad_bf = 0, bad_hf = 0;
  for (int64_t i = 0; i < x.numel(); ++i) {
    const bool ok_bf = float_to_bfloat16_bits(xs[i]) == want_bf[i].bits &&
                       got_bf.data_ptr<bfloat16>()[i].bits == want_bf[i].bits;
    const bool ok_hf = float_to_float16_bits(xs[i]) == want_hf[i].bits &&
                       got_hf.data_ptr<float16>()[i].bits == want_hf[i].bits;
    if (!ok_bf && bad_bf++ < 5)
      UNSCOPED_INFO("bfloat16 of 0x" << std::hex << bits_of(xs[i]) << ": attic 0x"
                    << float_to_bfloat16_bits(xs[i]) << ", PyTorch 0x" << want_bf[i].bits);
    if (!ok_hf && bad_hf++ < 5)
      UNSCOPED_INFO("float16 of 0x" << std::hex << bits_of(xs[i]) << ": attic 0x"
                    << float_to_float16_bits(xs[i]) << ", PyTorch 0x" << want_hf[i].bits);
  }
  CHECK(bad_bf == 0);
  CHECK(bad_hf == 0);
  // Every float16 pattern widened, NaNs included, as PyTorch widens it.
  const Tensor up = f.tensors.at("f16_all_up");
  REQUIRE(up.numel() == 65536);
  int64_t bad_up = 0;
  for (uint32_t h = 0; h < 65536; ++h)
    bad_up += bits_of(float16_bits_to_float(uint16_t(h))) != bits_of(up.data_ptr<float>()[h]);
  CHECK(bad_up == 0);
}

TEST_CASE("bfloat16 tensors: to and back, print, save and load", "[half]") {
  const Tensor x = from_vector<float>({1.0f, -2.5f, 3.140625f, 1e-3f}, {2, 2});
  const Tensor b = x.to(kBFloat16);
  CHECK(b.dtype() == kBFloat16);
  CHECK(b.shape() == Shape{2, 2});
  CHECK(b.str() == "tensor([[ 1.0000, -2.5000],\n        [ 3.1406,  0.0010]], dtype=bfloat16)");
  // float64 and int64 reach bfloat16 through float32; views convert through their strides.
  CHECK(testing::values(b.to(kFloat32)) ==
        std::vector<double>{1.0, -2.5, 3.140625, double(bfloat16_bits_to_float(0x3A83))});
  CHECK(testing::values(x.t().to(kBFloat16).to(kFloat64))[1] == 3.140625);
  CHECK(testing::values(from_vector<int64_t>({257, -3}).to(kBFloat16)) ==
        std::vector<double>{256.0, -3.0});  // 257 needs 9 bits: the tie rounds to even 256
  CHECK(testing::values(full({3}, 0.1, kFloat16)) ==
        std::vector<double>(3, double(float16_bits_to_float(0x2E66))));
  // The factories make them, each value rounded once from its float32 draw.
  manual_seed(3);
  const Tensor r = randn({5}, kBFloat16);
  manual_seed(3);
  const Tensor r32 = randn({5});
  CHECK(r.dtype() == kBFloat16);
  CHECK(testing::values(r) == testing::values(r32.to(kBFloat16)));
  CHECK(testing::values(arange(3.0, kFloat16)) == std::vector<double>{0.0, 1.0, 2.0});
  // clone keeps the bits, NaN payloads too.
  Tensor n = empty({1}, kBFloat16);
  n.data_ptr<bfloat16>()[0].bits = 0x7FC1;
  CHECK(n.clone().data_ptr<bfloat16>()[0].bits == 0x7FC1);

  testing::safetensors::TempDir dir;
  const std::string path = dir.file("half.safetensors");
  nn::save_safetensors(path, {{"b", b}, {"h", x.to(kFloat16)}});
  const nn::SafetensorsFile f = nn::load_safetensors(path);
  REQUIRE(f.tensors.at("b").dtype() == kBFloat16);
  REQUIRE(f.tensors.at("h").dtype() == kFloat16);
  CHECK(testing::values(f.tensors.at("b")) == testing::values(b));
  CHECK(testing::values(f.tensors.at("h")) == testing::values(x.to(kFloat16)));
}

TEST_CASE("ops refuse to compute in bfloat16 and float16, naming the op", "[half]") {
  const Tensor b = ones({2, 3}).to(kBFloat16);
  const std::string tail = " tensor of shape [2, 3]; attic stores bfloat16 but computes in "
                           "float32: convert it with .to(kFloat32), or let autocast "
                           "(AutocastGuard) run the matrix products in bfloat16";
  CHECK_THROWS_WITH(b + b, "add: got a bfloat16" + tail);
  CHECK_THROWS_WITH(matmul(b, b.t()), "matmul: got a bfloat16" + tail);
  CHECK_THROWS_WITH(sum(b), "sum: got a bfloat16" + tail);
  CHECK_THROWS_WITH(exp(b), "exp: got a bfloat16" + tail);
  Tensor c = b.clone();
  CHECK_THROWS_WITH(c.mul_(2.0), "mul_: got a bfloat16" + tail);
  CHECK_THROWS_WITH(c.add_(b), "add_: got a bfloat16" + tail);
  // Moving elements is not computing: copy_, cat and fill_ take them.
  c.copy_(ones({2, 3}));
  CHECK(testing::values(cat({c, b}, 0).to(kFloat32)) == std::vector<double>(12, 1.0));
  c.fill_(0.5);
  CHECK(testing::values(c) == std::vector<double>(6, 0.5));
}
