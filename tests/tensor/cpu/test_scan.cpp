// The CPU decayed prefix sum (tensor/cpu/scan.cpp) against decayed_cumsum_naive.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/scan.h"

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
