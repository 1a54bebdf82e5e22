// attic train: nanoGPT's train.py loop.
//
// Per iteration: set the learning rate from the schedule; every eval_interval iterations
// estimate train and val loss (and checkpoint if val improved); then gradient accumulation
// over micro-batches, gradient clipping, one AdamW step.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <limits>

#include "autograd/anomaly_mode.h"
#include "cli/checkpoint.h"
#include "cli/commands.h"
#include "cli/device.h"
#include "cli/lm_factory.h"
#include "cli/train_config.h"
#include "data/text_dataset.h"
#include "optim/optim.h"
#include "tensor/threads.h"
#include "util/atomic_file.h"
#include "viz/line_plot.h"

namespace attic::cli {

namespace {

using Clock = std::chrono::steady_clock;

// Reads config files (bare arguments) and --key=value flags, in order, echoing overrides.
void parse_args(Options& opts, const std::vector<std::string>& args, const char* command) {
  for (const std::string& a : args) {
    if (a == "--help" || a == "-h") {
      std::cout << "usage: attic " << command << " [config files] [--key=value ...]\nkeys:\n"
                << opts.usage();
      std::exit(0);
    }
    if (a.rfind("--", 0) == 0) opts.apply_flag(a, std::cout);
    else opts.load_file(a, std::cout);
  }
}

// Mean loss over eval_iters batches of each split. The batches come from a generator seeded
// by (seed, iteration), not from the training generator, so evaluating never changes what
// the training sees: a resumed run repeats an uninterrupted one exactly.
std::pair<double, double> estimate_loss(TrainableLM& lm, const TextDataset& data,
                                        const TrainConfig& cfg, int64_t iter, Device device) {
  NoGradGuard no_grad;
  nn::Module& model = lm.module();
  model.eval();
  double result[2] = {0, 0};
  for (Split split : {Split::Train, Split::Val}) {
    Generator gen(uint64_t(cfg.seed) * 1000003u + uint64_t(iter) + (split == Split::Val ? 7919u : 0u));
    double total = 0;
    for (int64_t k = 0; k < cfg.eval_iters; ++k) {
      Batch b = data.get_batch(split, cfg.batch_size, cfg.block_size, gen);
      total += lm.loss(b.x.to(device), b.y.to(device)).item<double>();
    }
    result[split == Split::Val] = total / double(cfg.eval_iters);
  }
  model.train();
  return {result[0], result[1]};
}

std::string fmt_eta(double seconds) {
  const int64_t s = int64_t(seconds);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh%02lldm", (long long)(s / 3600), (long long)(s % 3600 / 60));
  else std::snprintf(buf, sizeof buf, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  return buf;
}

}  // namespace

int train(const std::vector<std::string>& args) {
  TrainConfig cfg;
  Options opts;
  cfg.bind(opts);
  parse_args(opts, args, "train");
  cfg.validate();
  // The first NaN/Inf throws attic::Error, which main prints as one line and exits 2.
  autograd::DetectAnomalyGuard anomaly(cfg.detect_anomaly);
  if (cfg.threads > 0) set_num_threads(int(cfg.threads));
  const Device device = device_from_flag(cfg.device);

  const std::string data_path = cfg.dataset.empty() ? default_dataset_path() : cfg.dataset;
  const TextDataset data = TextDataset::from_file(data_path);
  std::cout << "dataset " << data_path << ": " << data.tokens().numel() << " characters, vocab "
            << data.vocab_size() << ", train " << data.size(Split::Train) << ", val "
            << data.size(Split::Val) << "\n";

  manual_seed(uint64_t(cfg.seed));
  int64_t iter = 0;
  double best_val = std::numeric_limits<double>::infinity();
  CheckpointInfo resumed;
  if (cfg.init_from == "resume") {
    // The model's shape comes from the checkpoint, as in nanoGPT.
    resumed = read_checkpoint_info(cfg.out_dir);
    TrainConfig saved;
    Options saved_opts;
    saved.bind(saved_opts);
    std::istringstream lines(resumed.config);
    for (std::string line; std::getline(lines, line);) {
      const size_t eq = line.find(" = ");
      if (eq != std::string::npos && saved_opts.has(line.substr(0, eq)))
        saved_opts.set(line.substr(0, eq), line.substr(eq + 3));
    }
    cfg.model = saved.model;
    cfg.attention = saved.attention;
    cfg.n_layer = saved.n_layer;
    cfg.n_head = saved.n_head;
    cfg.n_embd = saved.n_embd;
    cfg.block_size = saved.block_size;
    cfg.bias = saved.bias;
    ATTIC_CHECK(resumed.vocabulary == data.tokenizer().vocabulary(), "resume: the checkpoint in ",
                cfg.out_dir, " was trained on a different vocabulary than ", data_path);
  }
  std::unique_ptr<TrainableLM> lm = make_lm(cfg, data.vocab_size());
  nn::Module& model = lm->module();
  if (cfg.init_from == "resume") {
    resumed = load_model(cfg.out_dir, model);
    iter = resumed.iter_num;
    best_val = resumed.best_val_loss;
    std::cout << "resuming from " << model_path(cfg.out_dir) << " at iteration " << iter << "\n";
  }
  model.to(device);
  std::printf("number of parameters: %.2fM\n", double(lm->reported_params()) / 1e6);

  // nanoGPT's two groups: every tensor of 2 or more dims (matmul weights, embeddings)
  // decays; biases and LayerNorm weights do not.
  optim::ParamGroup decay{}, no_decay{};
  for (auto& [name, p] : model.named_parameters())
    (p.dim() >= 2 ? decay : no_decay).params.push_back(p);
  decay.weight_decay = cfg.weight_decay;
  no_decay.weight_decay = 0.0;
  optim::AdamW opt({decay, no_decay},
                   optim::AdamWOptions(cfg.learning_rate).betas({cfg.beta1, cfg.beta2}));
  if (cfg.init_from == "resume") {
    load_optimizer(cfg.out_dir, opt, iter);
    default_generator().set_state(resumed.rng);
  }

  std::filesystem::create_directories(cfg.out_dir);
  std::vector<std::pair<double, double>> train_curve, eval_train, eval_val;
  const bool live = isatty(STDERR_FILENO);
  const int64_t tokens_per_iter = cfg.gradient_accumulation_steps * cfg.batch_size * cfg.block_size;
  double ms_avg = 0;
  const auto start = Clock::now();

  for (;; ++iter) {
    const double lr = cfg.decay_lr ? optim::cosine_with_warmup(iter, cfg.learning_rate, cfg.min_lr,
                                                               cfg.warmup_iters, cfg.lr_decay_iters)
                                   : cfg.learning_rate;
    optim::set_lr(opt, lr);

    if (iter % cfg.eval_interval == 0) {
      if (live) std::cerr << "\r\033[K" << std::flush;
      auto [tl, vl] = estimate_loss(*lm, data, cfg, iter, device);
      std::printf("step %lld: train loss %.4f, val loss %.4f\n", (long long)iter, tl, vl);
      std::fflush(stdout);
      eval_train.emplace_back(double(iter), tl);
      eval_val.emplace_back(double(iter), vl);
      util::write_file_atomic(cfg.out_dir + "/loss.svg",
          viz::line_plot_svg({{"train (per iteration)", "#c7d7ea", train_curve},
                              {"train (eval)", "#1f77b4", eval_train},
                              {"val (eval)", "#d62728", eval_val}},
                             "attic train: " + cfg.out_dir, "iteration", "loss"));
      if (vl < best_val || cfg.always_save_checkpoint) {
        best_val = std::min(best_val, vl);
        if (iter > 0) {
          save_checkpoint(cfg.out_dir, model, opt,
                          {opts.dump(), data.tokenizer().vocabulary(), iter, best_val,
                           default_generator().state()});
          std::cout << "saving checkpoint to " << cfg.out_dir << "\n";
        }
      }
    }
    if (iter == 0 && cfg.eval_only) break;

    const auto t0 = Clock::now();
    double loss_sum = 0;
    for (int64_t micro = 0; micro < cfg.gradient_accumulation_steps; ++micro) {
      Batch b = data.get_batch(Split::Train, cfg.batch_size, cfg.block_size, default_generator());
      Tensor loss = lm->loss(b.x.to(device), b.y.to(device));
      loss_sum += loss.item<double>();
      // Each micro-batch's mean loss is scaled so the summed gradients are the mean's.
      (loss / double(cfg.gradient_accumulation_steps)).backward();
    }
    if (cfg.grad_clip > 0) optim::clip_grad_norm_(model.parameters(), cfg.grad_clip);
    opt.step();
    opt.zero_grad();
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    const double loss = loss_sum / double(cfg.gradient_accumulation_steps);
    train_curve.emplace_back(double(iter), loss);
    ms_avg = ms_avg == 0 ? ms : 0.9 * ms_avg + 0.1 * ms;

    if (iter % cfg.log_interval == 0) {
      if (live) std::cerr << "\r\033[K" << std::flush;
      std::printf("iter %lld: loss %.4f, time %.2f ms\n", (long long)iter, loss, ms);
      std::fflush(stdout);
    }
    if (live) {
      std::fprintf(stderr, "\r\033[Kiter %lld/%lld | loss %.4f | %.1f ms/iter | %.0f tok/s | ETA %s",
                   (long long)iter, (long long)cfg.max_iters, loss, ms_avg,
                   double(tokens_per_iter) / (ms_avg / 1000.0),
                   fmt_eta(double(cfg.max_iters - iter) * ms_avg / 1000.0).c_str());
      std::fflush(stderr);
    }
    if (iter >= cfg.max_iters) break;
  }
  if (live) std::cerr << "\r\033[K" << std::flush;
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf("done: %lld iterations in %.1f s, best val loss %.4f\n", (long long)iter, secs, best_val);
  return 0;
}

}  // namespace attic::cli
