// The Annotated Transformer's first task: learn to copy (or reverse) a random sequence.
// Sources are `length` symbols drawn uniformly from 1..symbols (0 is the start token); the
// target is the source, or the source reversed. Training uses teacher forcing (the decoder
// reads the start token then the target shifted right); evaluation decodes greedily and
// counts a sequence right only if every token is.
#pragma once

#include <iosfwd>

#include "models/transformer/encoder_decoder.h"
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

// Greedy decoding of eval_size held-out sequences: (token accuracy, exact match).
std::pair<double, double> evaluate_copy_task(EncoderDecoder& model, const CopyTaskOptions& options);

// The same loop for any sequence-to-sequence model (EncoderDecoder, the Linformer's
// LinformerEncDec): Model is an nn::Module with forward(src, tgt_in) -> logits [B, T, V] and
// greedy_decode(src, length) -> [B, length]. The vocabulary is o.symbols + 1 (id 0 starts).
// Defined in copy_task.cpp for the two models.
template <class Model>
CopyTaskResult train_seq2seq(Model& model, const CopyTaskOptions& options, std::ostream* log = nullptr);
template <class Model>
std::pair<double, double> evaluate_seq2seq(Model& model, const CopyTaskOptions& options);

}  // namespace attic::models
