// The CUDA backend's own machinery: the caching allocator, guard bytes, the tiled matmul
// against cuBLAS, and a whole GPT step on the GPU against the CPU. Skipped without a GPU.
#include "devices.h"
#include "helpers.h"
#include "models/gpt.h"
#include "optim/optim.h"
#include "parity.h"
#include "tensor/cuda/cuda_backend.h"

using namespace attic;
using namespace attic::testing;

TEST_CASE("cuda allocator: a freed block serves the next allocation of its size",
          "[cuda][allocator]") {
  if (skip_without_cuda()) return;
  const cuda::AllocatorStats s0 = cuda::allocator_stats();
  { Tensor t = zeros({1000}, TensorOptions().device(Device::CUDA)); }
  const cuda::AllocatorStats s1 = cuda::allocator_stats();
  CHECK(s1.cached_bytes >= 4000);  // the 4000-byte block waits in the cache
  { Tensor t = zeros({1000}, TensorOptions().device(Device::CUDA)); }
  const cuda::AllocatorStats s2 = cuda::allocator_stats();
  CHECK(s2.cache_hits == s1.cache_hits + 1);
  CHECK(s2.device_mallocs == s1.device_mallocs);  // no new cudaMalloc
  CHECK(s2.in_use_bytes == s0.in_use_bytes);
  cuda::empty_cache();
  CHECK(cuda::allocator_stats().cached_bytes == 0);
}

TEST_CASE("cuda allocator: guard bytes catch a write one byte past a block",
          "[cuda][allocator]") {
  if (skip_without_cuda()) return;
  Backend& be = backend_for(Device::CUDA);
  cuda::set_guard_bytes(256);
  const int64_t before = cuda::guard_violations();
  void* p = be.allocate(100);
  const std::vector<unsigned char> host(101, 7);
  be.copy_from_host(p, host.data(), 100);  // in bounds
  CHECK(cuda::guard_violations() == before);
  be.copy_from_host(p, host.data(), 101);  // one byte too many
  CHECK(cuda::guard_violations() == before + 1);
  be.deallocate(p, 100);  // the damaged block is counted once it is freed
  CHECK(cuda::guard_violations() == before + 1);
  cuda::set_guard_bytes(0);
  CHECK(error_message([&] {
          cuda::set_guard_bytes(256);
          Tensor t = zeros({4}, TensorOptions().device(Device::CUDA));
          cuda::set_guard_bytes(0);
        }) == "set_guard_bytes: 1 guarded blocks are still alive; free them first");
  cuda::set_guard_bytes(0);
}

TEST_CASE("cuda matmul: the tiled kernel agrees with cuBLAS and the CPU", "[cuda][matmul]") {
  if (skip_without_cuda()) return;
  manual_seed(11);
  struct Case { Shape a, b; bool transpose_b; };
  const std::vector<Case> cases = {{{1, 1}, {1, 1}, false},
                                   {{17, 33}, {33, 9}, false},
                                   {{64, 64}, {64, 64}, true},
                                   {{130, 257}, {70, 257}, true},
                                   {{3, 2, 20, 48}, {3, 2, 48, 31}, false}};
  for (const Case& c : cases) {
    const Tensor a = randn(c.a), b = randn(c.b);
    const Tensor bb = c.transpose_b ? b.transpose(-1, -2) : b;
    const Tensor want = matmul(a, bb);
    const Tensor da = a.to(Device::CUDA), db = bb.to(Device::CUDA);
    cuda::set_matmul_impl(cuda::MatmulImpl::Tiled);
    const Tensor tiled = matmul(da, db);
    cuda::set_matmul_impl(cuda::MatmulImpl::CuBlas);
    const Tensor blas = matmul(da, db);
    INFO(str(c.a) << " @ " << str(c.b));
    CHECK(normalised_error(tiled, blas) <= 1e-4);
    CHECK(normalised_error(tiled, want) <= 1e-4);
    CHECK(normalised_error(blas, want) <= 1e-4);
  }
}

TEST_CASE("cuda: a GPT step on the GPU matches the CPU, dropout included", "[cuda][model]") {
  if (skip_without_cuda()) return;
  models::GPTConfig cfg;
  cfg.block_size = 16;
  cfg.vocab_size = 11;
  cfg.n_layer = 2;
  cfg.n_head = 2;
  cfg.n_embd = 32;
  cfg.dropout = 0.1;
  manual_seed(3);
  models::GPT cpu_model(cfg);
  manual_seed(3);
  models::GPT gpu_model(cfg);
  gpu_model.to(Device::CUDA);
  for (auto& [name, p] : gpu_model.named_parameters()) CHECK(p.device() == Device::CUDA);
  const Tensor x = randint(0, 11, {3, 16}), y = randint(0, 11, {3, 16});
  manual_seed(5);
  const Tensor loss_cpu = cpu_model.forward(x, y).loss;
  manual_seed(5);  // the same dropout masks: they are drawn on the host
  const Tensor loss_gpu = gpu_model.forward(x.to(Device::CUDA), y.to(Device::CUDA)).loss;
  CHECK(loss_gpu.item<double>() == Approx(loss_cpu.item<double>()).epsilon(1e-5));
  loss_cpu.backward();
  loss_gpu.backward();
  const auto cp = cpu_model.named_parameters(), gp = gpu_model.named_parameters();
  REQUIRE(cp.size() == gp.size());
  for (size_t i = 0; i < cp.size(); ++i) {
    INFO(cp[i].first);
    CHECK(normalised_error(gp[i].second.grad(), cp[i].second.grad()) <= 1e-4);
  }
  // and the model comes back intact
  gpu_model.to(Device::CPU);
  CHECK(normalised_error(gp[0].second, cp[0].second) == 0);
}

TEST_CASE("cuda: more than 8 dims is a clear error", "[cuda][errors]") {
  if (skip_without_cuda()) return;
  const Tensor t = ones({1, 1, 1, 1, 1, 1, 1, 1, 2}).to(Device::CUDA);
  CHECK(error_message([&] { exp(t); }) ==
        "unary: the CUDA backend handles at most 8 dims, got a tensor of shape "
        "[1, 1, 1, 1, 1, 1, 1, 1, 2]");
}
