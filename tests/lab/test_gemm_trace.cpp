#include "tests/catch.h"

#include <vector>

#include "helpers.h"
#include "lab/gemm_trace.h"
#include "nn/linear.h"
#include "ops/ops.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/tensor.h"

using namespace attic;
using attic::testing::error_message;
using attic::testing::ThreadCount;

namespace {

cpu::GemmCall call(int64_t M, int64_t N, int64_t K, cpu::Triangle tri) {
  return {M, N, K, K, 1, N, 1, N, tri, false, false};
}

}  // namespace

TEST_CASE("gemm trace: records each float product's sizes, strides and flags while it runs",
          "[cpu][gemm][trace]") {
  // A [5, 3] read through its transpose's strides (rsa 1, csa 5), B [3, 7] row-major, C with
  // ldc 9, accumulating into the lower triangle's columns
  std::vector<float> a(15, 1.0f), b(21, 1.0f), c(45, 0.0f);
  std::vector<double> ad(15, 1.0), bd(21, 1.0), cd(45, 0.0);
  cpu::gemm<float>(5, 7, 3, a.data(), 1, 5, b.data(), 7, 1, c.data(), 9);  // before: not kept
  lab::start_gemm_trace();
  CHECK(lab::gemm_trace_on());
  cpu::gemm<float>(5, 7, 3, a.data(), 1, 5, b.data(), 7, 1, c.data(), 9, cpu::Triangle::kLowerC,
                   /*accumulate=*/true);
  cpu::gemm<double>(5, 7, 3, ad.data(), 1, 5, bd.data(), 7, 1, cd.data(), 9);  // float only
  cpu::gemm<float>(0, 7, 3, a.data(), 1, 5, b.data(), 7, 1, c.data(), 9);      // no product
  const std::vector<cpu::GemmCall> calls = lab::stop_gemm_trace();
  CHECK_FALSE(lab::gemm_trace_on());
  REQUIRE(calls.size() == 1);
  const cpu::GemmCall& k = calls[0];
  CHECK((k.M == 5 && k.N == 7 && k.K == 3));
  CHECK((k.rsa == 1 && k.csa == 5 && k.rsb == 7 && k.csb == 1 && k.ldc == 9));
  CHECK(k.tri == cpu::Triangle::kLowerC);
  CHECK(k.accumulate);
  CHECK_FALSE(k.nested);
  // after the stop, a new record starts empty
  lab::start_gemm_trace();
  CHECK(lab::stop_gemm_trace().empty());
}

TEST_CASE("gemm trace: a product inside a split parallel_for is marked nested",
          "[cpu][gemm][trace]") {
  ThreadCount two(2);
  std::vector<float> a(64 * 64, 0.5f), b(64 * 64, 0.5f), c0(64 * 64), c1(64 * 64);
  lab::start_gemm_trace();
  cpu::gemm<float>(64, 64, 64, a.data(), 64, 1, b.data(), 64, 1, c0.data(), 64);
  cpu::parallel_for(0, 2, 1, [&](int64_t lo, int64_t) {
    float* c = lo == 0 ? c0.data() : c1.data();
    cpu::gemm<float>(64, 64, 64, a.data(), 64, 1, b.data(), 64, 1, c, 64);
  });
  const std::vector<cpu::GemmCall> calls = lab::stop_gemm_trace();
  REQUIRE(calls.size() == 3);
  CHECK_FALSE(calls[0].nested);
  CHECK(calls[1].nested);
  CHECK(calls[2].nested);
}

TEST_CASE("gemm trace: start twice or stop without a start is an error", "[cpu][gemm][trace]") {
  lab::start_gemm_trace();
  CHECK(error_message([] { lab::start_gemm_trace(); }) ==
        "start_gemm_trace: a gemm trace is already running");
  lab::stop_gemm_trace();
  CHECK(error_message([] { lab::stop_gemm_trace(); }) == "stop_gemm_trace: no gemm trace is running");
}

TEST_CASE("gemm trace: it watches the GEMM through the observer hook only while it runs",
          "[cpu][gemm][trace]") {
  CHECK(cpu::gemm_observer() == nullptr);
  lab::start_gemm_trace();
  CHECK(cpu::gemm_observer() != nullptr);
  lab::stop_gemm_trace();
  CHECK(cpu::gemm_observer() == nullptr);
  // Another observer set: a trace would displace it, so it is refused.
  cpu::set_gemm_observer([](const cpu::GemmCall&) {});
  CHECK(error_message([] { lab::start_gemm_trace(); }) ==
        "start_gemm_trace: another observer watches the GEMM");
  cpu::set_gemm_observer(nullptr);
}

