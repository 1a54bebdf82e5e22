#include "models/transformer/copy_task.h"

#include <cstdio>
#include <ostream>

#include "models/linformer/enc_dec.h"
#include "optim/optim.h"

namespace attic::models {

// -> src, tgt_in, tgt_out, each [B, length]
CopyBatch make_copy_batch(int64_t B, int64_t length, int64_t symbols, bool reverse, Generator& gen) {
  ATTIC_CHECK(B > 0 && length > 0 && symbols > 0, "make_copy_batch: B, length and symbols must be "
              "positive, got ", B, ", ", length, " and ", symbols);
  std::vector<int64_t> src(size_t(B * length)), in(size_t(B * length)), out(size_t(B * length));
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

template <class Model>
std::pair<double, double> evaluate_seq2seq(Model& model, const CopyTaskOptions& o) {
  // A generator of its own, far from the training one: with symbols^length possible
  // sequences (10^10 by default) the held-out set almost surely shares none with training.
  Generator gen(o.seed * 7919u + 104729u);
  int64_t tokens_right = 0, seqs_right = 0;
  for (int64_t done = 0; done < o.eval_size;) {
    const int64_t B = std::min<int64_t>(250, o.eval_size - done);
    CopyBatch b = make_copy_batch(B, o.length, o.symbols, o.reverse, gen);
    Tensor pred = model.greedy_decode(b.src, o.length);
    Tensor same = eq(pred, b.tgt_out);  // bool, true where right; sums count in int64
    tokens_right += sum(same).item<int64_t>();
    seqs_right += sum(eq(sum(same, {1}), double(o.length))).item<int64_t>();
    done += B;
  }
  return {double(tokens_right) / double(o.eval_size * o.length), double(seqs_right) / double(o.eval_size)};
}

std::pair<double, double> evaluate_copy_task(EncoderDecoder& model, const CopyTaskOptions& o) {
  return evaluate_seq2seq(model, o);
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

template <class Model>
CopyTaskResult train_seq2seq(Model& model, const CopyTaskOptions& o, std::ostream* log) {
  o.validate();
  const int64_t V = o.symbols + 1;
  optim::AdamW opt(model.parameters(), optim::AdamWOptions(o.learning_rate).betas({0.9, 0.98}).weight_decay(0.0));
  Generator gen(o.seed);
  const int64_t warmup = std::max<int64_t>(1, o.steps / 10);
  double tail_loss = 0;
  int64_t tail_n = 0;
  model.train();
  for (int64_t step = 0; step < o.steps; ++step) {
    optim::set_lr(opt, optim::cosine_with_warmup(step, o.learning_rate, o.learning_rate / 10, warmup,
                                                 std::max(o.steps, warmup + 1)));
    CopyBatch b = make_copy_batch(o.batch_size, o.length, o.symbols, o.reverse, gen);
    Tensor logits = model.forward(b.src, b.tgt_in);  // [B, T, V]
    Tensor loss = cross_entropy(logits.reshape({-1, V}), b.tgt_out.reshape({-1}));
    opt.zero_grad();
    loss.backward();
    optim::clip_grad_norm_(model.parameters(), 1.0);
    opt.step();
    const double l = loss.item<double>();
    if (step >= o.steps - std::max<int64_t>(1, o.steps / 10)) { tail_loss += l; ++tail_n; }
    if (log && o.log_interval > 0 && step % o.log_interval == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "step %lld: loss %.4f\n", (long long)step, l);
      *log << buf << std::flush;
    }
  }
  CopyTaskResult r;
  r.final_loss = tail_n > 0 ? tail_loss / double(tail_n) : 0.0;
  std::tie(r.token_accuracy, r.exact_match) = evaluate_seq2seq(model, o);
  return r;
}

template CopyTaskResult train_seq2seq(EncoderDecoder&, const CopyTaskOptions&, std::ostream*);
template CopyTaskResult train_seq2seq(linformer::LinformerEncDec&, const CopyTaskOptions&, std::ostream*);
template std::pair<double, double> evaluate_seq2seq(linformer::LinformerEncDec&, const CopyTaskOptions&);

}  // namespace attic::models
