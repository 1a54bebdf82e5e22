#include "models/transformer/copy_task.h"

#include <cstdio>
#include <ostream>

#include "optim/optim.h"

namespace attic::models {

// -> src, tgt_in, tgt_out, each [B, length]
CopyBatch make_copy_batch(int64_t B, int64_t length, int64_t symbols, bool reverse, Generator& gen) {
  ATTIC_CHECK(B > 0 && length > 0 && symbols > 0, "make_copy_batch: B, length and symbols must be "
              "positive, got ", B, ", ", length, " and ", symbols);
  const size_t n = size_t(numel_of({B, length}));  // throws when it cannot count
  std::vector<int64_t> src(n), in(n), out(n);
  for (int64_t b = 0; b < B; ++b) {
    for (int64_t t = 0; t < length; ++t) src[size_t(b * length + t)] = gen.randint(1, symbols + 1);
    for (int64_t t = 0; t < length; ++t) {
      const int64_t y = src[size_t(b * length + (reverse ? length - 1 - t : t))];
      out[size_t(b * length + t)] = y;
      if (t + 1 < length) in[size_t(b * length + t + 1)] = y;
    }
    in[size_t(b * length)] = 0;  // the start token
  }
  return {from_vector(src, {B, length}), from_vector(in, {B, length}), from_vector(out, {B, length})};
}

void CopyTaskOptions::validate() const {
  ATTIC_CHECK(length > 0 && symbols > 0 && steps >= 0 && batch_size > 0 && eval_size > 0 &&
                  learning_rate > 0 && log_interval >= 0,
              "copy task: length, symbols, batch_size, eval_size and learning_rate must be positive "
              "and steps, log_interval >= 0");
}

CopyTaskResult train_copy_task(const CopyTaskOptions& o, std::ostream* log, EncoderDecoder* given) {
  o.validate();
  EncoderDecoderConfig mc = o.model;
  mc.vocab_size = o.symbols + 1;
  mc.max_length = o.length;
  std::unique_ptr<EncoderDecoder> owned;
  if (!given) owned = std::make_unique<EncoderDecoder>(mc);
  return train_seq2seq(given ? *given : *owned, o, log);
}

}  // namespace attic::models