TEST_CASE("gemm_call_flops: 2 M N K, less the triangle's terms, counted by hand",
          "[cpu][gemm][trace]") {
  // full: 2 * 4 * 3 * 5
  CHECK(lab::gemm_call_flops(call(4, 3, 5, cpu::Triangle::kNone)) == 120);
  // kLowerC, M 4, N 3, K 5: rows keep 1, 2, 3, 3 columns = 9 entries of 5 terms: 2 * 45
  CHECK(lab::gemm_call_flops(call(4, 3, 5, cpu::Triangle::kLowerC)) == 90);
  // kLowerA, M 4, N 2, K 3: rows sum 1, 2, 3, 3 terms = 9, for 2 columns: 2 * 18
  CHECK(lab::gemm_call_flops(call(4, 2, 3, cpu::Triangle::kLowerA)) == 36);
  // kUpperA, M 4, N 2, K 3: rows sum 3, 2, 1, 0 terms = 6, for 2 columns: 2 * 12
  CHECK(lab::gemm_call_flops(call(4, 2, 3, cpu::Triangle::kUpperA)) == 24);
  CHECK(lab::gemm_call_flops(call(4, 2, 0, cpu::Triangle::kNone)) == 0);
}

TEST_CASE("gemm trace: a Linear's forward and backward are 3 products of 2 B Cin Cout flops",
          "[cpu][gemm][trace]") {
  // y [B, Cout] = x [B, Cin] Wᵀ; backward dx = dy W and dW = dyᵀ x
  const int64_t B = 24, Cin = 40, Cout = 56;
  nn::Linear lin(Cin, Cout, /*bias=*/false);
  Tensor x = randn({B, Cin}).requires_grad_();
  lab::start_gemm_trace();
  sum(lin(x)).backward();
  const std::vector<cpu::GemmCall> calls = lab::stop_gemm_trace();
  CHECK(lab::GemmReplay(calls).flops() == 3.0 * 2 * B * Cin * Cout);
  // without a gradient for x, only dW
  Tensor z = randn({B, Cin});
  lin.zero_grad();
  lab::start_gemm_trace();
  sum(lin(z)).backward();
  CHECK(lab::GemmReplay(lab::stop_gemm_trace()).flops() == 2.0 * 2 * B * Cin * Cout);
}

TEST_CASE("GemmReplay: runs every recorded call inside its buffers, at 1 and 2 threads",
          "[cpu][gemm][trace]") {
  // transposed and strided operands, a triangle, an accumulate, and nested calls; out of
  // bounds reads or writes would show under AddressSanitizer (make test-sanitize)
  std::vector<cpu::GemmCall> calls = {
      {70, 50, 90, 1, 70, 50, 1, 60, cpu::Triangle::kNone, false, false},   // Aᵀ, ldc > N
      {64, 64, 32, 32, 1, 1, 32, 64, cpu::Triangle::kLowerC, false, true},  // q kᵀ
      {64, 32, 64, 64, 1, 32, 1, 32, cpu::Triangle::kLowerA, true, true},   // P v
      {64, 32, 64, 1, 64, 32, 1, 32, cpu::Triangle::kUpperA, true, false},  // Pᵀ dout
      {3, 5, 2, 2, 1, 5, 1, 5, cpu::Triangle::kNone, false, true},          // the small loop
  };
  for (int threads : {1, 2}) {
    ThreadCount t(threads);
    lab::GemmReplay replay(calls);
    replay.run();
    replay.run();
    CHECK(replay.calls().size() == calls.size());
  }
  lab::GemmReplay replay(calls);
  double flops = 0;
  for (const cpu::GemmCall& c : calls) flops += lab::gemm_call_flops(c);
  CHECK(replay.flops() == flops);
  CHECK(error_message([] {
          lab::GemmReplay({{4, 8, 2, 2, 1, 8, 1, 5, cpu::Triangle::kNone, false, false}});
        }) == "GemmReplay: a call of M 4, N 8, K 2, ldc 5 is not a product gemm accepts");
}
