// The Linformer's structure (models/linformer/): parameter sharing counted, per-layer k, the
// convolution's length, shapes, Padder, post-norm at init, k = n with E = F = I equal to
// full attention, the leak of the package's causal mask and the prefix mode that closes it,
// gradcheck of a head and of LinformerAttention in every causal mode, and bad input.
#include "helpers.h"
#include "models/linformer.h"
#include "nn/module64.h"

using namespace attic;
using namespace attic::models::linformer;
using attic::testing::error_message;

namespace {

LinformerOptions small(Sharing sharing, int64_t depth = 2, int64_t nhead = 2) {
  LinformerOptions o;
  o.input_size = 8;
  o.channels = 2 * nhead;
  o.dim_k = 4;
  o.dim_ff = 8;
  o.nhead = nhead;
  o.depth = depth;
  o.dropout = 0;
  o.dropout_ff = 0;
  o.parameter_sharing = sharing;
  return o;
}

double max_diff(const Tensor& a, const Tensor& b) { return max(abs(a - b)).item<double>(); }

}  // namespace

TEST_CASE("sharing: 288, 24, 12 and 1 distinct E/F for 12 layers of 12 heads", "[linformer]") {
  const auto [sharing, want] = GENERATE(table<Sharing, int64_t>(
      {{Sharing::None, 288}, {Sharing::Headwise, 24}, {Sharing::KV, 12}, {Sharing::Layerwise, 1}}));
  Linformer m(small(sharing, 12, 12));
  CHECK(m.distinct_projections() == want);
  if (sharing == Sharing::Layerwise) {
    // exactly one projection module, under every head's E and F
    for (const auto& a : m.attentions())
      for (const auto& h : *a->heads) {
        auto head = std::dynamic_pointer_cast<LinearAttentionHead>(h);
        CHECK(head->E == m.shared);
        CHECK(head->F == m.shared);
      }
  }
}

TEST_CASE("per-layer k is max(1, k − ℓ·r), except under layerwise sharing", "[linformer]") {
  LinformerOptions o = small(Sharing::None, 5);
  o.k_reduce_by_layer = 2;
  Linformer m(o);
  std::vector<int64_t> ks;
  for (const auto& a : m.attentions()) ks.push_back(a->options.dim_k);
  CHECK(ks == std::vector<int64_t>{4, 2, 1, 1, 1});
  o.parameter_sharing = Sharing::Layerwise;
  CHECK(o.k_at(3) == 4);
}

TEST_CASE("a convolution E has ⌊n/k⌋-wide windows and k slots", "[linformer]") {
  Projection conv(12, 4, Method::Convolution, 3);
  CHECK(conv.window == 3);
  CHECK(conv.weight.shape() == Shape{3, 3, 3});
  CHECK(conv.compress(randn({2, 12, 3})).shape() == Shape{2, 4, 3});
  // compress equals the slots-over-positions form M x̃ + b that the prefix mode sums
  Tensor x = randn({2, 12, 3});
  Tensor via_matrix = matmul(conv.matrix(12), conv.keyed(x)) + conv.bias_rows();
  CHECK(max_diff(via_matrix, conv.compress(x)) < 1e-5);
  CHECK(error_message([] { Projection(10, 4, Method::Convolution, 3); }) ==
        "linformer Projection: the convolution method needs k to divide n, got n 10 and k 4 (its output "
        "would have 5 slots)");
}

TEST_CASE("shapes: LinformerLM, return_emb, the stack, P̄", "[linformer]") {
  LinformerLMOptions o;
  o.num_tokens = 7;
  o.body = small(Sharing::Headwise);
  LinformerLM lm(o);
  Tensor idx = randint(0, 7, {3, 8});
  CHECK(lm.forward(idx).shape() == Shape{3, 8, 7});
  o.return_emb = true;
  o.emb_dim = 6;
  LinformerLM emb(o);
  CHECK(emb.forward(idx).shape() == Shape{3, 8, 6});
  LayerArgs args;
  args.visualize = true;
  lm.forward(idx, args);
  Tensor P = lm.stack().attentions()[0]->heads->at<LinearAttentionHead>(0)->P_bar;
  CHECK(P.shape() == Shape{3, 8, 4});
  CHECK(max_diff(sum(P, {-1}), ones({3, 8})) < 1e-6);
}

