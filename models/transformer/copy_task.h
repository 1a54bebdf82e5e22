// The Annotated Transformer's first task: learn to copy (or reverse) a random sequence.
// Sources are `length` symbols drawn uniformly from 1..symbols (0 is the start token); the
// target is the source, or the source reversed. Training uses teacher forcing (the decoder
// reads the start token then the target shifted right); evaluation decodes greedily and
// counts a sequence right only if every token is.
#pragma once

#include <algorithm>
#include <cstdio>
#include <ostream>

#include "models/transformer/encoder_decoder.h"
#include "optim/optim.h"
#include "tensor/random.h"

namespace attic::models {

struct CopyBatch {
  Tensor src;      // [B, length]
  Tensor tgt_in;   // [B, length]: 0, y_0, …, y_{length−2}
  Tensor tgt_out;  // [B, length]: y_0, …, y_{length−1}
};

// B random sequences; reverse: y = src reversed, else y = src.
CopyBatch make_copy_batch(int64_t B, int64_t length, int64_t symbols, bool reverse, Generator& gen);

struct CopyTaskOptions {
  int64_t length = 10;
  int64_t symbols = 10;
  bool reverse = false;
  int64_t steps = 1500;
  int64_t batch_size = 32;
  double learning_rate = 3e-3;  // peak, after a warmup of steps/10, cosine to a tenth
  int64_t eval_size = 1000;     // held-out sequences, from their own generator
  int64_t log_interval = 0;     // 0: no log lines
  uint64_t seed = 1;
  EncoderDecoderConfig model;   // vocab_size and max_length are set from the task

  void validate() const;
};

struct CopyTaskResult {
  double final_loss = 0;     // mean training loss over the last 10% of steps
  double token_accuracy = 0; // held-out, greedy decoding
  double exact_match = 0;    // held-out sequences decoded entirely right
};

// Trains a fresh EncoderDecoder (or `model`, when given) and evaluates it on held-out
// sequences. Log lines go to log when given.
CopyTaskResult train_copy_task(const CopyTaskOptions& options, std::ostream* log = nullptr,
                               EncoderDecoder* model = nullptr);

// Greedy decoding of eval_size held-out sequences by any sequence-to-sequence model
// (EncoderDecoder, the Linformer's LinformerEncDec): (token accuracy, exact match). Model is
// an nn::Module with forward(src, tgt_in) -> logits [B, T, V] and greedy_decode(src, length)
// -> [B, length]. The vocabulary is o.symbols + 1 (id 0 starts).
template <class Model>
std::pair<double, double> evaluate_seq2seq(Model& model, const CopyTaskOptions& o);

template <class Model>
CopyTaskResult train_seq2seq(Model& model, const CopyTaskOptions& o, std::ostream* log = nullptr) {
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

}  // namespace attic::models
