// Every key `attic train` accepts: nanoGPT's train.py globals that make sense here, plus
// threads and seed. Defaults are train.py's (GPT-2 124M on OpenWebText); the configs in
// config/ override them.
#pragma once

#include <iosfwd>
#include <map>
#include <string>

#include "train/checkpoint.h"
#include "util/options.h"
#include "data/text_dataset.h"
#include "models/model_spec.h"
#include "nn/attention/declared_options.h"

namespace attic::train {

// key -> text whose values keep their addresses when the map is assigned to, since
// util::Options binds to them: assignment copies each value in place, inserts a key it lacks
// and empties one the other map lacks (an empty alias means "not given").
class BoundTexts : public std::map<std::string, std::string> {
 public:
  BoundTexts() = default;
  BoundTexts(const BoundTexts&) = default;
  BoundTexts& operator=(const BoundTexts& other);
};

struct TrainConfig {
  // I/O
  std::string out_dir = "out";
  int64_t eval_interval = 2000;
  int64_t log_interval = 1;
  int64_t eval_iters = 200;
  bool eval_only = false;
  bool always_save_checkpoint = true;
  // "scratch", "resume" (from out_dir), or a GPT-2 read from gpt2_dir: gpt2, gpt2-medium,
  // gpt2-large, gpt2-xl, or huggingface (any shape its config.json gives).
  std::string init_from = "scratch";
  std::string gpt2_dir = "";  // a folder with GPT-2's config.json, model.safetensors, vocab.json, merges.txt
  bool reset_optimizer = false;       // resume: the model alone, with a fresh AdamW
  // data
  std::string dataset = "";  // a text file; empty: the shipped data/shakespeare_char/input.txt
  int64_t gradient_accumulation_steps = 1;
  int64_t batch_size = 12;
  int64_t block_size = 1024;
  // model
  std::string model = "gpt";         // a name from models/registry.h
  std::string attention = "softmax";      // every block's: a name from models/registry.h
  std::string attention_options = "";    // its own options, "key=value,..."
  int64_t n_layer = 12;
  int64_t n_head = 12;
  int64_t n_embd = 768;
  double dropout = 0.0;
  bool bias = false;
  // The older spellings that attentions and models declare for their options
  // (models::declared_aliases(): elita_numerics for the elita attention's numerics, ...),
  // key -> text; bind() adds every one at its declared default.
  BoundTexts aliased;
  // AdamW
  double learning_rate = 6e-4;
  int64_t max_iters = 600000;
  // Epochs instead of iterations (train/epoch_order.h): max_epochs > 0 trains that many
  // shuffled passes over the train split's windows, which start every epoch_stride tokens
  // (0: every block_size), and max_iters is not used.
  int64_t max_epochs = 0;
  int64_t epoch_stride = 0;
  double weight_decay = 1e-1;
  double beta1 = 0.9;
  double beta2 = 0.95;
  double grad_clip = 1.0;  // 0 disables clipping
  // The optimizer (train/make_optimizer.h): adamw (nanoGPT's) or sgd, PyTorch's SGD with
  // momentum, dampening and Nesterov momentum, the recipe of several of the write-ups'
  // training scripts. decay_all: weight_decay on every parameter, biases and norm gains too,
  // as torch.optim.SGD(model.parameters(), weight_decay=...) applies it.
  std::string optimizer = "adamw";
  double momentum = 0.0, dampening = 0.0;
  bool nesterov = false;
  bool decay_all = false;
  // learning-rate schedule
  bool decay_lr = true;
  // or inverse_sqrt, step, and per epoch (with max_epochs) cosine_epochs, step_epochs
  // (optim/schedule.h)
  std::string lr_schedule = "cosine";
  double lr_gamma = 0.1;               // step: the factor every lr_step_size iterations
  int64_t lr_step_size = 1000;
  int64_t warmup_iters = 2000;
  int64_t lr_decay_iters = 600000;
  double min_lr = 6e-5;
  // system
  std::string device = "cpu";
  int64_t threads = 0;  // 0: ATTIC_NUM_THREADS or all hardware threads
  int64_t seed = 1337;
  // Where the training batches are drawn from: "shared", the generator that also draws the
  // initial weights and dropout's masks (nanoGPT's torch.randint on the global generator), or
  // "own", a generator per (seed, iteration, micro-batch), so that runs whose models draw
  // different numbers at init still train on the same batches (attic compare's default).
  std::string batches = "shared";
  bool detect_anomaly = false;  // autograd::DetectAnomalyGuard around the run (slow)
  // nanoGPT's keys that attic takes so that its command lines and config files paste:
  std::string dtype = "float32";  // or bfloat16: autocast's products (autograd/autocast_mode.h)
  bool compile = false;           // torch.compile; attic's kernels are compiled ahead of time
  bool wandb_log = false;         // Weights & Biases logging, which attic does not do
  std::string wandb_project = "owt", wandb_run_name = "gpt2";
  std::string backend = "nccl";   // DDP's; attic trains in one process

