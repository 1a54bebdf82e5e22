#include "train/restore.h"

#include "train/checkpoint_shapes.h"

#include "models/gpt/gpt2_folder.h"

namespace attic::train {

using namespace util;

// The config the checkpoint was saved with, alone: it must pass validate() by itself, and
// its errors are the file's, not the command line's.
static TrainConfig saved_config(const CheckpointFile& file, const std::string& out_dir) {
  const TrainConfig saved = TrainConfig::from_checkpoint(file.info, out_dir);
  naming_file(file.path, [&] { saved.validate(); });
  return saved;
}

Restored restore(const std::string& out_dir, const Options& given) {
  Restored r;
  const CheckpointFile file = read_checkpoint(out_dir);
  r.info = file.info;
  (void)saved_config(file, out_dir);
  r.config = TrainConfig::from_checkpoint(r.info, out_dir, given);
  r.config.validate();
  naming_file(file.path, [&] {
    r.tokenizer = r.info.make_tokenizer();
    check_config_against_tensors(r.config, r.tokenizer->vocab_size(), file.tensors, file.path);
    r.model = models::make_model(r.config.model, r.config.model_spec(r.tokenizer->vocab_size()));
  });
  load_model(file, *r.model, r.config.block_attention(), r.config.block_attention_options());
  r.model->eval();
  return r;
}

Restored restore_gpt2(const TrainConfig& cfg) {
  Restored r;
  r.config = cfg;
  auto tok = std::make_unique<BpeTokenizer>(models::read_gpt2_tokenizer(cfg.gpt2_dir));
  std::unique_ptr<models::GPT> gpt = models::load_gpt2(cfg.gpt2_dir, cfg.init_from, cfg.block_size, 0.0);
  ATTIC_CHECK(tok->vocab_size() == gpt->config.vocab_size, "gpt2_dir '", cfg.gpt2_dir, "': its tokenizer has ",
              tok->vocab_size(), " tokens, its config.json vocab_size ", gpt->config.vocab_size);
  r.model = std::move(gpt);
  r.info.tokenizer = tok->kind();
  r.info.vocabulary = tok->record();
  r.info.attention = "softmax";
  r.tokenizer = std::move(tok);
  return r;
}

TrainConfig resume_config(const std::string& out_dir, const Options& given) {
  const CheckpointFile file = read_checkpoint(out_dir);
  const TrainConfig saved = saved_config(file, out_dir);
  naming_file(file.path, [&] {
    const std::unique_ptr<Tokenizer> tokenizer = file.info.make_tokenizer();
    check_config_against_tensors(saved, tokenizer->vocab_size(), file.tensors, file.path);
    // Built once here, from the saved config alone, so that what the model's constructors
    // refuse (n_embd not a multiple of n_head, an attention's unknown option) is reported as
    // the checkpoint's error; the sizes now match the file, so this is no larger than it.
    (void)models::make_model(saved.model, saved.model_spec(tokenizer->vocab_size()));
  });
  TrainConfig cfg = TrainConfig::from_checkpoint(file.info, out_dir, given);
  // reset_optimizer acts once, where it is given: never taken from the checkpoint.
  bool reset_given = false;
  for (const auto& [key, text] : given.assigned()) reset_given = reset_given || key == "reset_optimizer";
  if (!reset_given) cfg.reset_optimizer = false;
  return cfg;
}

}  // namespace attic::train
