#include "models/transformer/config.h"

#include "tensor/error.h"

namespace attic::models {

void PooledLMConfig::validate() const {
  ATTIC_CHECK(vocab_size > 0 && window > 0 && n_layer >= 0 && n_head > 0 && n_embd > 0 && hidden >= 0,
              "PooledLM: sizes must be positive, got vocab_size ", vocab_size, ", window ", window,
              ", n_layer ", n_layer, ", n_head ", n_head, ", n_embd ", n_embd, ", hidden ", hidden);
  ATTIC_CHECK(n_embd % n_head == 0, "PooledLM: n_embd = ", n_embd,
              " must be a multiple of n_head = ", n_head);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "PooledLM: dropout must be in [0, 1), got ", dropout);
}

void EncoderDecoderConfig::validate() const {
  ATTIC_CHECK(vocab_size > 1 && max_length > 0 && n_layer > 0 && n_head > 0 && n_embd > 0 && hidden > 0,
              "EncoderDecoder: sizes must be positive (vocab_size > 1), got vocab_size ", vocab_size,
              ", max_length ", max_length, ", n_layer ", n_layer, ", n_head ", n_head, ", n_embd ",
              n_embd, ", hidden ", hidden);
  ATTIC_CHECK(n_embd % n_head == 0, "EncoderDecoder: n_embd = ", n_embd,
              " must be a multiple of n_head = ", n_head);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "EncoderDecoder: dropout must be in [0, 1), got ", dropout);
}

}  // namespace attic::models
