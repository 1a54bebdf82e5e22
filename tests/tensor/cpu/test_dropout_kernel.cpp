// The CPU dropout kernel (tensor/cpu/dropout.cpp, 16 Philox counters at a time) against its
// plain reference dropout_naive (tensor/cpu/dropout.h): any start, any length, in place, and
// the backend's threaded call.
#include "tests/catch.h"

#include <cstdint>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/dropout.h"
#include "tensor/cpu/thread_pool.h"

using namespace attic;

namespace {

template <class T>
std::vector<T> ramp(int64_t n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = T(1 + i % 7) * T(0.25);
  return v;
}

template <class T>
void check_spans() {
  const uint64_t key = 0x0123456789abcdefull;
  const uint32_t threshold = dropout_threshold(0.3);
  const T scale = T(1 / 0.7);
  // starts inside, at and across the 64-element blocks; lengths from 0 to several blocks
  for (uint64_t first : {0ull, 1ull, 3ull, 63ull, 64ull, 100ull, 1ull << 33})
    for (int64_t n : {0, 1, 5, 64, 65, 200}) {
      const std::vector<T> in = ramp<T>(n);
      std::vector<T> fast(size_t(n), T(-1)), naive(size_t(n), T(-2));
      cpu::dropout_span<T>(fast.data(), in.data(), n, first, key, threshold, scale);
      cpu::dropout_naive<T>(naive.data(), in.data(), n, first, key, threshold, scale);
      INFO("first " << first << " n " << n);
      CHECK(fast == naive);
      std::vector<T> inplace = in;
      cpu::dropout_span<T>(inplace.data(), inplace.data(), n, first, key, threshold, scale);
      CHECK(inplace == naive);
    }
}

}  // namespace

TEST_CASE("dropout_span equals dropout_naive, float and double", "[dropout][kernel]") {
  check_spans<float>();
  check_spans<double>();
}

TEST_CASE("the backend's dropout equals dropout_naive at 1 and 2 threads", "[dropout][kernel]") {
  const int saved = num_threads();
  const int64_t n = 300007;  // several parallel chunks, none a multiple of 64
  const std::vector<float> in = ramp<float>(n);
  std::vector<float> naive(static_cast<size_t>(n));
  cpu::dropout_naive<float>(naive.data(), in.data(), n, 0, 99, dropout_threshold(0.5), 2.0f);
  for (int t : {1, 2}) {
    set_num_threads(t);
    std::vector<float> out(size_t(n), -1.0f);
    std::vector<float> src = in;
    backend_for(Device::CPU)
        .dropout(KTensor{out.data(), DType::Float32, {n}, {1}},
                 KTensor{src.data(), DType::Float32, {n}, {1}}, 0.5, 99);
    CHECK(out == naive);
  }
  set_num_threads(saved);
}
