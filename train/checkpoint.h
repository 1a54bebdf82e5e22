// A training checkpoint in out_dir: the model in ckpt.safetensors (nanoGPT's parameter
// names; metadata holds the config, the attention, vocabulary, iteration, best val loss,
// RNG state and the checksum of its optimizer file) and the optimizer in optim.safetensors.
//
// Both files carry a checksum of their own bytes (nn/safetensors.h), checked on load.
// Saving is one atomic commit of the pair, in three steps:
//   1. the optimizer state goes to optim.safetensors.next (written, fsynced, renamed);
//   2. ckpt.safetensors is replaced (the same way): it names the checksum of step 1's file.
//      This rename is the commit: before it the old pair stands, after it the new one;
//   3. optim.safetensors.next is renamed to optim.safetensors.
// A kill between 2 and 3 leaves the new model with its optimizer under the .next name;
// a resume finds it by its checksum and finishes step 3 (load_optimizer). Readers (sample,
// eval) open only ckpt.safetensors, which a rename replaces whole, so they need no lock.
//
// Files without checksums (older attic, nanoGPT conversions) still load: then what they
// mean is all that is checked, and the optimizer must name the model's iteration.
#pragma once

#include <array>
#include <map>
#include <string>

#include "data/tokenizer_base.h"
#include "models/gpt.h"
#include "optim/optimizer.h"

namespace attic::train {

struct CheckpointInfo {
  std::string config;       // "key = value" lines of the TrainConfig that made it
  std::string attention = "softmax";  // every block's attention (models/registry.h)
  std::string attention_options;      // and its options, "key=value,..."
  std::string tokenizer = "char";  // its kind: char or bpe (data/tokenizer_base.h)
  std::string vocabulary;   // its record(): the characters in id order, or the BPE's ranks
  int64_t iter_num = 0;
  double best_val_loss = 0;
  std::array<uint64_t, 4> rng{};  // the default generator's state
  std::string optimizer_fnv1a64;  // the checksum of its optimizer file ("" in older files)

  // The tokenizer it was trained with (throws naming nothing: callers name the file).
  std::unique_ptr<Tokenizer> make_tokenizer() const { return attic::make_tokenizer(tokenizer, vocabulary); }
  // Whether tok is that tokenizer.
  bool same_tokenizer(const Tokenizer& tok) const { return tok.kind() == tokenizer && tok.record() == vocabulary; }
};

// ckpt.safetensors read whole: its checksum checked, its metadata parsed and checked, its
// tensors all finite. Every error names path.
struct CheckpointFile {
  std::string path;
  CheckpointInfo info;
  nn::StateDict tensors;
};

std::string model_path(const std::string& out_dir);
std::string optimizer_path(const std::string& out_dir);
std::string pending_optimizer_path(const std::string& out_dir);  // optim.safetensors.next

void save_checkpoint(const std::string& out_dir, const nn::Module& model,
                     const optim::Optimizer& opt, const CheckpointInfo& info);
CheckpointFile read_checkpoint(const std::string& out_dir);
// read_checkpoint(out_dir).info.
CheckpointInfo read_checkpoint_info(const std::string& out_dir);
// Loads the weights into model (strict) and returns the metadata. attention and
// attention_options are those the model was built with: the checkpoint must record the
// same, as two attentions may name their tensors alike (softmax and linear attention both
// hold c_attn and c_proj) and a strict load alone would not tell them apart.
CheckpointInfo load_model(const std::string& out_dir, nn::Module& model,
                          const std::string& attention, const std::string& attention_options);
// The same from a file already read.
void load_model(const CheckpointFile& file, nn::Module& model, const std::string& attention,
                const std::string& attention_options);
// Loads the optimizer file that belongs to the model of `model`: the one whose checksum
// the model names (optim.safetensors, or the .next file of a save stopped after its commit,
// read where it is: the next save finishes it), or, for an older
// checkpoint, optim.safetensors of the same iteration. No parameter's step may exceed
// the iteration. Every error names the file.
void load_optimizer(const std::string& out_dir, optim::Optimizer& opt, const CheckpointInfo& model);

// Runs f; an attic::Error from it whose message does not name `path` is thrown again as
// "checkpoint 'path': <message>", so that an error found while loading a file names it.
template <class F>
auto naming_file(const std::string& path, F f) -> decltype(f()) {
  try {
    return f();
  } catch (const OutOfMemory& e) {
    if (std::string(e.what()).find(path) != std::string::npos) throw;
    throw OutOfMemory("checkpoint '" + path + "': " + e.what());
  } catch (const Error& e) {
    if (std::string(e.what()).find(path) != std::string::npos) throw;
    throw Error("checkpoint '" + path + "': " + e.what());
  }
}

}  // namespace attic::train
