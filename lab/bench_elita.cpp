#include "lab/bench_elita.h"

#include <cstdio>
#include <map>
#include <memory>

#include "lab/bench_timer.h"
#include "models/elita/attention2.h"
#include "nn/attention/causal_self_attention.h"
#include "tensor/threads.h"

namespace attic::lab {


// max_n, softmax_max_n: the longest N of each attention; prints one line per N (or JSON)
int bench_elita(int64_t max_n, int64_t softmax_max_n, int64_t threads, bool json) {
  ATTIC_CHECK(max_n >= 1024 && softmax_max_n >= 0, "bench elita: max_n must be >= 1024 and "
              "softmax_max_n >= 0, got ", max_n, " and ", softmax_max_n);
  if (threads > 0) set_num_threads(int(threads));
  constexpr int64_t W = 128, H = 4;
  manual_seed(0);
  models::elita::Attention2Options eo;
  eo.width = W, eo.heads = H, eo.att_w = W / H, eo.pos_w = 16;
  auto elita = std::make_shared<models::elita::Attention2>(eo);
  struct Variant {
    const char* name;
    std::shared_ptr<nn::CausalMixer> mixer;
    int64_t max_n;
  };
  std::vector<Variant> variants = {{"elita", elita, max_n}};
  if (softmax_max_n >= 1024) {
    nn::MixerOptions so;
    so.n_embd = W, so.n_head = H, so.block_size = softmax_max_n, so.bias = false;
    variants.push_back({"softmax", std::make_shared<nn::CausalSelfAttention>(so), softmax_max_n});
  }
  if (!json) {
    std::printf("causal attention on x [1, N, %lld], %lld heads, %d threads; peak = tensor memory "
                "during fwd+bwd\n", (long long)W, (long long)H, num_threads());
    std::printf("%-9s %7s %10s %11s %9s %11s %10s\n", "attention", "N", "fwd ms", "fwd+bwd ms",
                "peak MiB", "KiB/token", "t(2N)/t(N)");
  }
  for (const Variant& v : variants) {
    std::map<int64_t, FwdBwd> rows;
    for (int64_t n = 1024; n <= v.max_n; n *= 2) {
      Tensor x = randn({1, n, W}).requires_grad_();
      const FwdBwd r = time_fwd_bwd([&] { return v.mixer->forward(x); },
                                    [&] {
                                      x.set_grad({});
                                      v.mixer->zero_grad();
                                    });
      const bool has_prev = rows.count(n / 2) > 0;
      const double growth = has_prev ? r.fwd_bwd / rows[n / 2].fwd_bwd : 0.0;
      rows[n] = r;
      const double per_token_kib = double(r.peak) / double(n) / 1024.0;
      if (json) {
        std::printf("{\"bench\": \"elita\", \"attention\": \"%s\", \"n\": %lld, \"fwd_ms\": %.3f, "
                    "\"fwd_bwd_ms\": %.3f, \"peak_bytes\": %zu, \"growth\": %.2f}\n", v.name,
                    (long long)n, r.fwd * 1e3, r.fwd_bwd * 1e3, r.peak, growth);
      } else {
        char g[16] = "-";
        if (has_prev) std::snprintf(g, sizeof g, "%.2f", growth);
        std::printf("%-9s %7lld %10.2f %11.2f %9.1f %11.2f %10s\n", v.name, (long long)n,
                    r.fwd * 1e3, r.fwd_bwd * 1e3, double(r.peak) / (1 << 20), per_token_kib, g);
      }
      std::fflush(stdout);
    }
  }
  if (!json) std::printf("t(2N)/t(N) is of fwd+bwd: about 2 for linear cost, about 4 for quadratic\n");
  return 0;
}

}  // namespace attic::lab
