#include "models/linformer/enc_dec.h"

namespace attic::models::linformer {

LinformerLMOptions LinformerEncDecOptions::encoder_defaults(int64_t num_tokens, int64_t input_size,
                                                            int64_t channels) {
  LinformerLMOptions o;
  o.num_tokens = num_tokens;
  o.body.input_size = input_size;
  o.body.channels = channels;
  o.return_emb = true;
  return o;
}

LinformerLMOptions LinformerEncDecOptions::decoder_defaults(int64_t num_tokens, int64_t input_size,
                                                            int64_t channels) {
  LinformerLMOptions o;
  o.num_tokens = num_tokens;
  o.body.input_size = input_size;
  o.body.channels = channels;
  o.body.decoder_mode = true;
  o.body.causal = Causal::Prefix;
  o.body.decoder_mask = DecoderMask::Self;
  return o;
}

LinformerEncDec::LinformerEncDec(const LinformerEncDecOptions& o) : options(o) {
  ATTIC_CHECK(o.enc.return_emb, "LinformerEncDec: the encoder must be built with return_emb");
  ATTIC_CHECK(o.dec.body.decoder_mode, "LinformerEncDec: the decoder must be built with decoder_mode");
  ATTIC_CHECK(o.enc.width() == o.dec.body.channels && o.enc.body.input_size == o.dec.body.input_size,
              "LinformerEncDec: the encoder's output [n ", o.enc.body.input_size, ", width ", o.enc.width(),
              "] must match the decoder's [n ", o.dec.body.input_size, ", channels ", o.dec.body.channels, "]");
  encoder = register_module("encoder", std::make_shared<LinformerLM>(o.enc));
  decoder = register_module("decoder", std::make_shared<LinformerLM>(o.dec));
}

Tensor LinformerEncDec::forward(const Tensor& x, const Tensor& y) {
  LayerArgs args;
  args.embeddings = encoder->forward(x);
  return decoder->forward(y.defined() ? y : x, args);
}

Tensor LinformerEncDec::greedy_decode(const Tensor& x, int64_t length, int64_t start) {
  const int64_t n = options.dec.body.input_size, B = x.size(0);
  ATTIC_CHECK(length >= 1 && length <= n, "LinformerEncDec::greedy_decode: length must be in 1..", n, ", got ",
              length);
  const bool was_training = is_training();
  eval();
  NoGradGuard no_grad;
  LayerArgs args;
  args.embeddings = encoder->forward(x);
  std::vector<int64_t> tgt(size_t(B * n), 0), out(size_t(B * length));
  for (int64_t b = 0; b < B; ++b) tgt[size_t(b * n)] = start;
  for (int64_t t = 0; t < length; ++t) {
    Tensor logits = decoder->forward(from_vector(tgt, {B, n}).to(x.device()), args);  // [B, n, V]
    const std::vector<int64_t> next = argmax(logits.select(1, t), -1).to(Device::CPU).to_vector<int64_t>();
    for (int64_t b = 0; b < B; ++b) {
      out[size_t(b * length + t)] = next[size_t(b)];
      if (t + 1 < n) tgt[size_t(b * n + t + 1)] = next[size_t(b)];
    }
  }
  train(was_training);
  return from_vector(out, {B, length});
}

}  // namespace attic::models::linformer
