// A run's memory, estimated from its settings before anything is allocated, so that a size
// the machine cannot hold is refused at once, in one line, instead of after minutes of
// allocating or never.
#pragma once

#include <string>

#include "train/train_config.h"
#include "models/transformer/copy_task.h"

namespace attic::train {

// Bytes, as doubles: a setting such as n_layer = 2^62 makes sizes no int64 can count.
struct SizeEstimate {
  double parameters = 0;   // the weights and their gradients
  double optimizer = 0;    // AdamW's two moments
  double activations = 0;  // what a forward and backward hold at once, roughly
  double total() const { return parameters + optimizer + activations; }
};

// The machine's physical memory in bytes (0 where it cannot be read).
double physical_memory_bytes();

// Refuses, naming doing and the settings, when the estimate exceeds the machine's memory (or,
// where that cannot be read, what int64 can count):
//   "train: the model with n_layer=2147483648 ... would need about 12.0 TiB (weights and
//    gradients 6.0 TiB, AdamW's moments 6.0 TiB, activations 1.5 GiB), more than this
//    machine's 23.4 GiB of memory"
void check_size(const std::string& doing, const std::string& settings, const SizeEstimate& e);

// attic train's: a transformer of n_layer blocks of width n_embd (about 12 n_embd² weights a
// block, as the GPT's), its embeddings for vocab_size tokens and block_size positions, and a
// step's activations for batch_size windows (about 20 tensors [batch_size, block_size, n_embd]
// a block, and the logits).
SizeEstimate train_size(const TrainConfig& cfg, int64_t vocab_size);

// attic seq2seq's: an encoder and a decoder of n_layer blocks each (4 n_embd² + 2 n_embd·hidden
// weights a self-attention block, 4 n_embd² more for the decoder's cross-attention), the
// embedding and the head over symbols + 1 ids, the positions; a step's activations for the
// larger of batch_size and eval_size sequences (about 30 tensors [B, length, n_embd] and 3
// attention maps [B, n_head, length, length] a block, and the logits).
SizeEstimate seq2seq_size(const models::CopyTaskOptions& o);

}  // namespace attic::train
