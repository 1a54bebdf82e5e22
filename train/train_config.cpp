#include "train/train_config.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <limits>
#include <set>
#include <utility>
#include <vector>

#include "util/command_line.h"
#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "models/registry.h"
#include "optim/schedule.h"
#include "tensor/cpu/cpu_features.h"
#include "tensor/cpu/gemm_bf16.h"
#include "tensor/error.h"
#include "util/quote_value.h"
#include "util/utf8.h"

namespace attic::train {

using namespace util;

BoundTexts& BoundTexts::operator=(const BoundTexts& other) {
  if (this == &other) return *this;
  for (auto& [key, text] : *this) text = other.count(key) ? other.at(key) : std::string();
  for (const auto& [key, text] : other) (*this)[key] = text;
  return *this;
}

// Each number's range is checked as it is read, naming the key; validate() checks what
// needs two keys.
void TrainConfig::bind(Options& o) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  o.bind("out_dir", out_dir, "where checkpoints and loss.svg go").non_empty();
  o.bind("eval_interval", eval_interval, "evaluate (and maybe checkpoint) every N iterations").int_range(1, kMax);
  o.bind("log_interval", log_interval, "print an iter line every N iterations").int_range(1, kMax);
  o.bind("eval_iters", eval_iters, "batches averaged per split in an evaluation").int_range(1, kMax);
  o.bind("eval_only", eval_only, "evaluate once and exit");
  o.bind("always_save_checkpoint", always_save_checkpoint, "save at every eval, not only when val improves");
  o.bind("init_from", init_from, "scratch, resume (from out_dir), or gpt2, gpt2-medium, gpt2-large, "
         "gpt2-xl or huggingface (any shape), read from gpt2_dir").non_empty();
  o.bind("gpt2_dir", gpt2_dir, "with init_from = gpt2...: the folder of Hugging Face's files (config.json, "
         "model.safetensors, vocab.json, merges.txt)");
  o.bind("reset_optimizer", reset_optimizer, "with init_from = resume: load the model alone and "
         "start AdamW afresh (when optim.safetensors is lost or damaged)");
  o.bind("dataset", dataset, "text file to train on (default: the shipped Shakespeare), or digit_mul:4 / digit_mul:5 (generated)");
  o.bind("gradient_accumulation_steps", gradient_accumulation_steps, "micro-batches per step").int_range(1, kMax);
  o.bind("batch_size", batch_size, "B").int_range(1, kMax);
  o.bind("block_size", block_size, "T, the context length", KeyKind::Model).int_range(1, kMax);
  o.bind("model", model, models::model_names() + " (pooled_lm: block_size is the window L)", KeyKind::Model)
      .non_empty();
  o.bind("attention", attention, "every block's attention: " + models::attention_names(), KeyKind::Model)
      .non_empty();
  o.bind("attention_options", attention_options,
         "the attention's own options, \"key=value,...\" (none for softmax and linear)", KeyKind::Model);
  o.bind("n_layer", n_layer, "", KeyKind::Model).int_range(1, kMax);
  o.bind("n_head", n_head, "", KeyKind::Model).int_range(1, kMax);
  o.bind("n_embd", n_embd, "C", KeyKind::Model).int_range(1, kMax);
  std::set<std::string> bound;
  for (const models::DeclaredAlias& a : models::declared_aliases()) {
    if (!bound.insert(a.alias.key).second) continue;  // declared twice: bound once
    if (!aliased.count(a.alias.key)) aliased[a.alias.key] = a.default_text;
    const std::string whose = std::string(a.of_model ? "model " : "attention ") + a.owner + "'s option " +
                              a.alias.option + ", as its own key";
    o.bind(a.alias.key, aliased[a.alias.key], a.help.empty() ? whose : a.help + " (" + whose + ")", KeyKind::Model)
        .shown_as(a.type);
  }
  o.bind("dropout", dropout).float_range(0, 1, false, /*hi_open=*/true);
  o.bind("bias", bias, "biases in Linear and LayerNorm", KeyKind::Model);
  o.bind("learning_rate", learning_rate, "peak learning rate").float_range(0, kInf);
  o.bind("max_iters", max_iters, "last iteration (the loop runs 0..max_iters)").int_range(0, kMax);
  o.bind("max_epochs", max_epochs, "train this many shuffled passes over the train split's windows "
         "instead of max_iters iterations (0: max_iters)").int_range(0, kMax);
  o.bind("epoch_stride", epoch_stride, "max_epochs: a window starts every N tokens (0: every block_size, "
         "disjoint windows; 1: every offset)").int_range(0, kMax);
  o.bind("weight_decay", weight_decay, "AdamW decay of the matrices").float_range(0, kInf);
  o.bind("beta1", beta1).float_range(0, 1, false, /*hi_open=*/true);
  o.bind("beta2", beta2).float_range(0, 1, false, /*hi_open=*/true);
  o.bind("grad_clip", grad_clip, "clip the global gradient norm (0: off)").float_range(0, kInf);
  o.bind("optimizer", optimizer, "adamw (nanoGPT's, with beta1, beta2) or sgd (with momentum, dampening, "
         "nesterov)").non_empty();
  o.bind("momentum", momentum, "sgd: the momentum buffer's factor (0: plain SGD)").float_range(0, 1);
  o.bind("dampening", dampening, "sgd: the gradient's damping in the momentum buffer").float_range(0, 1);
  o.bind("nesterov", nesterov, "sgd: Nesterov momentum (needs momentum > 0 and dampening 0)");
  o.bind("decay_all", decay_all, "weight_decay on every parameter, as torch.optim.SGD(model.parameters()) "
         "does (false: the matrices only, as nanoGPT)");
  o.bind("decay_lr", decay_lr, "follow lr_schedule (false: constant learning_rate)");
  o.bind("lr_gamma", lr_gamma, "lr_schedule step, step_epochs: the factor every lr_step_size iterations "
         "(epochs)").float_range(0, 1);
  o.bind("lr_step_size", lr_step_size, "lr_schedule step, step_epochs: iterations (epochs) between two "
         "decays").int_range(1, kMax);
  o.bind("lr_schedule", lr_schedule, "step (PyTorch's StepLR: learning_rate · lr_gamma^⌊it / lr_step_size⌋), "
         "cosine (warmup then cosine decay), inverse_sqrt "
         "(learning_rate · min(1, √(warmup_iters / step))); with max_epochs, one rate per epoch e: "
         "cosine_epochs (CosineAnnealingLR, T_max = max_epochs, down to min_lr) or step_epochs "
         "(StepLR over epochs)").non_empty();
  o.bind("warmup_iters", warmup_iters).int_range(0, kMax);
  o.bind("lr_decay_iters", lr_decay_iters).int_range(1, kMax);
  o.bind("min_lr", min_lr).float_range(0, kInf);
  o.bind("device", device, "cpu or cuda").non_empty();
  o.bind("threads", threads, "CPU threads (0: all)").int_range(0, kMaxThreads);
  o.bind("seed", seed, "seeds init, batches and dropout").int_range(0, kMax);
  o.bind("batches", batches, "shared (drawn from the generator of init and dropout, as nanoGPT) or own "
         "(a generator per seed and iteration: the same batches whatever the model)").non_empty();
  o.bind("detect_anomaly", detect_anomaly, "stop at the first NaN/Inf of a forward or backward, "
         "naming the op (slow)");
  o.bind("dtype", dtype, "float32, or bfloat16: matrix products in bfloat16 summed in float32 "
         "(autocast); nanoGPT's train.py ignores dtype on the CPU, as float32 does").non_empty();
  o.bind("compile", compile, "nanoGPT's torch.compile; attic has no compile step, so true changes nothing");
  o.bind("wandb_log", wandb_log, "nanoGPT's Weights & Biases logging; attic has none (false only)");
  o.bind("wandb_project", wandb_project, "nanoGPT's, used only with wandb_log");
  o.bind("wandb_run_name", wandb_run_name, "nanoGPT's, used only with wandb_log");
  o.bind("backend", backend, "nanoGPT's DDP backend; attic trains in one process, so it is unused");
}

