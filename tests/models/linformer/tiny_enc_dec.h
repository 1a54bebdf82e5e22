// The Linformer encoder-decoder the tests train and draw: 7 symbols, 6 positions, width 8,
// 3 slots, 2 heads, 2 layers a side, no dropout, headwise sharing.
#pragma once

#include "models/linformer/enc_dec.h"

namespace attic::testing {

inline models::linformer::LinformerEncDecOptions tiny_enc_dec(models::linformer::DecoderMask mask,
                                                              models::linformer::Causal causal) {
  using namespace models::linformer;
  LinformerEncDecOptions o;
  o.enc = LinformerEncDecOptions::encoder_defaults(7, 6, 8);
  o.dec = LinformerEncDecOptions::decoder_defaults(7, 6, 8);
  for (LinformerLMOptions* side : {&o.enc, &o.dec}) {
    side->dropout_tokens = 0;
    side->body.dim_k = 3;
    side->body.dim_ff = 16;
    side->body.nhead = 2;
    side->body.depth = 2;
    side->body.dropout = 0;
    side->body.dropout_ff = 0;
    side->body.parameter_sharing = Sharing::Headwise;
  }
  o.dec.body.decoder_mask = mask;
  o.dec.body.causal = causal;
  return o;
}

}  // namespace attic::testing