TEST_CASE("Padder equals running on the zero-padded input and slicing, its padding masked or not", "[linformer]") {
  LinformerLMOptions o;
  o.num_tokens = 7;
  o.body = small(Sharing::KV);
  o.dropout_tokens = 0;
  auto lm = std::make_shared<LinformerLM>(o);
  Tensor idx = randint(1, 7, {2, 5});
  Tensor padded = cat({idx, zeros({2, 3}, kInt64)}, 1);
  Padder package(lm, /*pad_mask=*/false);
  CHECK(max_diff(package.forward(idx), lm->forward(padded).narrow(1, 0, 5)) == 0.0);
  CHECK(package.forward(idx).shape() == Shape{2, 5, 7});
  // attic's default: the padded keys and values are zero, whatever tokens pad them
  Padder masked(lm);
  LayerArgs args;
  args.input_mask = lt(arange(8.0), 5.0).view({1, 8}).expand({2, 8}).contiguous();
  CHECK(max_diff(masked.forward(idx), lm->forward(padded, args).narrow(1, 0, 5)) == 0.0);
  Tensor other = cat({idx, full({2, 3}, 4.0, kInt64)}, 1);
  CHECK(max_diff(masked.forward(idx), lm->forward(other, args).narrow(1, 0, 5)) < 1e-6);
  CHECK(max_diff(package.forward(idx), lm->forward(other).narrow(1, 0, 5)) > 1e-4);
}

TEST_CASE("post-norm: every sublayer's output has mean 0 and variance 1 per token at init", "[linformer]") {
  Linformer m(small(Sharing::Headwise, 3));
  Tensor h = randn({2, 8, 4}) * 3.0 + 1.0;
  for (const auto& layer : *m.seq) {
    h = std::dynamic_pointer_cast<Residual>(layer)->forward(h);
    CHECK(max(abs(mean(h, {-1}))).item<double>() < 1e-5);
    CHECK(max(abs(var(h, {-1}, 0) - 1.0)).item<double>() < 1e-3);  // LayerNorm's eps 1e-5
  }
}

TEST_CASE("k = n with E = F = I equals full attention, with and without the causal mask", "[linformer]") {
  const Causal causal = GENERATE(Causal::None, Causal::Leaky, Causal::Prefix);
  INFO(to_string(causal));
  LinformerAttentionOptions o;
  o.input_size = 6;
  o.dim = 3;
  o.channels = 6;
  o.dim_k = 6;
  o.nhead = 2;
  o.causal = causal;
  o.parameter_sharing = Sharing::Headwise;
  LinformerAttention low(o);
  o.full_attention = true;
  LinformerAttention full(o);
  full.load_state_dict(low.state_dict());  // the same to_q, to_k, to_v and w_o
  {
    NoGradGuard g;
    std::vector<float> I(36, 0.0f);
    for (int i = 0; i < 6; ++i) I[size_t(i * 7)] = 1.0f;
    for (const Projection* p : low.projections()) {
      const_cast<Projection*>(p)->weight.copy_(from_vector(I, {6, 6}));
      const_cast<Projection*>(p)->bias.zero_();
    }
  }
  Tensor x = randn({2, 6, 6});
  CHECK(max_diff(low.forward(x, LayerArgs{}), full.forward(x, LayerArgs{})) < 1e-5);
}