bool TrainConfig::from_gpt2() const { return models::is_gpt2_name(init_from); }

void TrainConfig::take_gpt2_shape(const Options& given) {
  const models::GPTConfig g = models::read_gpt2_config(gpt2_dir, init_from);
  const std::string where = "init_from = " + init_from + " is the GPT-2 of " + gpt2_dir + "/config.json";
  auto take = [&](const std::string& key, auto& field, const auto& value) {
    if (given.given(key) && field != value)
      fail(key, " = ", given.value(key), " was given, but ", where, ", whose ", key, " is ", value,
           " (only block_size, which may crop, and dropout change in a finetune)");
    field = value;
  };
  take("model", model, std::string("gpt"));
  take("attention", attention, std::string("softmax"));
  take("attention_options", attention_options, std::string());
  take("n_layer", n_layer, g.n_layer);
  take("n_head", n_head, g.n_head);
  take("n_embd", n_embd, g.n_embd);
  take("bias", bias, true);
  take("gelu", aliased["gelu"], g.gelu);
  if (!given.given("block_size")) block_size = g.block_size;
  ATTIC_CHECK(block_size <= g.block_size, "block_size = ", block_size, " is more than the ", g.block_size,
              " positions of ", where, " (a smaller one crops them, as nanoGPT's crop_block_size does)");
}

