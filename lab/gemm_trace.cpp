// The record of gemm<float> calls and their replay; see gemm_trace.h.
#include "lab/gemm_trace.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <utility>

#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"
#include "tensor/random.h"

namespace attic::lab {

using cpu::parallel_for;

namespace {

// The record; calls from the pool's threads append under the lock.
std::atomic<bool> g_on{false};
std::mutex g_mu;
std::vector<GemmCall> g_calls;

// The GEMM's observer while a record runs.
void record_gemm(const GemmCall& call) {
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_on.load()) g_calls.push_back(call);
}

// The lowest and highest element offsets that rows x cols of a strided operand touch, from
// its element (0, 0): a stride may be negative.
std::pair<int64_t, int64_t> offset_range(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t r = (rows - 1) * rs, c = (cols - 1) * cs;
  return {std::min<int64_t>(r, 0) + std::min<int64_t>(c, 0),
          std::max<int64_t>(r, 0) + std::max<int64_t>(c, 0)};
}

// Values in [-1, 1), the same for a seed on every run.
void fill_uniform(std::vector<float>& v, uint64_t seed) {
  Generator g(seed);
  for (float& x : v) x = float(2 * g.uniform() - 1);
}

}  // namespace

void start_gemm_trace() {
  std::lock_guard<std::mutex> lock(g_mu);
  ATTIC_CHECK(!g_on.load(), "start_gemm_trace: a gemm trace is already running");
  ATTIC_CHECK(!cpu::gemm_observer(), "start_gemm_trace: another observer watches the GEMM");
  g_calls.clear();
  g_on.store(true);
  cpu::set_gemm_observer(record_gemm);
}

std::vector<GemmCall> stop_gemm_trace() {
  std::lock_guard<std::mutex> lock(g_mu);
  ATTIC_CHECK(g_on.load(), "stop_gemm_trace: no gemm trace is running");
  cpu::set_gemm_observer(nullptr);
  g_on.store(false);
  return std::exchange(g_calls, {});
}

bool gemm_trace_on() { return g_on.load(std::memory_order_relaxed); }

// kLowerC: row i has min(i + 1, N) wanted columns; kLowerA: row i sums min(i + 1, K) terms;
// kUpperA: row i sums max(K - i, 0) terms. Each term is a multiply and an add.
double gemm_call_flops(const GemmCall& c) {
  if (c.M <= 0 || c.N <= 0 || c.K <= 0) return 0;
  double terms = 0;  // multiply-adds
  switch (c.tri) {
    case Triangle::kNone: terms = double(c.M) * double(c.N) * double(c.K); break;
    case Triangle::kLowerC:
      for (int64_t i = 0; i < c.M; ++i) terms += double(std::min(i + 1, c.N)) * double(c.K);
      break;
    case Triangle::kLowerA:
      for (int64_t i = 0; i < c.M; ++i) terms += double(std::min(i + 1, c.K)) * double(c.N);
      break;
    case Triangle::kUpperA:
      for (int64_t i = 0; i < c.M; ++i) terms += double(std::max<int64_t>(c.K - i, 0)) * double(c.N);
      break;
  }
  return 2 * terms;
}

GemmReplay::GemmReplay(std::vector<GemmCall> calls) : calls_(std::move(calls)) {
  int64_t a_size = 1, b_size = 1, c_size = 1;
  for (const GemmCall& c : calls_) {
    ATTIC_CHECK(c.M >= 0 && c.N >= 0 && c.K >= 0 && c.ldc >= c.N,
                "GemmReplay: a call of M ", c.M, ", N ", c.N, ", K ", c.K, ", ldc ", c.ldc,
                " is not a product gemm accepts");
    const auto [alo, ahi] = offset_range(std::max<int64_t>(c.M, 1), std::max<int64_t>(c.K, 1),
                                         c.rsa, c.csa);
    const auto [blo, bhi] = offset_range(std::max<int64_t>(c.K, 1), std::max<int64_t>(c.N, 1),
                                         c.rsb, c.csb);
    a_base_.push_back(-alo);
    b_base_.push_back(-blo);
    a_size = std::max(a_size, ahi - alo + 1);
    b_size = std::max(b_size, bhi - blo + 1);
    c_size = std::max(c_size, std::max<int64_t>(c.M - 1, 0) * c.ldc + c.N);
  }
  a_.resize(size_t(a_size));
  b_.resize(size_t(b_size));
  c_size_ = c_size;
  c_.assign(size_t(num_threads()) * size_t(c_size_), 0.0f);
  fill_uniform(a_, 1);
  fill_uniform(b_, 2);
}

// Each chunk of a nested run writes its own copy of C, as the step's concurrent products
// write their own outputs.
void GemmReplay::run() {
  const size_t copies = size_t(num_threads());
  if (c_.size() < copies * size_t(c_size_)) c_.assign(copies * size_t(c_size_), 0.0f);
  const auto one = [this](size_t i, size_t copy) {
    const GemmCall& c = calls_[i];
    cpu::gemm<float>(c.M, c.N, c.K, a_.data() + a_base_[i], c.rsa, c.csa, b_.data() + b_base_[i],
                     c.rsb, c.csb, c_.data() + copy * size_t(c_size_), c.ldc, c.tri, c.accumulate);
  };
  for (size_t i = 0; i < calls_.size();) {
    if (!calls_[i].nested) {
      one(i++, 0);
      continue;
    }
    size_t end = i;
    while (end < calls_.size() && calls_[end].nested) ++end;
    std::atomic<size_t> next_copy{0};
    parallel_for(int64_t(i), int64_t(end), 1, [&](int64_t lo, int64_t hi) {
      const size_t copy = next_copy.fetch_add(1);
      for (int64_t j = lo; j < hi; ++j) one(size_t(j), copy);
    });
    i = end;
  }
}

double GemmReplay::flops() const {
  double sum = 0;
  for (const GemmCall& c : calls_) sum += gemm_call_flops(c);
  return sum;
}

}  // namespace attic::lab
