// An encoder-decoder Transformer from the blocks of tonyduan/transformer-blocks
// (src/blocks.py; Vaswani et al. 2017, with pre-ScaleNorm), for sequence-to-sequence tasks
// such as the Annotated Transformer's copy task.
//
//   memory = SN_e(enc_N(… enc_1(PE(E[src]))))          [B, S, d]   (src padding mask)
//   h      = SN_d(dec_N(… dec_1(PE(E[tgt_in]), memory)))  [B, T, d] (causal self-attention)
//   logits = head(h)                                    [B, T, V]
// One embedding E serves source and target (a shared vocabulary).
#pragma once

#include "models/transformer/config.h"
#include "nn/attention/positional_encoding.h"
#include "nn/attention/scale_norm.h"
#include "nn/blocks/decoder_block.h"
#include "nn/blocks/encoder_block.h"
#include "nn/container.h"
#include "nn/embedding.h"
#include "optim/decay_groups.h"

namespace attic::models {

class EncoderDecoder : public nn::Module {
 public:
  explicit EncoderDecoder(const EncoderDecoderConfig& cfg);
  // src [B, S] int64, src_keep [B, S] bool (true = token, false = padding) or undefined -> [B, S, d]
  Tensor encode(const Tensor& src, const Tensor& src_keep = Tensor());
  // tgt_in [B, T] int64 (start token, then the target shifted right), memory [B, S, d]
  //   -> logits [B, T, V]
  Tensor decode(const Tensor& tgt_in, const Tensor& memory, const Tensor& src_keep = Tensor());
  Tensor forward(const Tensor& src, const Tensor& tgt_in, const Tensor& src_keep = Tensor()) {
    return decode(tgt_in, encode(src, src_keep), src_keep);
  }
  // Greedy decoding: [B, length] int64, starting from token `start`. No graph, eval mode.
  Tensor greedy_decode(const Tensor& src, int64_t length, int64_t start = 0,
                       const Tensor& src_keep = Tensor());

  // nanoGPT's configure_optimizers (karpathy/nanoGPT, model.py): AdamW in two groups, the
  // tensors of 2 or more dims decaying by weight_decay and the others not
  // (optim/decay_groups.h).
  optim::AdamW configure_optimizers(double weight_decay, double learning_rate,
                                    std::pair<double, double> betas);

  EncoderDecoderConfig config;
  std::shared_ptr<nn::Embedding> embed;
  std::shared_ptr<nn::PositionalEncoding> pos;
  std::shared_ptr<nn::ModuleList> encoder, decoder;
  std::shared_ptr<nn::ScaleNorm> enc_norm, dec_norm;
  std::shared_ptr<nn::Linear> head;
};

}  // namespace attic::models