void TrainConfig::print_notes(std::ostream& out) const {
  if (compute_dtype() == kBFloat16 && device == "cpu" &&
      cpu::bf16_gemm_path() == cpu::Bf16Path::Convert)
    out << "note: dtype = bfloat16 on a CPU without AVX512_BF16 or NEON BF16 ("
        << cpu::cpu_level_summary() << "): the products round their operands to bfloat16 and run the float32 GEMM, so they "
           "give bfloat16's numbers more slowly than float32 does\n";
  if (compile)
    out << "note: compile = true: attic has no compile step. torch.compile fuses PyTorch's ops into "
           "kernels when the program runs; attic's kernels are C++ compiled ahead of time with the "
           "library, so there is nothing left to compile and the flag changes nothing\n";
}

DType TrainConfig::compute_dtype() const { return parse_autocast_dtype("dtype", dtype); }

void TrainConfig::validate() const {
  // The config is saved in the checkpoint as `key = value` lines, a string quoted with " or
  // with ' (Options::dump), and read back by the same reader: a value it could not read back
  // would make the checkpoint unloadable.
  std::vector<std::pair<std::string, const std::string*>> strings = {
      {"out_dir", &out_dir}, {"dataset", &dataset}, {"attention_options", &attention_options},
      {"gpt2_dir", &gpt2_dir}, {"wandb_project", &wandb_project}, {"wandb_run_name", &wandb_run_name},
      {"backend", &backend}, {"dtype", &dtype}, {"batches", &batches}, {"optimizer", &optimizer}};
  for (const auto& [key, text] : aliased) strings.emplace_back(key, &text);
  for (const auto& [key, v] : strings) {
    ATTIC_CHECK(v->find_first_of("\n\r") == std::string::npos, "config key '", key,
                "' must not hold a line break, got ", util::quote_value(*v));
    ATTIC_CHECK(v->find('"') == std::string::npos || v->find('\'') == std::string::npos,
                "config key '", key, "' must not hold both kinds of quote, got ",
                util::quote_value(*v));
    // The checkpoint's header is JSON, which is UTF-8 text.
    const size_t bad = util::first_invalid_utf8(*v);
    ATTIC_CHECK(bad == std::string::npos, "config key '", key, "' must be UTF-8 text (byte ", bad,
                " is not), got ", util::quote_value(*v));
  }
  std::error_code ec;
  ATTIC_CHECK(!std::filesystem::exists(out_dir, ec) || std::filesystem::is_directory(out_dir, ec),
              "out_dir '", out_dir, "' is a file; it must be a folder, or not exist yet");
  ATTIC_CHECK(init_from == "scratch" || init_from == "resume" || from_gpt2(),
              "init_from must be scratch, resume, gpt2, gpt2-medium, gpt2-large, gpt2-xl or huggingface, got ",
              util::quote_value(init_from));
  ATTIC_CHECK(batches == "shared" || batches == "own", "batches must be shared or own, got ",
              util::quote_value(batches));
  ATTIC_CHECK(compute_dtype() != kFloat16, "dtype = float16: attic trains and evaluates in float32 or bfloat16. "
              "float16 training needs a loss scaler (nanoGPT's GradScaler), which attic does not have, "
              "and the CPU has no float16 products; bfloat16 has float32's range and needs none");
  ATTIC_CHECK(!wandb_log, "wandb_log = true: attic does not log to Weights & Biases (it has no network "
              "client); its log is the iter lines it prints and out_dir/loss.svg. Give wandb_log = false");
  ATTIC_CHECK(!reset_optimizer || init_from == "resume",
              "reset_optimizer = true needs init_from = resume (a new run has a new optimizer anyway)");
  const models::ModelEntry& entry = models::find_model(model);  // throws listing the known names
  (void)models::find_attention(attention);  // throws for a name it does not know, listing the known ones
  // An alias sets an option of one attention or model: given for another, it is a mistake.
  for (const models::DeclaredAlias& a : models::declared_aliases()) {
    if (alias_given(a.alias.key).empty()) continue;
    if (a.of_model) {
      ATTIC_CHECK(model == a.owner, a.alias.key, " sets model ", a.owner, "'s option ", a.alias.option,
                  ": it needs model = ", a.owner, ", got model ", model);
    } else {
      std::string where = "attention = " + a.owner;
      for (const std::string& m : models::models_holding(a.owner)) where += " or model = " + m;
      ATTIC_CHECK(block_attention() == a.owner, a.alias.key, " sets attention ", a.owner, "'s option ",
                  a.alias.option, ": it needs ", where, " (model is ", model, ", attention ", attention, ")");
    }
  }
  // The model's own checks (an attention it cannot hold, an option it does not take); the
  // vocabulary does not enter them.
  entry.check(model_spec(/*vocab_size=*/1));
  ATTIC_CHECK(lr_schedule == "cosine" || lr_schedule == "inverse_sqrt" || lr_schedule == "step" || epoch_schedule(),
              "lr_schedule must be cosine, inverse_sqrt, step, cosine_epochs or step_epochs, got ",
              util::quote_value(lr_schedule));
  ATTIC_CHECK(!epoch_schedule() || !decay_lr || max_epochs > 0, "lr_schedule ", lr_schedule,
              " steps once per epoch: it needs max_epochs > 0, got max_epochs = ", max_epochs);
  ATTIC_CHECK(epoch_stride == 0 || max_epochs > 0, "epoch_stride = ", epoch_stride,
              " places an epoch's windows: it needs max_epochs > 0");
  ATTIC_CHECK(optimizer == "adamw" || optimizer == "sgd", "optimizer must be adamw or sgd, got ",
              util::quote_value(optimizer));
  ATTIC_CHECK(!nesterov || (optimizer == "sgd" && momentum > 0 && dampening == 0),
              "nesterov = true needs optimizer = sgd, momentum > 0 and dampening = 0 (PyTorch's rule), got "
              "optimizer = ", optimizer, ", momentum ", momentum, ", dampening ", dampening);
  ATTIC_CHECK(lr_schedule != "inverse_sqrt" || warmup_iters > 0,
              "lr_schedule inverse_sqrt needs warmup_iters > 0 (the step where the decay starts), got ",
              warmup_iters);
  ATTIC_CHECK(device == "cpu" || device == "cuda", "device must be cpu or cuda, got ", util::quote_value(device));
  ATTIC_CHECK(eval_interval > 0 && log_interval > 0 && eval_iters > 0,
              "eval_interval, log_interval and eval_iters must be positive");
  ATTIC_CHECK(gradient_accumulation_steps > 0, "gradient_accumulation_steps must be positive, got ",
              gradient_accumulation_steps);
  ATTIC_CHECK(batch_size > 0 && block_size > 0, "batch_size and block_size must be positive");
  ATTIC_CHECK(max_iters >= 0, "max_iters must be >= 0, got ", max_iters);
  ATTIC_CHECK(warmup_iters >= 0 && lr_decay_iters > warmup_iters,
              "need 0 <= warmup_iters < lr_decay_iters, got ", warmup_iters, " and ", lr_decay_iters);
  ATTIC_CHECK(threads >= 0, "threads must be >= 0, got ", threads);
  ATTIC_CHECK(grad_clip >= 0, "grad_clip must be >= 0, got ", grad_clip);
}

