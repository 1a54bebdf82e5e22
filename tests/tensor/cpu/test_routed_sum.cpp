// The CPU routed sum (tensor/cpu/routed_sum.cpp) against routed_sum_naive and
// routed_sum_backward_naive, on operands laid out as contiguous tensors and as strided views
// (sources, and the outputs as route's packed form writes them); its results the same bits at
// 1, 2 and 3 threads.
#include "tests/catch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/routed_sum.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

// A [B, NH, T, hs] kernel view of data: contiguous, or (strided) read out of a buffer laid out
// as [B, T, NH·hs·2] the way split_heads sees one half of a key/value projection.
KTensor view_of(std::vector<float>& data, int64_t B, int64_t NH, int64_t T, int64_t hs,
                bool strided) {
  KTensor k;
  k.data = data.data();
  k.dtype = DType::Float32;
  k.shape = {B, NH, T, hs};
  k.strides = strided ? std::vector<int64_t>{T * NH * hs * 2, hs, NH * hs * 2, 1}
                      : std::vector<int64_t>{NH * T * hs, T * hs, hs, 1};
  return k;
}

// The view's elements in [B, NH, T, hs] order.
std::vector<float> gathered(const KTensor& k) {
  std::vector<float> out;
  const auto* p = static_cast<const float*>(k.data);
  for (int64_t b = 0; b < k.shape[0]; ++b)
    for (int64_t h = 0; h < k.shape[1]; ++h)
      for (int64_t t = 0; t < k.shape[2]; ++t)
        for (int64_t i = 0; i < k.shape[3]; ++i)
          out.push_back(p[b * k.strides[0] + h * k.strides[1] + t * k.strides[2] + i * k.strides[3]]);
  return out;
}

float worst_gap(const std::vector<float>& a, const std::vector<float>& b) {
  float worst = 0;
  for (size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

TEST_CASE("CPU routed_sum and its backward equal the naive loops, at 1, 2 and 3 threads",
          "[cpu][routed_sum]") {
  // [4, 6, 100, 16]: 24 (b, h) pairs of 1,600 elements, enough for the pairs to split
  // between threads; [2, 3, 5, 8] fits in one chunk.
  struct Dims {
    int64_t B, NH, T, hs;
  };
  std::mt19937 rng(11);
  std::normal_distribution<float> n01;
  const int saved = num_threads();
  for (const Dims d : {Dims{2, 3, 5, 8}, Dims{4, 6, 100, 16}})
    for (const bool strided : {false, true}) {
      const int64_t numel = d.B * d.NH * d.T * d.hs, L = 3;
      std::vector<std::vector<float>> data(size_t(L), std::vector<float>(size_t(numel * 2)));
      std::vector<KTensor> src;
      std::vector<std::vector<float>> dense;  // each source in [B, NH, T, hs] order
      for (auto& v : data) {
        for (float& e : v) e = n01(rng);
        src.push_back(view_of(v, d.B, d.NH, d.T, d.hs, strided));
        dense.push_back(gathered(src.back()));
      }
      std::vector<float> w(size_t(L * d.NH)), g(static_cast<size_t>(numel));
      for (float& e : w) e = n01(rng);
      for (float& e : g) e = n01(rng);
      KTensor kw, kg;
      kw.data = w.data(), kw.dtype = DType::Float32, kw.shape = {L * d.NH}, kw.strides = {1};
      kg = view_of(g, d.B, d.NH, d.T, d.hs, false);

      std::vector<const float*> dense_ptr;
      for (const auto& v : dense) dense_ptr.push_back(v.data());
      std::vector<float> ref(static_cast<size_t>(numel)), ref_dw(size_t(L * d.NH));
      std::vector<std::vector<float>> ref_dsrc(static_cast<size_t>(L), std::vector<float>(static_cast<size_t>(numel)));
      std::vector<float*> ref_dsrc_ptr;
      for (auto& v : ref_dsrc) ref_dsrc_ptr.push_back(v.data());
      cpu::routed_sum_naive<float>(d.B, d.NH, d.T, d.hs, w.data(), dense_ptr, ref.data());
      cpu::routed_sum_backward_naive<float>(d.B, d.NH, d.T, d.hs, g.data(), w.data(), dense_ptr,
                                            ref_dsrc_ptr, ref_dw.data());

      std::vector<float> first_out, first_dw;
      for (const int threads : {1, 2, 3}) {
        set_num_threads(threads);
        // Outputs twice the size, so that the strided views fit; NAN where nothing is written.
        std::vector<float> out_buf(size_t(numel * 2), NAN), dw(size_t(L * d.NH), NAN);
        std::vector<std::vector<float>> dsrc_buf(size_t(L), std::vector<float>(size_t(numel * 2), NAN));
        std::vector<KTensor> kdsrc;
        for (auto& v : dsrc_buf) kdsrc.push_back(view_of(v, d.B, d.NH, d.T, d.hs, strided));
        KTensor kout = view_of(out_buf, d.B, d.NH, d.T, d.hs, strided), kdw = kw;
        kdw.data = dw.data();
        Backend& cpu = backend_for(Device::CPU);
        cpu.routed_sum(kout, kw, src);
        cpu.routed_sum_backward(kdsrc, kdw, kg, kw, src);
        INFO("B " << d.B << " NH " << d.NH << " T " << d.T << " hs " << d.hs
                  << (strided ? " strided" : " contiguous") << ", " << threads << " threads");
        const std::vector<float> out = gathered(kout);
        CHECK(worst_gap(out, ref) < 1e-5f);
        for (int64_t l = 0; l < L; ++l)
          CHECK(worst_gap(gathered(kdsrc[size_t(l)]), ref_dsrc[size_t(l)]) < 1e-6f);
        // the strided outputs leave the other half of their buffers alone
        if (strided)
          CHECK(std::count_if(out_buf.begin(), out_buf.end(), [](float e) { return std::isnan(e); }) ==
                numel);
        // dw sums T·hs·B products: relative to its size
        for (size_t i = 0; i < dw.size(); ++i)
          CHECK(std::abs(dw[i] - ref_dw[i]) <= 1e-5f * (1.0f + std::abs(ref_dw[i])));
        if (threads == 1) {
          first_out = out;
          first_dw = dw;
        } else {
          CHECK(out == first_out);
          CHECK(dw == first_dw);
        }
      }
    }
  set_num_threads(saved);
}
