// LinformerEncDec of the linformer-pytorch package: a LinformerLM encoder (return_emb) and a
// LinformerLM decoder in decoder mode, whose cross-attentions read the encoder's output:
//
//   logits = decoder(y, embeddings = encoder(x))      x [B, n] ids, y [B, n] ids -> [B, n, V_dec]
//
// The package masks the decoder's cross-attention and leaves its self-attention open, so a
// decoder token reads the target tokens after it; attic's default masks the self-attention
// (decoder_mask = self, causal = prefix), as the README intends. Names: encoder.*, decoder.*.
#pragma once

#include <memory>

#include "models/linformer/linformer_lm.h"

namespace attic::models::linformer {

struct LinformerEncDecOptions {
  LinformerLMOptions enc = encoder_defaults(0, 0, 0);
  LinformerLMOptions dec = decoder_defaults(0, 0, 0);

  // The package's per-side defaults: dim_k 64, dim_ff 1024, nhead 4, depth 2, dropout 0.05,
  // dropout_ff 0.1, layerwise sharing. The decoder is causal (prefix, on its self-attention).
  static LinformerLMOptions encoder_defaults(int64_t num_tokens, int64_t input_size, int64_t channels);
  static LinformerLMOptions decoder_defaults(int64_t num_tokens, int64_t input_size, int64_t channels);
};

class LinformerEncDec : public nn::Module {
 public:
  explicit LinformerEncDec(const LinformerEncDecOptions& options);
  // x [B, n_enc] ids, y [B, n_dec] ids (y undefined: y = x) -> [B, n_dec, V_dec]. The encoder
  // and decoder widths and lengths must agree, as the package asserts.
  Tensor forward(const Tensor& x, const Tensor& y = Tensor());
  // Greedy decoding of x [B, n]: [B, length] int64 (length ≤ n), starting from token start.
  // The decoder reads n positions; the ones not decoded yet are zeros, which a causal
  // (prefix) decoder cannot see from the positions before them. No graph, eval mode.
  Tensor greedy_decode(const Tensor& x, int64_t length, int64_t start = 0);

  LinformerEncDecOptions options;
  std::shared_ptr<LinformerLM> encoder, decoder;
};

}  // namespace attic::models::linformer