TrainConfig TrainConfig::from_checkpoint(const CheckpointInfo& info, const std::string& out_dir,
                                         const Options& given) {
  TrainConfig c;
  Options o;
  c.bind(o);
  // A config line is text: a NUL byte in it is damage, which a parser of C strings would
  // quietly cut the line at.
  const size_t nul = info.config.find('\0');
  ATTIC_CHECK(nul == std::string::npos, "checkpoint '", model_path(out_dir),
              "': its config holds a NUL byte at offset ", nul);
  o.load_text(info.config, "the config in " + model_path(out_dir), nullptr);
  for (const auto& [key, text] : given.assigned()) {
    if (o.kind(key) == KeyKind::Setting) {
      o.set(key, text);
      continue;
    }
    ATTIC_CHECK(given.value(key) == o.value(key), key, " = ", given.value(key), " was given, but the ",
                "checkpoint in ", out_dir, " was trained with ", key, " = ", o.value(key));
  }
  c.out_dir = out_dir;
  return c;
}

models::ModelSpec TrainConfig::model_spec(int64_t vocab_size) const {
  models::ModelSpec s;
  s.vocab_size = vocab_size;
  s.block_size = block_size;
  s.n_layer = n_layer;
  s.n_head = n_head;
  s.n_embd = n_embd;
  s.dropout = dropout;
  s.bias = bias;
  s.attention = attention;
  s.attention_options = block_attention_options();
  s.model_options = model_options();
  return s;
}

