// Reflex and route attention at block 2 of a GPT: which heads each earlier layer reaches,
// and route with one-hot routers on the current stream, which is classic attention again.
#include <cstdio>

#include "models/gpt.h"
#include "models/reflex.h"

using namespace attic;

int main() {
  manual_seed(0);
  nn::MixerOptions o;
  o.n_embd = 24;  // C
  o.n_head = 6;   // NH, so hs = 4
  o.block_size = 8;
  o.n_layer = 3;
  o.layer = 2;  // block i = 2 reads x_0 = x_{i-2} and x_1 = x_{i-1}
  models::reflex::ReflexAttention reflex(o);
  {
    // c_proj = identity, so the output shows every head's columns before they are mixed.
    NoGradGuard no_grad;
    std::vector<float> eye(24 * 24, 0.0f);
    for (int i = 0; i < 24; ++i) eye[size_t(i * 25)] = 1.0f;
    reflex.c_proj->weight.copy_(from_vector(eye, {24, 24}));
    reflex.c_proj->bias.fill_(0.0);
  }
  const Tensor x = randn({1, 8, 24}), x0 = randn({1, 8, 24}), x1 = randn({1, 8, 24});
  auto run = [&](const Tensor& e0, const Tensor& e1) {
    const std::vector<Tensor> earlier{e0, e1};
    return reflex.forward(x, {.layer = 2, .earlier = earlier});
  };
  const Tensor base = run(x0, x1);
  auto report = [&](const char* what, const Tensor& y) {
    std::printf("%-22s heads moved:", what);
    for (int64_t h = 0; h < 6; ++h)
      if (max(abs(y.narrow(2, h * 4, 4) - base.narrow(2, h * 4, 4))).item<double>() > 0) std::printf(" %lld", (long long)h);
    std::printf("\n");
  };
  report("perturb x_{i-1}:", run(x0, x1 + randn({1, 8, 24})));
  report("perturb x_{i-2}:", run(x0 + randn({1, 8, 24}), x1));
  report("perturb ln_1(x_i):", reflex.forward(x + randn({1, 8, 24}) * 0.1, {.layer = 2, .earlier = std::vector<Tensor>{x0, x1}}));

  // A route GPT whose routers weigh only the current stream is a classic GPT.
  models::GPTConfig c;
  c.vocab_size = 10;
  c.block_size = 8;
  c.n_layer = 4;
  c.n_head = 6;
  c.n_embd = 24;
  c.attention = "classic";
  manual_seed(1);
  models::GPT classic(c);
  c.attention = "route";
  manual_seed(1);
  models::GPT route(c);
  const Tensor idx = from_vector(std::vector<int64_t>{3, 1, 4, 1, 5, 9, 2, 6}, {1, 8});
  auto gap = [&] { return max(abs(classic.forward(idx, idx).logits - route.forward(idx, idx).logits)).item<double>(); };
  auto r2 = route.h->at<models::Block>(2)->attn_as<models::reflex::RouteAttention>();
  std::printf("k_router of block 2 at init: %.4f (= 1/(3*6))\n", r2->k_router.to_vector<double>()[0]);
  std::printf("route vs classic, routers at init:  max |logit gap| %.2e\n", gap());
  {
    NoGradGuard no_grad;
    for (size_t i = 0; i < route.h->size(); ++i) {
      auto r = route.h->at<models::Block>(i)->attn_as<models::reflex::RouteAttention>();
      for (Tensor* p : {&r->k_router, &r->v_router}) {
        p->fill_(0.0);
        p->narrow(0, 12, 6).fill_(1.0);  // l = 2, the current stream, for every head
      }
    }
  }
  std::printf("route vs classic, one-hot on x_i:   max |logit gap| %.2e\n", gap());
  return 0;
}