TEST_CASE("causality: the package's compressed mask leaks the future, prefix does not", "[linformer]") {
  const Causal causal = GENERATE(Causal::Leaky, Causal::Prefix);
  const Method method = GENERATE(Method::Learnable, Method::Convolution, Method::NoParams);
  INFO(to_string(causal) << " " << to_string(method));
  LinformerLMOptions o;
  o.num_tokens = 7;
  o.body = small(Sharing::Headwise);
  o.body.causal = causal;
  o.body.method = method;
  o.dropout_tokens = 0;
  LinformerLM lm(o);
  Tensor idx = randint(0, 7, {1, 8});
  std::vector<int64_t> ids = idx.to_vector<int64_t>();
  ids[6] = (ids[6] + 1) % 7;
  ids[7] = (ids[7] + 3) % 7;
  Tensor changed = from_vector(ids, {1, 8});
  // logits at positions 0..5 against a change at positions 6 and 7
  const double moved = max_diff(lm.forward(idx).narrow(1, 0, 6), lm.forward(changed).narrow(1, 0, 6));
  if (causal == Causal::Leaky) CHECK(moved > 1e-4);  // the leak: earlier outputs see later tokens
  else CHECK(moved == 0.0);
}

TEST_CASE("gradcheck: a head and LinformerAttention in every causal mode and method", "[linformer][gradcheck]") {
  const Causal causal = GENERATE(Causal::None, Causal::Leaky, Causal::Prefix);
  const Method method = GENERATE(Method::Learnable, Method::Convolution, Method::NoParams);
  INFO(to_string(causal) << " " << to_string(method));
  manual_seed(5);
  LinformerAttentionOptions o;
  o.input_size = 6;
  o.dim = 2;
  o.channels = 4;
  o.dim_k = 3;
  o.nhead = 2;
  o.causal = causal;
  o.method = method;
  o.parameter_sharing = Sharing::KV;
  LinformerAttention attn(o);
  std::vector<Tensor> params = testing::to_float64(attn);
  Tensor x = randn({2, 5, 4}, kFloat64).requires_grad_(true);  // m = 5 < n = 6
  std::vector<Tensor> leaves{x};
  leaves.insert(leaves.end(), params.begin(), params.end());
  CHECK(testing::gradcheck([&](const std::vector<Tensor>&) { return attn.forward(x, LayerArgs{}); }, leaves));
  auto head = attn.heads->at<LinearAttentionHead>(0);
  Tensor q = randn({1, 6, 2}, kFloat64).requires_grad_(true), k = randn({1, 6, 2}, kFloat64).requires_grad_(true),
         v = randn({1, 6, 2}, kFloat64).requires_grad_(true);
  CHECK(testing::gradcheck([&](const std::vector<Tensor>& in) { return head->forward(in[0], in[1], in[2]); },
                           {q, k, v}));
}

TEST_CASE("all heads at once equal the package's loop over heads, forward and gradients", "[linformer]") {
  // Heads that share E and F go through one attention call (LinformerAttention::all_heads);
  // batch_heads = false keeps the loop. Learnable and no_params E, headwise, kv and
  // layerwise sharing, no mask and the package's leaky one, m < n, and decoder mode.
  const Causal causal = GENERATE(Causal::None, Causal::Leaky);
  const Method method = GENERATE(Method::Learnable, Method::NoParams);
  const Sharing sharing = GENERATE(Sharing::Headwise, Sharing::KV, Sharing::Layerwise);
  const bool decoder = GENERATE(false, true);
  INFO(to_string(causal) << " " << to_string(method) << " " << to_string(sharing) << (decoder ? " decoder" : ""));
  manual_seed(11);
  LinformerAttentionOptions o;
  o.input_size = 40;
  o.dim = 4;
  o.channels = 12;
  o.dim_k = 8;
  o.nhead = 3;
  o.causal = causal;
  o.method = method;
  o.parameter_sharing = sharing;
  o.decoder_mode = decoder;
  auto projection = [&] { return std::make_shared<Projection>(o.input_size, o.dim_k, method, o.dim); };
  LinformerAttention batched(o, projection());
  o.batch_heads = false;
  LinformerAttention looped(o, projection());
  looped.load_state_dict(batched.state_dict());
  Tensor x = randn({2, 33, 12}).requires_grad_(true);
  LayerArgs args;
  if (decoder) args.embeddings = randn({2, 33, 12}).requires_grad_(true);
  Tensor y1 = batched.forward(x, args), y2 = looped.forward(x, args);
  CHECK(max_diff(y1, y2) < 1e-5);
  Tensor w = randn(y1.shape());
  sum(y1 * w).backward();
  const Tensor gx = x.grad(), ge = decoder ? args.embeddings.grad() : Tensor();
  x.set_grad({});
  if (decoder) args.embeddings.set_grad({});
  sum(y2 * w).backward();
  CHECK(max_diff(gx, x.grad()) < 1e-5);
  if (decoder) CHECK(max_diff(ge, args.embeddings.grad()) < 1e-5);
  const auto p1 = batched.named_parameters(), p2 = looped.named_parameters();
  REQUIRE(p1.size() == p2.size());
  for (size_t i = 0; i < p1.size(); ++i) {
    INFO(p1[i].first);
    CHECK(max_diff(p1[i].second.grad(), p2[i].second.grad()) < 1e-4);
  }
}