std::string TrainConfig::block_attention() const {
  return models::block_attention(model, attention);
}

std::string TrainConfig::alias_given(const std::string& key) const {
  const auto it = aliased.find(key);
  if (it == aliased.end()) return "";
  for (const models::DeclaredAlias& a : models::declared_aliases())
    if (a.alias.key == key && it->second == a.default_text) return "";
  return it->second;
}

// text with each alias of decl that was given appended as option=value; an option given
// both ways is an error naming both spellings.
std::string TrainConfig::with_aliases(const std::string& text, const nn::OptionsDecl& decl,
                                      const std::string& owner) const {
  const nn::AttentionArgs args = nn::AttentionArgs::parse(text);
  std::string out = text;
  for (const nn::OptionAlias& a : decl.aliases) {
    const std::string v = alias_given(a.key);
    if (v.empty()) continue;
    ATTIC_CHECK(!args.has(a.option), owner, "'s option ", a.option, " is given twice: in attention_options and as ",
                a.key);
    out += (out.empty() ? "" : ",") + a.option + "=" + v;
  }
  return out;
}

std::string TrainConfig::block_attention_options() const {
  const models::AttentionEntry& e = models::find_attention(block_attention());
  const std::string text = with_aliases(attention_options, e.options, "attention " + e.name);
  return e.options.record ? e.options.record(nn::AttentionArgs::parse(text), n_embd, n_head) : text;
}

std::string TrainConfig::model_options() const {
  const models::ModelEntry& e = models::find_model(model);
  return with_aliases("", e.options, "model " + e.name);
}

bool TrainConfig::epoch_schedule() const { return lr_schedule == "cosine_epochs" || lr_schedule == "step_epochs"; }

double TrainConfig::lr_at(int64_t iter, int64_t iters_per_epoch) const {
  if (!decay_lr) return learning_rate;
  if (epoch_schedule()) {
    ATTIC_CHECK(iters_per_epoch > 0 && max_epochs > 0, "lr_at: lr_schedule ", lr_schedule, " needs max_epochs and "
                "iterations per epoch, got ", max_epochs, " and ", iters_per_epoch);
    const int64_t epoch = iter / iters_per_epoch;
    if (lr_schedule == "step_epochs") return optim::step_decay(epoch, learning_rate, lr_gamma, lr_step_size);
    return optim::cosine_annealing(epoch, learning_rate, min_lr, max_epochs);
  }
  if (lr_schedule == "inverse_sqrt")
    return optim::inverse_sqrt(iter + 1, learning_rate, learning_rate * std::sqrt(double(warmup_iters)));
  if (lr_schedule == "step")
    return optim::step_decay(iter, learning_rate, lr_gamma, lr_step_size, warmup_iters);
  return optim::cosine_with_warmup(iter, learning_rate, min_lr, warmup_iters, lr_decay_iters);
}

std::string TrainConfig::dataset_path() const {
  return dataset.empty() ? default_dataset_path() : dataset;
}

void TrainConfig::check_splits(const Dataset& data) const {
  for (Split split : {Split::Train, Split::Val})
    ATTIC_CHECK(data.size(split) > block_size, "dataset ", dataset_path(), ": its ", split_name(split),
                " split has ", data.size(split), " tokens, too few for block_size = ", block_size,
                " (a window needs block_size + 1; the val split is the last 10% of the text)");
}

}  // namespace attic::train
