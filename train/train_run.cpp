// nanoGPT's train.py loop.
//
// Per iteration: set the learning rate from the schedule; every eval_interval iterations
// estimate train and val loss (and checkpoint if val improved); then gradient accumulation
// over micro-batches, gradient clipping, one optimizer step (AdamW, or SGD: make_optimizer.h).
#include "train/train_run.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>

#include "autograd/anomaly_mode.h"
#include "train/checkpoint.h"
#include "util/device_flag.h"
#include "train/estimate_loss.h"
#include "models/registry.h"
#include "train/out_of_memory.h"
#include "train/size_check.h"
#include "train/make_optimizer.h"
#include "train/epoch_order.h"
#include "train/train_batch.h"
#include "train/train_config.h"
#include "data/text_dataset.h"
#include "models/gpt/gpt2_folder.h"
#include "optim/optim.h"
#include "tensor/memory.h"
#include "tensor/threads.h"
#include "util/atomic_file.h"
#include "util/file_lock.h"
#include "viz/line_plot.h"

namespace attic::train {

using namespace util;

namespace {

using Clock = std::chrono::steady_clock;
using Curve = std::vector<std::pair<double, double>>;

// What the loop carries from one iteration to the next (train.py's globals).
struct State {
  int64_t iter = 0;                                           // iter_num
  int64_t first_iter = 0;  // where this run began: 0, or the resumed checkpoint's iter_num
  double best_val = std::numeric_limits<double>::infinity();  // best_val_loss
  Curve train_curve, eval_train, eval_val;                    // the lines of loss.svg
  double ms_avg = 0;  // milliseconds per iteration, a moving average for the live line
  double train_ms = 0;     // time spent in training steps so far
  double timed_ms = 0;     // the same without the first step, which warms the allocator up
  int64_t timed_steps = 0;
  std::vector<EvalPoint> evals;
};

// The data to train on, with its size, vocabulary and split printed.
std::unique_ptr<Dataset> load_dataset(const TrainConfig& cfg) {
  const std::string path = cfg.dataset_path();
  std::unique_ptr<Dataset> data = open_dataset(path);
  cfg.check_splits(*data);
  std::cout << "dataset " << path << ": " << data->describe() << ", vocab " << data->vocab_size() << ", train "
            << data->size(Split::Train) << ", val " << data->size(Split::Val) << "\n";
  // The tokenizer reads bytes, as nanoGPT's reads characters; beyond ASCII the two differ.
  if (const auto* text = dynamic_cast<const TextDataset*>(data.get())) {
    const std::string& v = text->tokenizer().vocabulary();
    const auto high = std::count_if(v.begin(), v.end(), [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
    if (high > 0)
      std::cout << "note: " << high << " of the " << v.size() << " tokens are bytes 0x80..0xff: attic's character "
                << "tokenizer reads bytes, and a character beyond ASCII is 2 to 4 of them in UTF-8\n";
  }
  return data;
}

// The GPT-2 folder's tokenizer, which a run with init_from = gpt2 ... records in its
// checkpoints (any other run records the dataset's): the dataset's ids must be in its
// vocabulary, and the dataset's tokenizer, if it has one, must be the same.
std::unique_ptr<BpeTokenizer> gpt2_tokenizer(const TrainConfig& cfg, const Dataset& data) {
  auto tok = std::make_unique<BpeTokenizer>(models::read_gpt2_tokenizer(cfg.gpt2_dir));
  ATTIC_CHECK(!data.has_tokenizer() || data.tokenizer().same_as(*tok), "dataset ", cfg.dataset_path(),
              " was tokenized with another tokenizer than GPT-2's of ", cfg.gpt2_dir,
              " (attic data bpe --tokenizer=", cfg.gpt2_dir, " writes one with it)");
  ATTIC_CHECK(data.vocab_size() <= tok->vocab_size(), "dataset ", cfg.dataset_path(), " holds ids up to ",
              data.vocab_size() - 1, ", beyond GPT-2's vocabulary of ", tok->vocab_size());
  return tok;
}

// init_from = resume: the weights, AdamW's state, the iteration, the best val loss and the
// training generator as the checkpoint left them, so that the run goes on as an
// uninterrupted one would have.
void resume(const TrainConfig& cfg, const Tokenizer& tokenizer, nn::Module& model,
            optim::Optimizer& opt, State& s) {
  const CheckpointFile file = read_checkpoint(cfg.out_dir);
  const CheckpointInfo& ckpt = file.info;
  ATTIC_CHECK(ckpt.same_tokenizer(tokenizer), "resume: the checkpoint in ",
              cfg.out_dir, " was trained on a different vocabulary than ",
              cfg.dataset_path());
  load_model(file, model, cfg.block_attention(), cfg.block_attention_options());
  if (cfg.reset_optimizer)
    std::cout << "reset_optimizer: AdamW starts afresh; " << optimizer_path(cfg.out_dir) << " is not read\n";
  else {
    // The settings this resume runs with win over the file's: each group's weight decay is
    // what configure_optimizers gave it from cfg (the learning rate is set every iteration,
    // and the betas are not in the file). Unchanged keys give the file's values back.
    std::vector<double> decay;
    for (const optim::ParamGroup& g : opt.param_groups()) decay.push_back(g.weight_decay);
    load_optimizer(cfg.out_dir, opt, ckpt);
    for (size_t i = 0; i < decay.size(); ++i) opt.param_groups()[i].weight_decay = decay[i];
  }
  default_generator().set_state(ckpt.rng);
  s.iter = ckpt.iter_num;
  s.best_val = ckpt.best_val_loss;
  std::cout << "resuming from " << model_path(cfg.out_dir) << " at iteration " << s.iter << "\n";
}

// A NaN or Inf loss ends the run at once, before anything is saved, with one line naming the
// iteration and the keys most likely at fault: the weights it would save are not finite, or
// are about to stop being so. (--detect_anomaly finds the op that made it.)
void stop_if_not_finite(const TrainConfig& cfg, int64_t iter, const char* what, double loss) {
  if (std::isfinite(loss)) return;
  fail("train: ", what, " at iteration ", iter, " is ", loss, ": training stopped, and out_dir ",
       "keeps its last good checkpoint; lower learning_rate (", cfg.learning_rate,
       ") or weight_decay (", cfg.weight_decay, "), or set grad_clip (", cfg.grad_clip,
       "); --detect_anomaly names the op");
}

// Every eval_interval iterations: estimate_loss, log it, redraw loss.svg, and checkpoint
// when the val loss is the best so far (or always_save_checkpoint), never at step 0 and never
// at a resumed run's first iteration, whose weights the checkpoint already holds (so that a
// resume whose new keys then fail leaves the checkpoint as it was).
void evaluate_and_checkpoint(const TrainConfig& cfg, const Options& opts, const Dataset& data,
                             const Tokenizer& tokenizer, models::LanguageModel& lm, optim::Optimizer& opt, Device device, State& s) {
  const Losses losses = estimate_loss(lm, data, cfg, s.iter, device);
  std::printf("step %lld: train loss %.4f, val loss %.4f\n", (long long)s.iter, losses.train,
              losses.val);
  std::fflush(stdout);
  stop_if_not_finite(cfg, s.iter, "the evaluated train loss", losses.train);
  stop_if_not_finite(cfg, s.iter, "the evaluated val loss", losses.val);
  s.eval_train.emplace_back(double(s.iter), losses.train);
  s.eval_val.emplace_back(double(s.iter), losses.val);
  s.evals.push_back({s.iter, s.train_ms / 1000.0, losses.train, losses.val});
  util::write_file_atomic(cfg.out_dir + "/loss.svg",
      viz::line_plot_svg({{"train (per iteration)", "#c7d7ea", s.train_curve},
                          {"train (eval)", "#1f77b4", s.eval_train},
                          {"val (eval)", "#d62728", s.eval_val}},
                         "attic train: " + cfg.out_dir, "iteration", "loss"));
  if (losses.val < s.best_val || cfg.always_save_checkpoint) {
    s.best_val = std::min(s.best_val, losses.val);
    if (s.iter > s.first_iter) {
      save_checkpoint(cfg.out_dir, lm, opt,
                      {.config = opts.dump(),
                       .attention = cfg.block_attention(),
                       .attention_options = cfg.block_attention_options(),
                       .tokenizer = tokenizer.kind(),
                       .vocabulary = tokenizer.record(),
                       .iter_num = s.iter,
                       .best_val_loss = s.best_val,
                       .rng = default_generator().state(),
                       .optimizer_fnv1a64 = ""});  // save_checkpoint fills it in
      std::cout << "saving checkpoint to " << cfg.out_dir << "\n";
    }
  }
}

// One optimizer step over gradient_accumulation_steps micro-batches; returns their mean loss.
// The batches come from the epoch's order with max_epochs, else from train_batch.
double train_step(const TrainConfig& cfg, const Dataset& data, EpochOrder* epochs, models::LanguageModel& lm,
                  optim::Optimizer& opt, Device device, int64_t iter) {
  double loss_sum = 0;
  for (int64_t micro = 0; micro < cfg.gradient_accumulation_steps; ++micro) {
    Batch b = epochs ? epochs->batch(iter, micro) : train_batch(cfg, data, iter, micro);
    const DType compute = cfg.compute_dtype();
    Tensor loss;
    {
      // The forward's products in bfloat16 (dtype = bfloat16); their backward follows them.
      const AutocastGuard cast(compute);
      loss = lm.loss(b.x.to(device), b.y.to(device));
    }
    loss_sum += loss.item<double>();
    // Each micro-batch's mean loss is scaled so the summed gradients are the mean's.
    (loss / double(cfg.gradient_accumulation_steps)).backward();
  }
  if (cfg.grad_clip > 0) optim::clip_grad_norm_(lm.parameters(), cfg.grad_clip);
  opt.step();
  opt.zero_grad();
  return loss_sum / double(cfg.gradient_accumulation_steps);
}

std::string fmt_eta(double seconds) {
  const int64_t s = int64_t(seconds);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", (long long)(s / 3600), (long long)(s % 3600 / 60));
  else std::snprintf(buf, sizeof buf, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  return buf;
}

// The "iter N: loss, time" line every log_interval iterations (nanoGPT's), and on a
// terminal a live line on stderr: ms per iteration, tokens per second, time left.
void log_progress(const TrainConfig& cfg, const RunHooks& hooks, int64_t last_iter, double loss, double ms,
                  bool live, State& s) {
  s.train_curve.emplace_back(double(s.iter), loss);
  s.ms_avg = s.ms_avg == 0 ? ms : 0.9 * s.ms_avg + 0.1 * ms;
  if (s.iter % cfg.log_interval == 0) {
    if (live) std::cerr << "\r\033[K" << std::flush;
    std::printf("iter %lld: loss %.4f, time %.2f ms\n", (long long)s.iter, loss, ms);
    std::fflush(stdout);
  }
  if (live) {
    const int64_t tokens_per_iter = cfg.gradient_accumulation_steps * cfg.batch_size * cfg.block_size;
    std::fprintf(stderr, "\r\033[K%s%siter %lld/%lld | loss %.4f | %.1f ms/iter | %.0f tok/s | ETA %s",
                 hooks.label.c_str(), hooks.label.empty() ? "" : " | ", (long long)s.iter,
                 (long long)last_iter, loss, s.ms_avg,
                 double(tokens_per_iter) / (s.ms_avg / 1000.0),
                 fmt_eta(double(last_iter - s.iter) * s.ms_avg / 1000.0).c_str());
    std::fflush(stderr);
  }
}

}  // namespace

RunResult train_run(const TrainConfig& cfg, const Options& opts, const RunHooks& hooks) {
  // The first NaN/Inf throws attic::Error, which main prints as one line and exits 2.
  autograd::DetectAnomalyGuard anomaly(cfg.detect_anomaly);
  if (cfg.threads > 0) set_num_threads(int(cfg.threads));
  const Device device = device_from_flag(cfg.device);
  // Peak memory counts what this run adds to what the process held before it.
  const size_t held_before = memory_stats(device).in_use;
  reset_peak_memory(device);
  cfg.print_notes(std::cout);
  const std::unique_ptr<Dataset> data_ptr = load_dataset(cfg);
  const Dataset& data = *data_ptr;
  const std::unique_ptr<BpeTokenizer> gpt2_tok = cfg.from_gpt2() ? gpt2_tokenizer(cfg, data) : nullptr;
  const Tokenizer& tokenizer = gpt2_tok ? *gpt2_tok : data.tokenizer();
  // A size the machine cannot hold is refused before the out_dir is touched.
  if (device == Device::CPU)
    check_size("train: the model", step_size_settings(cfg), train_size(cfg, tokenizer.vocab_size()));
  manual_seed(uint64_t(cfg.seed));
  std::unique_ptr<models::LanguageModel> lm =
      naming_settings("train: building the model", model_size_settings(cfg), [&] {
        std::unique_ptr<models::LanguageModel> m;
        if (cfg.from_gpt2()) {
          m = models::load_gpt2(cfg.gpt2_dir, cfg.init_from, cfg.block_size, cfg.dropout);
          m->train();
          std::cout << "initialized from " << cfg.init_from << " in " << cfg.gpt2_dir << "\n";
        } else {
          m = models::make_model(cfg.model, cfg.model_spec(tokenizer.vocab_size()));
        }
        m->to(device);
        return m;
      });
  const std::unique_ptr<optim::Optimizer> optimizer = make_optimizer(cfg, *lm);
  optim::Optimizer& opt = *optimizer;
  // With max_epochs the run's length is the epochs': E · I steps, evaluated at every epoch's
  // end too, and the loop stops at iteration E · I after that evaluation.
  std::optional<EpochOrder> epochs;
  if (cfg.max_epochs > 0) {
    epochs.emplace(cfg, data);
    std::printf("max_epochs = %lld: %lld windows of %lld tokens, one every %lld, %lld iterations per epoch, "
                "%lld in all (max_iters is not used)\n", (long long)cfg.max_epochs, (long long)epochs->windows(),
                (long long)cfg.block_size, (long long)epochs->stride(), (long long)epochs->iters_per_epoch(),
                (long long)epochs->last_iter());
  }
  const int64_t last_iter = epochs ? epochs->last_iter() : cfg.max_iters;
  const int64_t iters_per_epoch = epochs ? epochs->iters_per_epoch() : 0;
  State s;
  // Reading a checkpoint writes nothing, so a resume that is refused leaves the out_dir as
  // it was; the lock comes after it.
  if (cfg.init_from == "resume") resume(cfg, tokenizer, *lm, opt, s);
  // One training per out_dir: the lock is held until the run returns or the process ends.
  std::filesystem::create_directories(cfg.out_dir);
  const util::FileLock lock(cfg.out_dir + "/train.lock", "out_dir '" + cfg.out_dir + "'");
  std::printf("number of parameters: %.2fM\n", double(lm->reported_params()) / 1e6);

  const bool live = isatty(STDERR_FILENO);
  const auto start = Clock::now();
  s.first_iter = s.iter;
  for (;; ++s.iter) {
    optim::set_lr(opt, cfg.lr_at(std::min(s.iter, last_iter), iters_per_epoch));
    if (s.iter % cfg.eval_interval == 0 || (epochs && s.iter % iters_per_epoch == 0)) {
      if (live) std::cerr << "\r\033[K" << std::flush;
      naming_settings("train: evaluating", step_size_settings(cfg),
                      [&] { evaluate_and_checkpoint(cfg, opts, data, tokenizer, *lm, opt, device, s); });
    }
    if (s.iter == s.first_iter && cfg.eval_only) break;
    if (epochs && s.iter >= last_iter) break;  // every epoch trained, and evaluated above
    const auto t0 = Clock::now();
    const double loss = naming_settings("train: a training step", step_size_settings(cfg), [&] {
      return train_step(cfg, data, epochs ? &*epochs : nullptr, *lm, opt, device, s.iter);
    });
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    stop_if_not_finite(cfg, s.iter, "the training loss", loss);
    s.train_ms += ms;
    if (s.iter > s.first_iter) {
      s.timed_ms += ms;
      ++s.timed_steps;
    }
    log_progress(cfg, hooks, last_iter, loss, ms, live, s);
    if (!epochs && s.iter >= cfg.max_iters) break;
  }
  if (live) std::cerr << "\r\033[K" << std::flush;
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("done: %lld iterations in %.1f s, best val loss %.4f\n", (long long)s.iter, secs,
              s.best_val);
  if (!std::filesystem::exists(model_path(cfg.out_dir))) {
    if (s.iter == 0)
      std::printf("no checkpoint written: as in nanoGPT, iteration 0 is never saved; train at least one "
                  "iteration (max_iters >= 1) for a checkpoint to sample, evaluate or resume\n");
    else
      std::printf("no checkpoint written: as in nanoGPT, iteration 0 is never saved, and no later evaluation "
                  "improved on its val loss %.4f (always_save_checkpoint = true saves every evaluation)\n",
                  s.best_val);
  }

  RunResult r;
  r.params = lm->reported_params();
  r.iters = s.iter;
  r.epochs = epochs ? epochs->epoch_of(s.iter) : 0;
  r.evals = std::move(s.evals);
  r.best_val = s.best_val;
  r.ms_per_iter = s.timed_steps > 0 ? s.timed_ms / double(s.timed_steps) : s.train_ms;
  const int64_t tokens_per_iter = cfg.gradient_accumulation_steps * cfg.batch_size * cfg.block_size;
  r.tokens_per_s = r.ms_per_iter > 0 ? double(tokens_per_iter) / (r.ms_per_iter / 1000.0) : 0;
  r.peak_bytes = memory_stats(device).peak - held_before;
  r.device = device_name(device);
  r.val_chars_per_token = data.chars_per_token(Split::Val);
  std::printf("peak memory: %s (%s)\n", format_mib(r.peak_bytes).c_str(), r.device.c_str());
  std::fflush(stdout);
  return r;
}

}  // namespace attic::train