TEST_CASE("bad input is a clear attic::Error", "[linformer][errors]") {
  Linformer m(small(Sharing::Headwise));
  CHECK(error_message([&] { m.forward(randn({1, 9, 4})); }) ==
        "Linformer: expected x [B, 8, 4] (input_size positions exactly; Padder pads a shorter input), got [1, 9, 4]");
  LinformerOptions o = small(Sharing::None);
  o.dim_k = 9;
  CHECK(error_message([&] { Linformer bad(o); }) ==
        "Linformer: dim_k 9 is larger than input_size 8; k slots summarize n positions, k <= n");
  o = small(Sharing::None);
  o.channels = 5;
  CHECK(error_message([&] { Linformer bad(o); }) == "Linformer: channels 5 is not divisible by nhead 2 (or give dim_d)");
  o = small(Sharing::None);
  o.method = Method::Convolution;
  o.dim_k = 3;
  CHECK(error_message([&] { Linformer bad(o); }) ==
        "Linformer: the convolution method needs k to divide n, but layer 0 has k 3 and n 8 (its output would "
        "have 4 slots, not k)");
  LinformerAttentionOptions a;
  a.input_size = 8, a.dim = 2, a.channels = 4, a.dim_k = 4, a.nhead = 2;
  LinformerAttention attn(a);
  CHECK(error_message([&] { attn.forward(randn({1, 9, 4}), LayerArgs{}); }) ==
        "LinformerAttention: expected x [B, m, 4] with 1 <= m <= 8, got [1, 9, 4]");
}

TEST_CASE("prefix mode is an RNN: step by step equals the forward, for every method", "[linformer][decode]") {
  const Method method = GENERATE(Method::Learnable, Method::Convolution, Method::NoParams);
  INFO(to_string(method));
  manual_seed(8);
  LinformerAttentionOptions o;
  o.input_size = 12;
  o.dim = 3;
  o.channels = 6;
  o.dim_k = 4;
  o.nhead = 2;
  o.causal = Causal::Prefix;
  o.method = method;
  LinformerAttention attn(o);
  attn.eval();
  NoGradGuard g;
  Tensor x = randn({2, 12, 6});
  Tensor full = attn.forward(x, LayerArgs{});
  auto state = attn.start_decoding();
  REQUIRE(state);
  // a prompt of 5 (it crosses a convolution window), then one token at a time
  CHECK(max_diff(attn.step(*state, x.narrow(1, 0, 5), {}), full.narrow(1, 0, 5)) < 1e-5);
  for (int64_t t = 5; t < 12; ++t) CHECK(max_diff(attn.step(*state, x.narrow(1, t, 1), {}), full.narrow(1, t, 1)) < 1e-5);
  o.causal = Causal::Leaky;
  CHECK(LinformerAttention(o).start_decoding() == nullptr);  // its slots read every position
}