  // dtype as a DType: kFloat32 (no autocast), kBFloat16 or kFloat16; an Error for any other.
  DType compute_dtype() const;

  // Binds every key to its field. The keys of kind KeyKind::Model shape the weights.
  void bind(util::Options& o);
  // The config a checkpoint was trained with: every key info.config recorded, read by the
  // config-file parser, then the keys that `given` (a command line) assigned, in order. A
  // model key given with another value than the checkpoint's is an error naming both, as
  // the weights have the checkpoint's shape. out_dir is the folder the checkpoint is in.
  static TrainConfig from_checkpoint(const CheckpointInfo& info, const std::string& out_dir,
                                     const util::Options& given = util::Options());
  // Range checks that no single key can express; throws attic::Error.
  void validate() const;
  // What the model is built from, for a vocabulary of vocab_size: the keys of kind
  // KeyKind::Model, with the aliases given folded into the options they name.
  models::ModelSpec model_spec(int64_t vocab_size) const;
  // The attention every block holds (elita for model = elita) and its options as the
  // checkpoint records them: attention_options with the block attention's aliases given
  // (elita_numerics = clip: numerics=clip), in the attention's record form where it has one.
  std::string block_attention() const;
  std::string block_attention_options() const;
  // The model's own options, from its aliases given ("ff=4" from elita_ff = 4).
  std::string model_options() const;
  // The learning rate of iteration iter (from 0): learning_rate without decay_lr; with it,
  // nanoGPT's get_lr (linear warmup, then cosine decay to min_lr), or inverse_sqrt:
  // learning_rate up to warmup_iters, then learning_rate · √(warmup_iters / step) with steps
  // counted from 1, which at learning_rate 1e-3 and warmup_iters 100 is ELiTA's
  // min(1e-3, 1e-2/√step). The per-epoch schedules, which PyTorch's training loops step once
  // an epoch, hold one rate through epoch e = ⌊iter / iters_per_epoch⌋: cosine_epochs is
  // CosineAnnealingLR(T_max = max_epochs, eta_min = min_lr), min_lr + ½ (1 + cos(π e /
  // max_epochs)) (learning_rate - min_lr); step_epochs is StepLR(lr_step_size, lr_gamma),
  // learning_rate · lr_gamma^⌊e / lr_step_size⌋. They need iters_per_epoch > 0.
  double lr_at(int64_t iter, int64_t iters_per_epoch = 0) const;
  // Whether lr_schedule counts epochs (cosine_epochs, step_epochs).
  bool epoch_schedule() const;
  // Whether init_from names a GPT-2 (models/gpt/gpt2_folder.h).
  bool from_gpt2() const;
  // With from_gpt2(): the model keys become the GPT-2 of gpt2_dir/config.json's (model gpt,
  // softmax attention, n_layer, n_head, n_embd, bias true, its gelu), as nanoGPT's
  // from_pretrained overrides them; block_size may crop (≤ n_positions; not given: all of
  // them). A model key that `given` (the config files and flags) set otherwise is an error
  // naming both values.
  void take_gpt2_shape(const util::Options& given);
  // The notes nanoGPT's keys need, printed once before a run: compile = true does nothing.
  void print_notes(std::ostream& out) const;
  // The text file to read: dataset, or the shipped Shakespeare when it is empty.
  std::string dataset_path() const;
  // The text of alias key when it was given, "" when it holds its declared default.
  std::string alias_given(const std::string& key) const;
  std::string with_aliases(const std::string& text, const nn::OptionsDecl& decl, const std::string& owner) const;
  // Throws naming the dataset and block_size when its train or val split is too short for
  // one window of block_size + 1 tokens (x and the y one token later).
  void check_splits(const Dataset& data) const;
};

}  // namespace attic::train
