// attic seq2seq: trains the encoder-decoder (models/transformer) on the Annotated
// Transformer's copy task, or its reverse, and reports held-out greedy accuracy.
//
//   attic seq2seq --task=copy --threads=1
//   attic seq2seq --task=reverse --attention=linear_elu --steps=3000
//   attic seq2seq --task=reverse --attention=linformer --k=5   # the Linformer's encoder-decoder
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include "util/command_line.h"
#include "cli/commands.h"
#include "train/out_of_memory.h"
#include "train/size_check.h"
#include "models/linformer/enc_dec.h"
#include "models/transformer/copy_task.h"
#include "models/registry.h"
#include "nn/attention/declared_options.h"
#include "tensor/threads.h"

namespace attic::cli {

using namespace train;
using namespace util;

int seq2seq(const std::vector<std::string>& args) {
  models::CopyTaskOptions o;
  o.log_interval = 100;
  std::string task = "copy", attention = "softmax", attention_options;
  int64_t threads = 0, seed = 1, k = 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  Options opts;
  opts.bind("task", task, "copy or reverse");
  opts.bind("length", o.length, "symbols per sequence").int_range(1, kMax);
  opts.bind("symbols", o.symbols, "alphabet size (ids 1..symbols; 0 starts decoding)").int_range(1, kMax - 1);
  opts.bind("steps", o.steps, "training steps").int_range(0, kMax);
  opts.bind("batch_size", o.batch_size).int_range(1, kMax);
  opts.bind("learning_rate", o.learning_rate, "peak (warmup then cosine)")
      .float_range(0, std::numeric_limits<double>::infinity(), /*lo_open=*/true);
  opts.bind("eval_size", o.eval_size, "held-out sequences decoded greedily").int_range(1, kMax);
  opts.bind("log_interval", o.log_interval, "print the loss every N steps (0: never)").int_range(0, kMax);
  opts.bind("n_layer", o.model.n_layer, "encoder blocks (and as many decoder blocks)").int_range(1, kMax);
  opts.bind("n_head", o.model.n_head).int_range(1, kMax);
  opts.bind("n_embd", o.model.n_embd).int_range(1, kMax);
  opts.bind("hidden", o.model.hidden, "feed-forward width").int_range(1, kMax);
  opts.bind("attention", attention, "softmax, linear_elu or linear_exp in the blocks' encoder-decoder, or "
            "linformer: the Linformer's own (LinformerEncDec, decoder causal=prefix)");
  opts.bind("attention_options", attention_options, "linformer: its options, \"k=4,sharing=kv\" "
            "(k: slots per head, default length / 2; sharing: headwise)");
  opts.bind("k", k, "the first spelling of attention_options k (0: not given)").int_range(0, kMax);
  opts.bind("seed", seed).int_range(0, kMax);
  opts.bind("threads", threads, "CPU threads (0: all)").int_range(0, kMaxThreads);
  if (!parse_command_line(opts, args, "usage: attic seq2seq [--key=value ...]", std::cout)) return 0;
  ATTIC_CHECK(task == "copy" || task == "reverse", "task must be copy or reverse, got '", task, "'");
  o.reverse = task == "reverse";
  o.seed = uint64_t(seed);
  // What sizes the run, for the size check and for an allocation that fails on the way.
  const std::string settings =
      "length=" + std::to_string(o.length) + " symbols=" + std::to_string(o.symbols) +
      " batch_size=" + std::to_string(o.batch_size) + " eval_size=" + std::to_string(o.eval_size) +
      " n_layer=" + std::to_string(o.model.n_layer) + " n_head=" + std::to_string(o.model.n_head) +
      " n_embd=" + std::to_string(o.model.n_embd) + " hidden=" + std::to_string(o.model.hidden);
  check_size("seq2seq", settings, seq2seq_size(o));
  if (threads > 0) set_num_threads(int(threads));
  manual_seed(uint64_t(seed));
  models::CopyTaskResult r;
  if (attention == "linformer") {
    namespace lf = models::linformer;
    o.validate();
    // --k is an alias of the option k, declared here, where it was first spelt.
    nn::AttentionArgs given = nn::AttentionArgs::parse(attention_options);
    ATTIC_CHECK(k == 0 || !given.has("k"), "seq2seq: the linformer attention's option k is given twice: in "
                "attention_options and as --k");
    if (k > 0) given = nn::AttentionArgs::parse(attention_options + (attention_options.empty() ? "" : ",") +
                                                "k=" + std::to_string(k));
    lf::NamedOptions defaults;
    defaults.k = std::max<int64_t>(1, o.length / 2);
    defaults.sharing = lf::Sharing::Headwise;
    const lf::NamedOptions named = lf::read_named_options(given, defaults);
    lf::LinformerEncDecOptions lo;
    for (lf::LinformerLMOptions* side : {&lo.enc, &lo.dec}) {
      *side = side == &lo.enc ? lf::LinformerEncDecOptions::encoder_defaults(o.symbols + 1, o.length, o.model.n_embd)
                              : lf::LinformerEncDecOptions::decoder_defaults(o.symbols + 1, o.length, o.model.n_embd);
      side->dropout_tokens = 0;
      lf::LinformerOptions& b = side->body;
      b.dim_k = named.k;
      b.dim_ff = o.model.hidden;
      b.nhead = o.model.n_head;
      b.depth = o.model.n_layer;
      b.dropout = 0;
      b.dropout_ff = 0;
      b.parameter_sharing = named.sharing;
      b.method = named.method;
      b.checkpoint_level = named.checkpoint;
    }
    lo.dec.body.causal = named.causal;
    r = naming_settings("seq2seq", settings, [&] {
      lf::LinformerEncDec model(lo);
      return models::train_seq2seq(model, o, &std::cout);
    });
  } else {
    ATTIC_CHECK(k == 0, "seq2seq: k is the linformer attention's option, got k ", k, " with attention ", attention);
    (void)nn::read_options<nn::NoOptions>(nn::AttentionArgs::parse(attention_options), attention);
    o.model.attention = models::find_attention(attention).name;
    r = naming_settings("seq2seq", settings, [&] { return models::train_copy_task(o, &std::cout); });
  }
  std::printf("%s, %lld symbols from 1..%lld, %s attention: final train loss %.4f; held-out "
              "(%lld sequences): token accuracy %.2f%%, exact match %.2f%%\n", task.c_str(),
              (long long)o.length, (long long)o.symbols, attention.c_str(), r.final_loss,
              (long long)o.eval_size, 100 * r.token_accuracy, 100 * r.exact_match);
  return 0;
}

}  // namespace attic::cli
