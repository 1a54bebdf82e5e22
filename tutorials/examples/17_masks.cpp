// Chapter 17: the three masks of an encoder-decoder (models::EncoderDecoder), as
// nn::keep_mask_4d builds them for its blocks (1 = attend, 0 = ignore). The source has S = 6
// positions, the last two padding; the decoder reads T = 5 (a start token, then the target).
//   encoder self-attention   [S, S]  keep = src_keep          every real source token
//   decoder self-attention   [T, T]  causal                   target positions j <= i
//   decoder cross-attention  [T, S]  keep = src_keep          every real source token
#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "models/transformer/encoder_decoder.h"
#include "nn/attention/keep_mask.h"
#include "nn/attention/multi_head_attention.h"
#include "viz/heatmap.h"

using namespace attic;

const std::vector<std::string> src_ticks = {"3", "1", "4", "1", "pad", "pad"};
const std::vector<std::string> tgt_ticks = {"<s>", "3", "1", "4", "1"};

// mask [1, 1, 1 or Tq, Tk] bool, one tick per query and per key -> a heatmap of its
// [Tq, Tk] grid, which it also prints.
viz::Heatmap grid(const std::string& title, const Tensor& mask, const std::vector<std::string>& queries,
                  const std::vector<std::string>& keys) {
  const int64_t Tq = int64_t(queries.size()), Tk = int64_t(keys.size());
  viz::Heatmap h;
  h.values = mask.squeeze(0).squeeze(0).expand({Tq, Tk}).to_vector<double>();
  h.rows = int(Tq);
  h.cols = int(Tk);
  h.title = title;
  h.row_ticks = queries;
  h.col_ticks = keys;
  std::printf("%s [%lld, %lld]:\n", title.c_str(), (long long)Tq, (long long)Tk);
  for (int64_t i = 0; i < Tq; ++i) {
    std::printf("  %-3s", h.row_ticks[size_t(i)].c_str());
    for (int64_t j = 0; j < Tk; ++j) std::printf(" %.0f", h.values[size_t(i * Tk + j)]);
    std::printf("\n");
  }
  return h;
}

int main() {
  const int64_t S = 6, T = 5, pad = 10;
  Tensor src = from_vector<int64_t>({3, 1, 4, 1, pad, pad}, {1, S});
  Tensor tgt_in = from_vector<int64_t>({0, 3, 1, 4, 1}, {1, T});
  Tensor src_keep = ne(src, double(pad));  // [1, S] bool: true = a token, false = padding

  // What EncoderDecoder::encode and ::decode pass their blocks (src_keep, causal), as
  // keep_mask_4d turns it into the masks the attention applies.
  Tensor enc_self = nn::keep_mask_4d(src_keep, 1, S, S, /*causal=*/false, "encoder");
  Tensor dec_self = nn::keep_mask_4d(Tensor(), 1, T, T, /*causal=*/true, "decoder");
  Tensor cross = nn::keep_mask_4d(src_keep, 1, T, S, /*causal=*/false, "cross");
  std::ofstream("17_masks.svg") << viz::heatmaps_svg(
      {grid("encoder self-attention", enc_self, src_ticks, src_ticks),
       grid("decoder self-attention", dec_self, tgt_ticks, tgt_ticks),
       grid("decoder cross-attention", cross, tgt_ticks, src_ticks)});

  // The model attends so: every weight its attentions put where the mask is 0 is 0.
  models::EncoderDecoderConfig cfg;
  cfg.n_layer = 1;
  models::EncoderDecoder model(cfg);
  auto enc = model.encoder->at<nn::EncoderBlock>(0);
  auto dec = model.decoder->at<nn::DecoderBlock>(0);
  auto attn = [](const std::shared_ptr<nn::Attention>& a) {
    auto mha = std::static_pointer_cast<nn::MultiHeadAttention>(a);
    mha->record_weights = true;
    return mha;
  };
  auto enc_attn = attn(enc->attn), dec_attn = attn(dec->self_attn), cross_attn = attn(dec->cross_attn);
  NoGradGuard no_grad;
  model.forward(src, tgt_in, src_keep);
  for (auto [what, a, mask] : {std::tuple{"encoder self", enc_attn, enc_self},
                               std::tuple{"decoder self", dec_attn, dec_self},
                               std::tuple{"decoder cross", cross_attn, cross}})
    std::printf("%s-attention weight where the mask is 0: %g\n", what,
                sum(masked_fill(a->last_weights, mask, 0.0)).item<double>());
  return 0;
}
