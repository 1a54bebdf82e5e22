// nn/blocks: encoder, decoder, Perceiver IO cross-attention, Set Transformer MAB, SAB,
// ISAB, PMA. Shapes, permutation symmetries (SAB and ISAB equivariant, PMA invariant, as
// Lee et al. 2019 prove), masking, and gradcheck of
// every block in each attention mode.
#include "models/registry.h"
#include "module64.h"
#include "nn/blocks/blocks.h"

using namespace attic;
using namespace attic::testing;

namespace {

const char* const kKinds[] = {"softmax", "linear_elu", "linear_exp"};

nn::BlockOptions block(int64_t dim, const std::string& kind, int64_t mem = 0) {
  nn::BlockOptions o;
  o.dim = dim;
  o.hidden = 2 * dim;
  o.num_heads = 2;
  o.attention = models::attention_factory(kind);
  o.memory_dim = mem;
  return o;
}

// gradcheck of f with respect to the inputs and every parameter of m (float64)
bool check_block(nn::Module& m, std::vector<Tensor> inputs,
                 const std::function<Tensor(const std::vector<Tensor>&)>& f) {
  std::vector<Tensor> p = to_float64(m);
  inputs.insert(inputs.end(), p.begin(), p.end());
  return gradcheck(f, inputs);
}

}  // namespace

TEST_CASE("encoder, decoder and cross-attention blocks: shapes, causality, masked memory",
          "[nn][blocks]") {
  for (const std::string kind : kKinds) {
    INFO(kind);
    nn::EncoderBlock enc(block(8, kind));
    Tensor x = randn({2, 5, 8});
    CHECK(enc.forward(x).shape() == Shape{2, 5, 8});
    nn::DecoderBlock dec(block(8, kind, 6));
    Tensor mem = randn({2, 4, 6});
    Tensor keep = tensor({{1, 1, 1, 0}, {1, 0, 1, 1}}, kBool);
    Tensor y = dec.forward(x, mem, Tensor(), keep);
    CHECK(y.shape() == Shape{2, 5, 8});
    // causal self-attention: position 2 ignores positions 3, 4
    Tensor x2 = x.clone();
    { NoGradGuard g; x2.narrow(1, 3, 2).copy_(randn({2, 2, 8})); }
    CHECK(max_abs_diff(dec.forward(x2, mem, Tensor(), keep).narrow(1, 0, 3), y.narrow(1, 0, 3)) < 1e-5);
    // masked memory rows have no influence
    Tensor mem2 = where(logical_not(keep).unsqueeze(-1), randn({2, 4, 6}) * 5.0, mem);
    CHECK(max_abs_diff(dec.forward(x, mem2, Tensor(), keep), y) < 1e-5);
    nn::CrossAttentionBlock ca(block(8, kind, 6));
    CHECK(ca.forward(randn({2, 3, 8}), mem, keep).shape() == Shape{2, 3, 8});
  }
}

TEST_CASE("SAB and ISAB are permutation-equivariant, PMA is permutation-invariant",
          "[nn][blocks][permutation]") {
  const std::vector<int64_t> perm = {4, 2, 0, 5, 1, 3};
  for (const std::string kind : kKinds) {
    INFO(kind);
    Tensor x = randn({2, 6, 8});
    Tensor xp = permute_rows(x, perm);
    nn::SAB sab(8, 2, models::attention_factory(kind));
    CHECK(max_abs_diff(sab.forward(xp), permute_rows(sab.forward(x), perm)) < 1e-5);
    nn::ISAB isab(8, 3, 2, models::attention_factory(kind));
    CHECK(max_abs_diff(isab.forward(xp), permute_rows(isab.forward(x), perm)) < 1e-5);
    nn::PMA pma(8, 2, 2, models::attention_factory(kind));
    Tensor pooled = pma.forward(x);
    CHECK(pooled.shape() == Shape{2, 2, 8});
    CHECK(max_abs_diff(pma.forward(xp), pooled) < 1e-5);
    // tonyduan/transformer-blocks' MAB without norms is a different block, still equivariant
    nn::SAB plain(8, 2, models::attention_factory(kind), false);
    CHECK(plain.mab->sn_q == nullptr);
    CHECK(max_abs_diff(plain.forward(xp), permute_rows(plain.forward(x), perm)) < 1e-5);
  }
}

TEST_CASE("PMA: padded set elements have no influence", "[nn][blocks][mask]") {
  for (const std::string kind : kKinds) {
    nn::PMA pma(4, 1, 2, models::attention_factory(kind));
    Tensor x = randn({2, 5, 4});
    Tensor keep = tensor({{1, 1, 1, 0, 0}, {1, 1, 1, 1, 1}}, kBool);
    Tensor x2 = where(logical_not(keep).unsqueeze(-1), randn({2, 5, 4}) * 5.0, x);
    CHECK(max_abs_diff(pma.forward(x2, keep), pma.forward(x, keep)) < 1e-5);
    // and a set padded with masked rows pools like the short set
    CHECK(max_abs_diff(pma.forward(x.narrow(0, 0, 1).narrow(1, 0, 3)),
                       pma.forward(x, keep).narrow(0, 0, 1)) < 1e-5);
  }
}

TEST_CASE("every block passes gradcheck in each attention mode", "[nn][blocks][gradcheck]") {
  for (const std::string kind : kKinds) {
    INFO(kind);
    const Tensor keep = tensor({{1, 1, 0}}, kBool);
    nn::EncoderBlock enc(block(4, kind));
    CHECK(check_block(enc, {leaf64({1, 3, 4})},
                      [&](const std::vector<Tensor>& v) { return enc.forward(v[0], keep); }));
    nn::DecoderBlock dec(block(4, kind, 2));
    CHECK(check_block(dec, {leaf64({1, 3, 4}), leaf64({1, 3, 2})},
                      [&](const std::vector<Tensor>& v) { return dec.forward(v[0], v[1], Tensor(), keep); }));
    nn::CrossAttentionBlock ca(block(4, kind, 2));
    CHECK(check_block(ca, {leaf64({1, 2, 4}), leaf64({1, 3, 2})},
                      [&](const std::vector<Tensor>& v) { return ca.forward(v[0], v[1], keep); }));
    nn::MAB mab(4, 2, 2, models::attention_factory(kind));
    CHECK(check_block(mab, {leaf64({1, 2, 4}), leaf64({1, 3, 2})},
                      [&](const std::vector<Tensor>& v) { return mab.forward(v[0], v[1], keep); }));
    nn::SAB sab(4, 2, models::attention_factory(kind));
    CHECK(check_block(sab, {leaf64({1, 3, 4})},
                      [&](const std::vector<Tensor>& v) { return sab.forward(v[0]); }));
    nn::ISAB isab(4, 2, 2, models::attention_factory(kind));
    CHECK(check_block(isab, {leaf64({1, 3, 4})},
                      [&](const std::vector<Tensor>& v) { return isab.forward(v[0], keep); }));
    nn::PMA pma(4, 1, 2, models::attention_factory(kind));
    CHECK(check_block(pma, {leaf64({1, 3, 4})},
                      [&](const std::vector<Tensor>& v) { return pma.forward(v[0], keep); }));
  }
}
