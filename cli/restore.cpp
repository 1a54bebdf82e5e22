#include "cli/restore.h"

#include <sstream>

namespace attic::cli {

Restored restore(const std::string& out_dir) {
  Restored r;
  r.info = read_checkpoint_info(out_dir);
  Options opts;
  r.config.bind(opts);
  std::istringstream lines(r.info.config);
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find(" = ");
    // Keys this version does not know are skipped, so old checkpoints stay readable.
    if (eq != std::string::npos && opts.has(line.substr(0, eq)))
      opts.set(line.substr(0, eq), line.substr(eq + 3));
  }
  r.tokenizer = std::make_unique<CharTokenizer>(CharTokenizer::from_vocabulary(r.info.vocabulary));
  r.model = make_lm(r.config, r.tokenizer->vocab_size());
  load_model(out_dir, r.model->module());
  r.model->module().eval();
  return r;
}

}  // namespace attic::cli
