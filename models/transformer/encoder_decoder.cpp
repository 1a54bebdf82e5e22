#include "models/transformer/encoder_decoder.h"

#include "nn/init.h"

namespace attic::models {

EncoderDecoder::EncoderDecoder(const EncoderDecoderConfig& cfg) : config(cfg) {
  cfg.validate();
  const nn::BlockOptions o = block_options(cfg);
  embed = register_module("embed", std::make_shared<nn::Embedding>(cfg.vocab_size, cfg.n_embd));
  pos = register_module("pos", std::make_shared<nn::PositionalEncoding>(cfg.n_embd, cfg.max_length, cfg.dropout));
  encoder = register_module("encoder", std::make_shared<nn::ModuleList>());
  decoder = register_module("decoder", std::make_shared<nn::ModuleList>());
  for (int64_t i = 0; i < cfg.n_layer; ++i) {
    encoder->push_back(std::make_shared<nn::EncoderBlock>(o));
    decoder->push_back(std::make_shared<nn::DecoderBlock>(o));
  }
  // pre-norm blocks leave the residual stream unnormalized: one last norm on each side
  enc_norm = register_module("enc_norm", std::make_shared<nn::ScaleNorm>(cfg.n_embd));
  dec_norm = register_module("dec_norm", std::make_shared<nn::ScaleNorm>(cfg.n_embd));
  head = register_module("head", std::make_shared<nn::Linear>(cfg.n_embd, cfg.vocab_size));
  nn::init::xavier_normal_(head->weight);
  nn::init::zeros_(head->bias);
}

// src [B, S] -> memory [B, S, d]
Tensor EncoderDecoder::encode(const Tensor& src, const Tensor& src_keep) {
  ATTIC_CHECK(src.dim() == 2 && src.size(1) <= config.max_length, "EncoderDecoder: src of shape ",
              str(src.shape()), " must be [B, S <= ", config.max_length, "]");
  Tensor x = pos->forward(embed->forward(src));
  for (const auto& b : *encoder) x = std::static_pointer_cast<nn::EncoderBlock>(b)->forward(x, src_keep);
  return enc_norm->forward(x);
}

// tgt_in [B, T], memory [B, S, d] -> logits [B, T, V]
Tensor EncoderDecoder::decode(const Tensor& tgt_in, const Tensor& memory, const Tensor& src_keep) {
  ATTIC_CHECK(tgt_in.dim() == 2 && tgt_in.size(1) <= config.max_length, "EncoderDecoder: tgt_in of shape ",
              str(tgt_in.shape()), " must be [B, T <= ", config.max_length, "]");
  Tensor x = pos->forward(embed->forward(tgt_in));
  for (const auto& b : *decoder)
    x = std::static_pointer_cast<nn::DecoderBlock>(b)->forward(x, memory, Tensor(), src_keep, true);
  return head->forward(dec_norm->forward(x));
}

// src [B, S] -> [B, length]: each step feeds back the argmax so far
Tensor EncoderDecoder::greedy_decode(const Tensor& src, int64_t length, int64_t start,
                                     const Tensor& src_keep) {
  NoGradGuard no_grad;
  const bool was_training = is_training();
  eval();
  Tensor memory = encode(src, src_keep);
  Tensor seq = full({src.size(0), 1}, double(start), kInt64);
  for (int64_t t = 0; t < length; ++t) {
    Tensor logits = decode(seq, memory, src_keep);                           // [B, t+1, V]
    Tensor next = argmax(logits.select(1, t), -1, true);                     // [B, 1]
    seq = cat({seq, next}, 1);
  }
  train(was_training);
  return seq.narrow(1, 1, length).contiguous();
}

optim::AdamW EncoderDecoder::configure_optimizers(double weight_decay, double learning_rate,
                                                  std::pair<double, double> betas) {
  return optim::configure_optimizers(*this, weight_decay, learning_rate, betas);
}

}  // namespace attic::models
