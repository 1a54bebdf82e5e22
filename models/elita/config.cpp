#include "models/elita/config.h"

#include "nn/attention/declared_options.h"

namespace attic::models::elita {

// Sizes positive, att_w 0 only when n_embd divides by n_head, dropout in [0, 1).
void ElitaConfig::validate() const {
  ATTIC_CHECK(vocab_size > 0 && block_size > 0 && n_layer > 0 && n_head > 0 && n_embd > 0 &&
                  att_w >= 0 && pos_w > 0 && ff_factor > 0,
              "ElitaLM: vocab_size, block_size, n_layer, n_head, n_embd, pos_w and ff_factor must be "
              "positive and att_w >= 0, got ", vocab_size, ", ", block_size, ", ", n_layer, ", ",
              n_head, ", ", n_embd, ", ", pos_w, ", ", ff_factor, " and ", att_w);
  ATTIC_CHECK(att_w > 0 || n_embd % n_head == 0, "ElitaLM: att_w 0 means n_embd / n_head, but n_embd ",
              n_embd, " is not a multiple of n_head ", n_head);
  ATTIC_CHECK(dropout >= 0 && dropout < 1, "ElitaLM: dropout must be in [0, 1), got ", dropout);
}

// The options of every block's Attention2: W = n_embd, H = n_head, A = att_w or W / H.
Attention2Options ElitaConfig::attention_options() const {
  Attention2Options o;
  o.width = n_embd;
  o.heads = n_head;
  o.att_w = att_w > 0 ? att_w : n_embd / n_head;
  o.pos_w = pos_w;
  o.numerics = numerics;
  o.positions = positions;
  o.block_size = block_size;
  o.dropout = dropout;
  return o;
}

}  // namespace attic::models::elita

namespace attic::models::elita {

void ElitaModelOptions::bind(util::Options& o) { o.bind("ff", ff, "F, FeedForward2's width factor"); }

ElitaConfig elita_config(const ModelSpec& s) {
  ATTIC_CHECK(s.attention == "softmax" || s.attention == "elita", "model elita has ELiTA's attention "
              "in every block; attention = ", s.attention, " needs model gpt");
  const Attention2Args a = nn::read_options<Attention2Args>(nn::AttentionArgs::parse(s.attention_options), "elita");
  const ElitaModelOptions m = nn::read_options<ElitaModelOptions>(nn::AttentionArgs::parse(s.model_options), "model elita");
  ElitaConfig c;
  c.vocab_size = s.vocab_size;
  c.block_size = s.block_size;
  c.n_layer = s.n_layer;
  c.n_head = s.n_head;
  c.n_embd = s.n_embd;
  c.att_w = a.att_w;
  c.pos_w = a.pos_w;
  c.numerics = parse_numerics(a.numerics);
  c.positions = parse_positions(a.positions);
  c.ff_factor = m.ff;
  c.dropout = s.dropout;
  c.validate();
  return c;
}

}  // namespace attic::models::elita
