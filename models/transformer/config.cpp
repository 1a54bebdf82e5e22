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

void PooledLMOptions::bind(util::Options& o) {
  o.bind("hidden", hidden, "the encoder blocks' feed-forward width (0: n_embd)").int_range(0, 1 << 24);
}

PooledLMConfig pooled_lm_config(const ModelSpec& s) {
  ATTIC_CHECK(bool(find_attention(s.attention).make_attention), "attention ", s.attention,
              " is a GPT attention only: model pooled_lm needs one with a q, k, v form (softmax, "
              "linear_elu or linear_exp)");
  ATTIC_CHECK(s.attention_options.empty(), "attention_options: the pooled_lm model's attentions take "
              "no options, got '", s.attention_options, "'");
  const PooledLMOptions m =
      nn::read_options<PooledLMOptions>(nn::AttentionArgs::parse(s.model_options), "model pooled_lm");
  PooledLMConfig c;
  c.hidden = m.hidden;
  c.vocab_size = s.vocab_size;
  c.window = s.block_size;
  c.n_layer = s.n_layer;
  c.n_head = s.n_head;
  c.n_embd = s.n_embd;
  c.dropout = s.dropout;
  c.attention = s.attention;
  c.validate();
  return c;
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
