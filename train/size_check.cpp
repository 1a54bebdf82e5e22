#include "train/size_check.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "tensor/error.h"

namespace attic::train {

using namespace util;

namespace {

// "12.0 TiB" for any size, also those past what uint64 counts.
std::string bytes_text(double b) {
  if (b < 1.8e19) return str_bytes(uint64_t(b));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g bytes", b);
  return buf;
}

}  // namespace

double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0;
}

void check_size(const std::string& doing, const std::string& settings, const SizeEstimate& e) {
  const double have = physical_memory_bytes();
  const double countable = 9.2e18;  // about 2^63: past it no int64 counts the bytes
  const double limit = have > 0 ? std::min(have, countable) : countable;
  if (e.total() <= limit) return;
  fail(doing, " with ", settings, " would need about ", bytes_text(e.total()), " (weights and ",
       "gradients ", bytes_text(e.parameters), ", AdamW's moments ", bytes_text(e.optimizer),
       ", activations ", bytes_text(e.activations), "), more than ",
       have > 0 ? "this machine's " + bytes_text(have) + " of memory" : "int64 can count");
}

SizeEstimate train_size(const TrainConfig& cfg, int64_t vocab_size) {
  const double L = double(cfg.n_layer), C = double(cfg.n_embd), T = double(cfg.block_size);
  const double B = double(cfg.batch_size), V = double(vocab_size);
  const double weights = L * 12 * C * C + (V + T) * C;
  SizeEstimate e;
  e.parameters = 2 * 4 * weights;  // float32 weights and their gradients
  e.optimizer = 2 * 4 * weights;   // AdamW's m and v
  e.activations = 4 * (L * 20 * B * T * C + 2 * B * T * V);
  return e;
}

SizeEstimate seq2seq_size(const models::CopyTaskOptions& o) {
  const double L = double(o.model.n_layer), C = double(o.model.n_embd), H = double(o.model.hidden);
  const double S = double(o.symbols) + 1, T = double(o.length), NH = double(o.model.n_head);
  const double B = double(std::max(o.batch_size, o.eval_size));
  const double weights = L * (12 * C * C + 4 * C * H) + 2 * S * C + T * C;
  SizeEstimate e;
  e.parameters = 2 * 4 * weights;
  e.optimizer = 2 * 4 * weights;
  e.activations = 4 * (2 * L * (30 * B * T * C + 3 * B * NH * T * T) + 2 * B * T * S);
  return e;
}

}  // namespace attic::train
