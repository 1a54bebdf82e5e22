#include "cli/train_config.h"

#include "data/text_dataset.h"
#include "nn/attention/registry.h"
#include "tensor/error.h"

namespace attic::cli {

void TrainConfig::bind(Options& o) {
  o.bind("out_dir", out_dir, "where checkpoints and loss.svg go");
  o.bind("eval_interval", eval_interval, "evaluate (and maybe checkpoint) every N iterations");
  o.bind("log_interval", log_interval, "print an iter line every N iterations");
  o.bind("eval_iters", eval_iters, "batches averaged per split in an evaluation");
  o.bind("eval_only", eval_only, "evaluate once and exit");
  o.bind("always_save_checkpoint", always_save_checkpoint, "save at every eval, not only when val improves");
  o.bind("init_from", init_from, "scratch or resume (from out_dir)");
  o.bind("dataset", dataset, "text file to train on (default: the shipped Shakespeare)");
  o.bind("gradient_accumulation_steps", gradient_accumulation_steps, "micro-batches per step");
  o.bind("batch_size", batch_size, "B");
  o.bind("block_size", block_size, "T, the context length", KeyKind::Model);
  o.bind("model", model, "gpt or pooled_lm (block_size is then the window L)", KeyKind::Model);
  o.bind("attention", attention, "every block's attention: " + nn::attention_names(), KeyKind::Model);
  o.bind("attention_options", attention_options,
         "the attention's own options, \"key=value,...\" (none for softmax and linear)", KeyKind::Model);
  o.bind("n_layer", n_layer, "", KeyKind::Model);
  o.bind("n_head", n_head, "", KeyKind::Model);
  o.bind("n_embd", n_embd, "C", KeyKind::Model);
  o.bind("dropout", dropout);
  o.bind("bias", bias, "biases in Linear and LayerNorm", KeyKind::Model);
  o.bind("learning_rate", learning_rate, "peak learning rate");
  o.bind("max_iters", max_iters, "last iteration (the loop runs 0..max_iters)");
  o.bind("weight_decay", weight_decay, "AdamW decay of the matrices");
  o.bind("beta1", beta1);
  o.bind("beta2", beta2);
  o.bind("grad_clip", grad_clip, "clip the global gradient norm (0: off)");
  o.bind("decay_lr", decay_lr, "warmup then cosine decay");
  o.bind("warmup_iters", warmup_iters);
  o.bind("lr_decay_iters", lr_decay_iters);
  o.bind("min_lr", min_lr);
  o.bind("device", device, "cpu or cuda");
  o.bind("threads", threads, "CPU threads (0: all)");
  o.bind("seed", seed, "seeds init, batches and dropout");
  o.bind("detect_anomaly", detect_anomaly, "stop at the first NaN/Inf of a forward or backward, "
         "naming the op (slow)");
}

void TrainConfig::validate() const {
  ATTIC_CHECK(init_from == "scratch" || init_from == "resume",
              "init_from must be scratch or resume, got '", init_from, "'");
  ATTIC_CHECK(model == "gpt" || model == "pooled_lm", "model must be gpt or pooled_lm, got '", model, "'");
  (void)nn::find_attention(attention);  // throws for a name it does not know, listing the known ones
  ATTIC_CHECK(model == "gpt" || attention_options.empty(), "attention_options: the ", model,
              " model's attentions take no options, got '", attention_options, "'");
  ATTIC_CHECK(device == "cpu" || device == "cuda", "device must be cpu or cuda, got '", device, "'");
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

models::GPTConfig TrainConfig::model_config(int64_t vocab_size) const {
  models::GPTConfig c;
  c.block_size = block_size;
  c.vocab_size = vocab_size;
  c.n_layer = n_layer;
  c.n_head = n_head;
  c.n_embd = n_embd;
  c.dropout = dropout;
  c.bias = bias;
  c.attention = attention;
  c.attention_options = attention_options;
  c.validate();
  return c;
}

std::string TrainConfig::dataset_path() const {
  return dataset.empty() ? default_dataset_path() : dataset;
}

}  // namespace attic::cli
