// The CPU scans (tensor/cpu/scan.cpp) against their references: the decayed prefix sum
// against decayed_cumsum_naive, the running maximum against running_max_naive.
#include "tests/catch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/scan.h"
#include "tensor/threads.h"

using namespace attic;

TEST_CASE("CPU decayed_cumsum equals decayed_cumsum_naive, forward and reverse", "[cpu][scan]") {
  struct Dims {
    int64_t outer, n, inner;
  };
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0), pos(0.0, 1.0);
  for (const Dims d : {Dims{1, 1, 1}, Dims{2, 7, 1}, Dims{3, 16, 5}, Dims{4, 100, 33}}) {
    for (const bool reverse : {false, true}) {
      std::vector<double> x(size_t(d.outer * d.n * d.inner)), r(size_t(d.outer * d.n));
      for (double& e : x) e = u(rng);
      for (double& e : r) e = pos(rng);
      std::vector<double> y(x.size(), NAN), ref(x.size());
      KTensor kx, ky, kr;
      kx.data = x.data(), ky.data = y.data(), kr.data = r.data();
      kx.dtype = ky.dtype = kr.dtype = DType::Float64;
      kx.shape = ky.shape = kr.shape = {d.outer, d.n, d.inner};
      kx.strides = ky.strides = {d.n * d.inner, d.inner, 1};
      kr.strides = {d.n, 1, 0};  // r broadcast over the inner dim
      backend_for(Device::CPU).decayed_cumsum(ky, kx, kr, 1, reverse);
      cpu::decayed_cumsum_naive<double>(d.outer, d.n, d.inner, x.data(), r.data(), ref.data(),
                                        reverse);
      double worst = 0;
      for (size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::abs(y[i] - ref[i]));
      INFO("outer " << d.outer << " n " << d.n << " inner " << d.inner << (reverse ? " reverse" : ""));
      CHECK(worst < 1e-12);
    }
  }
}

TEST_CASE("CPU decayed_cumsum along any dim, r not broadcast, at 1, 2 and 3 threads",
          "[cpu][scan]") {
  // [a, b, c] scanned along each dim in turn, r as large as x: the rows along the other
  // dims are contiguous (dim 0 or 1) or strided (dim 2, where each step reads one element
  // of every row). 64 x 300 x 40 is enough work for the panels to split between threads.
  // Each element is checked against a plain loop along its own line.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), pos(0.0f, 1.0f);
  const int saved = num_threads();
  for (const std::array<int64_t, 3> shape : {std::array<int64_t, 3>{3, 5, 7}, {64, 300, 40}})
    for (int64_t dim = 0; dim < 3; ++dim)
      for (const bool reverse : {false, true}) {
        const int64_t numel = shape[0] * shape[1] * shape[2];
        std::vector<float> x(static_cast<size_t>(numel)), r(static_cast<size_t>(numel));
        for (float& e : x) e = u(rng);
        for (float& e : r) e = pos(rng);
        KTensor kx, kr;
        kx.data = x.data(), kr.data = r.data();
        kx.dtype = kr.dtype = DType::Float32;
        kx.shape = kr.shape = {shape[0], shape[1], shape[2]};
        kx.strides = kr.strides = {shape[1] * shape[2], shape[2], 1};
        // the plain loop: every line along dim, step by step
        std::vector<float> ref(x.size());
        const int64_t st = kx.strides[size_t(dim)], n = shape[size_t(dim)];
        for (int64_t at = 0; at < numel; ++at) {
          const int64_t t = at / st % n;
          if (t != (reverse ? n - 1 : 0)) continue;  // the line's first element
          float acc = x[size_t(at)];
          ref[size_t(at)] = acc;
          for (int64_t k = 1; k < n; ++k) {
            const int64_t i = reverse ? at - k * st : at + k * st;
            acc = x[size_t(i)] + r[size_t(reverse ? i + st : i)] * acc;
            ref[size_t(i)] = acc;
          }
        }
        std::vector<std::vector<float>> runs;
        for (const int threads : {1, 2, 3}) {
          set_num_threads(threads);
          std::vector<float> y(x.size(), NAN);
          KTensor ky = kx;
          ky.data = y.data();
          backend_for(Device::CPU).decayed_cumsum(ky, kx, kr, dim, reverse);
          runs.push_back(y);
        }
        float worst = 0;
        for (size_t i = 0; i < ref.size(); ++i)
          worst = std::max(worst, std::abs(runs[0][i] - ref[i]));
        INFO("shape " << shape[0] << "x" << shape[1] << "x" << shape[2] << " dim " << dim
                      << (reverse ? " reverse" : ""));
        CHECK(worst < 1e-5f);
        CHECK(runs[1] == runs[0]);
        CHECK(runs[2] == runs[0]);
      }
  set_num_threads(saved);
}

TEST_CASE("CPU running_max equals running_max_naive along every dim, NaNs kept, at 1 and 2 threads",
          "[cpu][scan]") {
  // [a, b, c] contiguous, scanned along each dim: as the naive reference's [outer, n, inner]
  // with outer = the dims before, inner = the dims after. A few NaNs are planted: from
  // each on, its line's maximum is NaN. Ties and a -inf are in the draw too.
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> u(-20, 20);
  const int saved = num_threads();
  for (const std::array<int64_t, 3> shape : {std::array<int64_t, 3>{1, 1, 1}, {3, 5, 7}, {64, 300, 40}})
    for (int64_t dim = 0; dim < 3; ++dim)
      for (const int threads : {1, 2}) {
        set_num_threads(threads);
        const int64_t numel = shape[0] * shape[1] * shape[2];
        std::vector<float> x(static_cast<size_t>(numel));
        for (float& e : x) e = float(u(rng)) / 4;  // many ties
        if (numel > 10) {
          x[3] = NAN;
          x[size_t(numel / 2)] = -INFINITY;
          x[size_t(numel - 5)] = NAN;
        }
        std::vector<float> y(x.size(), 123.0f), ref(x.size());
        KTensor kx, ky;
        kx.data = x.data(), ky.data = y.data();
        kx.dtype = ky.dtype = DType::Float32;
        kx.shape = ky.shape = {shape[0], shape[1], shape[2]};
        kx.strides = ky.strides = {shape[1] * shape[2], shape[2], 1};
        backend_for(Device::CPU).running_max(ky, kx, dim);
        const int64_t outer = dim == 0 ? 1 : dim == 1 ? shape[0] : shape[0] * shape[1];
        const int64_t inner = dim == 0 ? shape[1] * shape[2] : dim == 1 ? shape[2] : 1;
        cpu::running_max_naive<float>(outer, shape[size_t(dim)], inner, x.data(), ref.data());
        int64_t mismatched = 0, nans = 0;
        for (size_t i = 0; i < y.size(); ++i) {
          nans += std::isnan(ref[i]);
          const bool same = std::isnan(ref[i]) ? std::isnan(y[i]) : y[i] == ref[i];
          mismatched += !same;
        }
        INFO("shape " << shape[0] << "x" << shape[1] << "x" << shape[2] << ", dim " << dim << ", " << threads
                      << " threads");
        CHECK(mismatched == 0);
        if (numel > 10) CHECK(nans > 0);
      }
  set_num_threads(saved);
}
