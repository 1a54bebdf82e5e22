#include "cli/restore.h"

namespace attic::cli {

Restored restore(const std::string& out_dir, const Options& given) {
  Restored r;
  r.info = read_checkpoint_info(out_dir);
  r.config = TrainConfig::from_checkpoint(r.info, out_dir, given);
  r.config.validate();
  r.tokenizer = std::make_unique<CharTokenizer>(CharTokenizer::from_vocabulary(r.info.vocabulary));
  r.model = make_lm(r.config, r.tokenizer->vocab_size());
  load_model(out_dir, r.model->module(), r.config.block_attention(),
             r.config.block_attention_options());
  r.model->module().eval();
  return r;
}

}  // namespace attic::cli
