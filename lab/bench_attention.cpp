#include "lab/bench_attention.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>

#include "lab/bench_timer.h"
#include "nn/attention/linear_attention.h"
#include "nn/attention/multi_head_attention.h"
#include "tensor/threads.h"

namespace attic::lab {


int bench_attention(int64_t max_n, int64_t softmax_max_n, int64_t threads, bool json) {
  ATTIC_CHECK(max_n >= 256 && softmax_max_n >= 0, "bench attention: max_n must be >= 256 and "
              "softmax_max_n >= 0, got ", max_n, " and ", softmax_max_n);
  if (threads > 0) set_num_threads(int(threads));
  constexpr int64_t d = 64;
  nn::AttentionOptions o;
  o.dim_q = o.dim_k = o.dim_v = d;
  o.num_heads = 1;
  manual_seed(0);
  struct Variant {
    const char* name;
    std::shared_ptr<nn::Attention> attn;
    bool causal;
  };
  const std::vector<Variant> variants = {
      {"softmax", std::make_shared<nn::MultiHeadAttention>(o), false},
      {"linear_elu", std::make_shared<nn::LinearAttention>(o, nn::FeatureMap::EluPlusOne), false},
      {"linear_exp", std::make_shared<nn::LinearAttention>(o, nn::FeatureMap::Exp), false},
      {"softmax causal", std::make_shared<nn::MultiHeadAttention>(o), true},
      {"linear_elu causal", std::make_shared<nn::LinearAttention>(o, nn::FeatureMap::EluPlusOne), true},
  };
  if (!json) {
    std::printf("self-attention on x [1, n, %lld], one head, %d threads; peak = tensor memory during fwd+bwd\n",
                (long long)d, num_threads());
    std::printf("%-18s %6s %10s %10s %10s %8s\n", "attention", "n", "fwd ms", "fwd+bwd ms",
                "peak MiB", "t(2n)/t(n)");
  }
  for (const Variant& v : variants) {
    std::map<int64_t, FwdBwd> rows;
    for (int64_t n = 256; n <= max_n; n *= 2) {
      if (v.attn->name() == "softmax" && n > softmax_max_n) break;
      Tensor x = randn({1, n, d}).requires_grad_();
      const FwdBwd r = time_fwd_bwd([&] { return v.attn->forward(x, x, x, Tensor(), v.causal); },
                                    [&] {
                                      x.set_grad({});
                                      v.attn->zero_grad();
                                    });
      const bool has_prev = rows.count(n / 2) > 0;
      const double growth = has_prev ? r.fwd_bwd / rows[n / 2].fwd_bwd : 0.0;
      rows[n] = r;
      if (json)
        std::printf("{\"bench\": \"attention\", \"attention\": \"%s\", \"n\": %lld, \"fwd_ms\": %.3f, "
                    "\"fwd_bwd_ms\": %.3f, \"peak_bytes\": %zu, \"growth\": %.2f}\n", v.name,
                    (long long)n, r.fwd * 1e3, r.fwd_bwd * 1e3, r.peak, growth);
      else if (has_prev)
        std::printf("%-18s %6lld %10.2f %10.2f %10.1f %8.2f\n", v.name, (long long)n, r.fwd * 1e3,
                    r.fwd_bwd * 1e3, double(r.peak) / (1 << 20), growth);
      else
        std::printf("%-18s %6lld %10.2f %10.2f %10.1f %8s\n", v.name, (long long)n, r.fwd * 1e3,
                    r.fwd_bwd * 1e3, double(r.peak) / (1 << 20), "-");
      std::fflush(stdout);
    }
  }
  if (!json) std::printf("t(2n)/t(n) is of fwd+bwd: about 2 for linear cost, about 4 for quadratic\n");
  return 0;
}

}  // namespace attic::lab
