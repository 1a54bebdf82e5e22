// Chapter 9: multi-head attention. With C = NH · hs, head h attends with its own hs columns
// of q, k and v. CausalSelfAttention reshapes [B, T, C] into [B, NH, T, hs] with views and
// runs all heads in one batched matmul; the check runs the heads one at a time instead.
#include <cmath>
#include <iostream>
#include <limits>

#include "models/gpt.h"

using namespace attic;

// One causal head: q, k, v [B, T, hs] -> [B, T, hs].
Tensor one_head(const Tensor& q, const Tensor& k, const Tensor& v) {
  const int64_t T = q.size(1), hs = q.size(2);
  Tensor att = matmul(q, k.transpose(1, 2)) * (1.0 / std::sqrt(double(hs)));  // [B, T, T]
  att = masked_fill(att, triu(ones({T, T}, kBool), 1), -std::numeric_limits<double>::infinity());
  return matmul(softmax(att, -1), v);
}

int main() {
  std::cout << std::boolalpha;
  manual_seed(0);
  models::GPTConfig cfg;
  cfg.block_size = 8;
  cfg.n_embd = 8;
  cfg.n_head = 2;
  nn::CausalSelfAttention attn(models::mixer_options(cfg));
  const int64_t B = 2, T = 5, C = 8, NH = 2, hs = C / NH;
  Tensor x = randn({B, T, C});

  // 1. The views of attention.cpp, one by one.
  Tensor qkv = attn.c_attn->forward(x);              // [B, T, 3C]
  std::vector<Tensor> parts = split(qkv, C, 2);       // q, k, v: three [B, T, C] views
  Tensor split_q = parts[0].view({B, T, NH, hs});     // column h·hs + i becomes [h, i]
  Tensor q = split_q.transpose(1, 2);                 // [B, NH, T, hs]
  for (auto [name, t] : {std::pair{"qkv", qkv}, {"q part", parts[0]}, {"k part", parts[1]},
                         {"view", split_q}, {"transpose", q}})
    std::cout << name << ": shape " << str(t.shape()) << ", strides " << str(t.strides())
              << ", offset " << t.storage_offset() << ", shares qkv's storage "
              << t.shares_storage(qkv) << "\n";
  // q[b, h, t, i] is qkv[b, t, h·hs + i]: the same float, read through other strides.
  std::cout << "q[1, 1, 3, 2] == qkv[1, 3, 6]: "
            << (q[1][1][3][2].item<float>() == qkv[1][3][6].item<float>()) << "\n";

  // 2. The check: the heads one at a time, their outputs side by side, then c_proj.
  std::vector<Tensor> heads;
  for (int64_t h = 0; h < NH; ++h)
    heads.push_back(one_head(parts[0].narrow(2, h * hs, hs), parts[1].narrow(2, h * hs, hs),
                             parts[2].narrow(2, h * hs, hs)));
  Tensor y_loop = attn.c_proj->forward(cat(heads, 2));  // [B, T, C]
  Tensor y = attn.forward(x);
  std::cout << "output " << str(y.shape()) << ", max |module - per-head loop| < 1e-6: "
            << (max(abs(y - y_loop)).item<float>() < 1e-6f) << "\n";

  // 3. Putting the heads back side by side needs one copy: after transpose, [B, T, NH, hs]
  //    is not contiguous, so view cannot merge NH and hs.
  Tensor y_heads = randn({B, NH, T, hs});  // contiguous, as att @ v returns it
  try {
    y_heads.transpose(1, 2).view({B, T, C});
  } catch (const Error& e) {
    std::cout << e.what() << "\n";
  }
  std::cout << "with contiguous(): "
            << str(y_heads.transpose(1, 2).contiguous().view({B, T, C}).shape()) << "\n";
  return 0;
}
