// The fused CPU attention kernel (tensor/cpu/attention.cpp) against attention_naive, its
// plain-loop reference, forward and backward, over shapes, causal and not.
#include "tests/catch.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "tensor/backend.h"
#include "tensor/cpu/attention.h"
#include "tensor/half.h"
#include "tensor/threads.h"

using namespace attic;

namespace {

struct Dims {
  int64_t H, Tq, Tk, hs, hv;
};

// Covers: 1 x 1; one head of a few rows; more keys than queries and more queries than keys
// (the causal mask stays top-left aligned); widths that are not multiples of a vector (5,
// 3); rows past one softmax group of 4 and one vector of 16 (17, 33); the laptop GPT's
// head (T 64, hs 32); a longer one than the GEMM's small-problem cutoff (T 100, hs 64);
// several blocks of the kernel's query rows (about 512 KiB of scores each), the last one
// partial, with more queries than keys (blocks past the last key when causal) and fewer;
// rows of 4 KiB, whose scores the kernel forms in a padded scratch (T 512 of double, 1024
// of float).
const std::vector<Dims> kShapes = {
    {1, 1, 1, 1, 1},       {2, 5, 5, 4, 4},       {3, 7, 11, 8, 5},     {2, 11, 7, 8, 5},
    {1, 17, 17, 3, 3},     {2, 33, 33, 16, 9},    {2, 64, 64, 32, 32},  {1, 100, 100, 64, 64},
    {1, 1100, 300, 4, 6},  {1, 300, 1100, 6, 4},  {1, 512, 512, 4, 4},  {1, 1024, 1024, 4, 4},
};

// A contiguous [H, rows, cols] operand as the kernel sees it.
template <class T>
KTensor kt(std::vector<T>& data, int64_t H, int64_t rows, int64_t cols) {
  KTensor t;
  t.data = data.data();
  t.dtype = std::is_same_v<T, float> ? DType::Float32 : DType::Float64;
  t.shape = {H, rows, cols};
  t.strides = {rows * cols, cols, 1};
  return t;
}

template <class T>
std::vector<T> uniform(size_t n, std::mt19937& rng, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  std::vector<T> x(n);
  for (T& e : x) e = T(u(rng));
  return x;
}

// max |a - b| / (1 + max |b|) over the elements
template <class T>
double rel_err(const std::vector<T>& a, const std::vector<T>& b) {
  double worst = 0, big = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    // A NaN becomes the worst and stays so (std::max would keep the old value).
    const double diff = std::abs(double(a[i]) - double(b[i]));
    if (std::isnan(diff) || diff > worst) worst = diff;
    big = std::max(big, std::abs(double(b[i])));
  }
  return worst / (1 + big);
}

template <class T>
void check_against_naive(const Dims& d, bool causal, double tol) {
  std::mt19937 rng(uint32_t(d.H * 1000 + d.Tq * 31 + d.Tk + causal));
  const int64_t H = d.H, Tq = d.Tq, Tk = d.Tk, hs = d.hs, hv = d.hv;
  // scores of order a few: the softmax neither uniform nor one-hot
  std::vector<T> q = uniform<T>(size_t(H * Tq * hs), rng, 2.0);
  std::vector<T> k = uniform<T>(size_t(H * Tk * hs), rng, 2.0);
  std::vector<T> v = uniform<T>(size_t(H * Tk * hv), rng);
  std::vector<T> dout = uniform<T>(size_t(H * Tq * hv), rng);
  const T scale = T(1 / std::sqrt(double(hs)));
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> out(size_t(H * Tq * hv), nan), att(size_t(H * Tq * Tk), nan);
  std::vector<T> dq(q.size(), nan), dk(k.size(), nan), dv(v.size(), nan);
  Backend& be = backend_for(Device::CPU);
  be.attention(kt(out, H, Tq, hv), kt(att, H, Tq, Tk), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
               kt(v, H, Tk, hv), scale, causal, 0.0, 0, kFloat32);
  be.attention_backward(kt(dq, H, Tq, hs), kt(dk, H, Tk, hs), kt(dv, H, Tk, hv),
                        kt(dout, H, Tq, hv), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                        kt(v, H, Tk, hv), kt(att, H, Tq, Tk), scale, causal, 0.0, 0, kFloat32);
  std::vector<T> r_out(out.size()), r_att(att.size()), r_dq(dq.size()), r_dk(dk.size()),
      r_dv(dv.size());
  for (int64_t h = 0; h < H; ++h) {
    cpu::attention_naive<T>(Tq, Tk, hs, hv, &q[size_t(h * Tq * hs)], &k[size_t(h * Tk * hs)],
                            &v[size_t(h * Tk * hv)], scale, causal, &r_out[size_t(h * Tq * hv)],
                            &r_att[size_t(h * Tq * Tk)]);
    cpu::attention_backward_naive<T>(
        Tq, Tk, hs, hv, &q[size_t(h * Tq * hs)], &k[size_t(h * Tk * hs)],
        &v[size_t(h * Tk * hv)], &r_att[size_t(h * Tq * Tk)], &dout[size_t(h * Tq * hv)], scale,
        &r_dq[size_t(h * Tq * hs)], &r_dk[size_t(h * Tk * hs)], &r_dv[size_t(h * Tk * hv)]);
  }
  INFO("H " << H << " Tq " << Tq << " Tk " << Tk << " hs " << hs << " hv " << hv
            << (causal ? " causal" : ""));
  // Dropped keys have weight exactly 0 in the reference. The kernel may leave att's
  // entries above the diagonal unwritten (Backend::attention), so those still hold the NaN
  // they started as, or 0; either is taken as P's 0 before att is compared.
  bool zeros = true;
  if (causal)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < Tq; ++i)
        for (int64_t j = i + 1; j < Tk; ++j) {
          const size_t at = size_t((h * Tq + i) * Tk + j);
          zeros = zeros && r_att[at] == T(0) && (att[at] == T(0) || std::isnan(att[at]));
          att[at] = T(0);
        }
  CHECK(zeros);
  CHECK(rel_err(out, r_out) < tol);
  CHECK(rel_err(att, r_att) < tol);
  CHECK(rel_err(dq, r_dq) < tol);
  CHECK(rel_err(dk, r_dk) < tol);
  CHECK(rel_err(dv, r_dv) < tol);

  // The same with only each row's log-sum-exp saved, att [H, Tq] (Backend::attention): the
  // backward forms P again from it. lse_i = log Σ_{visible j} e^(scale q_i·k_j), worked out
  // here in long double.
  std::vector<T> lse(size_t(H * Tq), nan), r_lse(lse.size());
  for (int64_t h = 0; h < H; ++h)
    for (int64_t i = 0; i < Tq; ++i) {
      const int64_t n = causal ? std::min(i + 1, Tk) : Tk;
      std::vector<long double> x(static_cast<size_t>(n));
      for (int64_t j = 0; j < n; ++j) {
        long double dot = 0;
        for (int64_t c = 0; c < hs; ++c)
          dot += (long double)q[size_t((h * Tq + i) * hs + c)] * k[size_t((h * Tk + j) * hs + c)];
        x[size_t(j)] = dot * scale;
      }
      const long double m = *std::max_element(x.begin(), x.end());
      long double sum = 0;
      for (const long double e : x) sum += std::exp(e - m);
      r_lse[size_t(h * Tq + i)] = T(m + std::log(sum));
    }
  KTensor lse_t = kt(lse, H, Tq, 1);
  lse_t.shape.pop_back();
  lse_t.strides.pop_back();
  std::fill(out.begin(), out.end(), nan);
  std::fill(dq.begin(), dq.end(), nan);
  std::fill(dk.begin(), dk.end(), nan);
  std::fill(dv.begin(), dv.end(), nan);
  be.attention(kt(out, H, Tq, hv), lse_t, kt(q, H, Tq, hs), kt(k, H, Tk, hs), kt(v, H, Tk, hv),
               scale, causal, 0.0, 0, kFloat32);
  be.attention_backward(kt(dq, H, Tq, hs), kt(dk, H, Tk, hs), kt(dv, H, Tk, hv),
                        kt(dout, H, Tq, hv), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                        kt(v, H, Tk, hv), lse_t, scale, causal, 0.0, 0, kFloat32);
  INFO("att: log-sum-exp only");
  CHECK(rel_err(lse, r_lse) < tol);
  CHECK(rel_err(out, r_out) < tol);
  CHECK(rel_err(dq, r_dq) < tol);
  CHECK(rel_err(dk, r_dk) < tol);
  CHECK(rel_err(dv, r_dv) < tol);
}

}  // namespace

TEST_CASE("fused CPU attention equals attention_naive, forward and backward, float32",
          "[cpu][attention]") {
  for (const Dims& d : kShapes)
    for (const bool causal : {false, true}) check_against_naive<float>(d, causal, 2e-5);
}

TEST_CASE("fused CPU attention equals attention_naive, forward and backward, float64",
          "[cpu][attention]") {
  for (const Dims& d : kShapes)
    for (const bool causal : {false, true}) check_against_naive<double>(d, causal, 1e-12);
}

TEST_CASE("fused CPU attention splits a head between threads, the same bit for bit at 1, 2 and 3",
          "[cpu][attention]") {
  // One head (a Linformer head is a call of its own) and three: fewer heads than the
  // kernel's work items, so the forward hands a head's query blocks to different threads
  // and the backward gathers dk and dv from groups of blocks. Tq 4100 over Tk 128: 5
  // blocks of about 1024 rows, the last one partial; Tk 300 and causal: blocks of uneven
  // work. The groups depend on the shapes only, so every thread count gives the same bits;
  // the values are checked against attention_naive above.
  struct Run {
    std::vector<float> out, att, dq, dk, dv;
  };
  const int saved = num_threads();
  const std::vector<Dims> shapes = {
      {1, 4100, 128, 16, 16}, {3, 1100, 300, 8, 4}, {1, 1024, 1024, 4, 4}};
  for (const Dims& d : shapes)
    for (const bool causal : {false, true}) {
      check_against_naive<float>(d, causal, 2e-5);
      std::mt19937 rng(uint32_t(d.Tq + d.Tk));
      std::vector<float> q = uniform<float>(size_t(d.H * d.Tq * d.hs), rng, 2.0);
      std::vector<float> k = uniform<float>(size_t(d.H * d.Tk * d.hs), rng, 2.0);
      std::vector<float> v = uniform<float>(size_t(d.H * d.Tk * d.hv), rng);
      std::vector<float> dout = uniform<float>(size_t(d.H * d.Tq * d.hv), rng);
      std::vector<Run> runs;
      for (int t : {1, 2, 3}) {
        set_num_threads(t);
        Run r{std::vector<float>(dout.size()), std::vector<float>(size_t(d.H * d.Tq * d.Tk)),
              std::vector<float>(q.size()), std::vector<float>(k.size()),
              std::vector<float>(v.size())};
        Backend& be = backend_for(Device::CPU);
        const auto H = d.H, Tq = d.Tq, Tk = d.Tk, hs = d.hs, hv = d.hv;
        be.attention(kt(r.out, H, Tq, hv), kt(r.att, H, Tq, Tk), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                     kt(v, H, Tk, hv), 0.25, causal, 0.0, 0, kFloat32);
        be.attention_backward(kt(r.dq, H, Tq, hs), kt(r.dk, H, Tk, hs), kt(r.dv, H, Tk, hv),
                              kt(dout, H, Tq, hv), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                              kt(v, H, Tk, hv), kt(r.att, H, Tq, Tk), 0.25, causal, 0.0, 0, kFloat32);
        runs.push_back(std::move(r));
      }
      INFO("H " << d.H << " Tq " << d.Tq << " Tk " << d.Tk << (causal ? " causal" : ""));
      for (size_t t = 1; t < runs.size(); ++t) {
        CHECK(runs[t].out == runs[0].out);
        CHECK(runs[t].att == runs[0].att);
        CHECK(runs[t].dq == runs[0].dq);
        CHECK(runs[t].dk == runs[0].dk);
        CHECK(runs[t].dv == runs[0].dv);
      }
    }
  set_num_threads(saved);
}

TEST_CASE("fused CPU attention with no queries: dk and dv are zeros", "[cpu][attention]") {
  // Tq = 0 gives no block of query rows to split a head into; the keys still get their
  // (zero) gradient.
  std::vector<float> none, k(5 * 4, 1.0f), v(5 * 3, 1.0f), dk(k.size(), NAN), dv(v.size(), NAN);
  Backend& be = backend_for(Device::CPU);
  be.attention(kt(none, 1, 0, 3), kt(none, 1, 0, 5), kt(none, 1, 0, 4), kt(k, 1, 5, 4),
               kt(v, 1, 5, 3), 0.5, false, 0.0, 0, kFloat32);
  be.attention_backward(kt(none, 1, 0, 4), kt(dk, 1, 5, 4), kt(dv, 1, 5, 3), kt(none, 1, 0, 3),
                        kt(none, 1, 0, 4), kt(k, 1, 5, 4), kt(v, 1, 5, 3), kt(none, 1, 0, 5), 0.5,
                        false, 0.0, 0, kFloat32);
  CHECK(dk == std::vector<float>(dk.size(), 0.0f));
  CHECK(dv == std::vector<float>(dv.size(), 0.0f));
}

TEST_CASE("fused CPU attention saving only the log-sum-exp: dropout's mask as with the weights, the same bits at 1, 2 and 3 threads",
          "[cpu][attention]") {
  // With dropout the backward draws the mask again over the P it forms from lse, so the
  // output and gradients must agree with those from saved weights (to rounding: P is formed
  // twice).
  // Blocks and groups depend on the shapes only, so the thread count changes no bit.
  Backend& be = backend_for(Device::CPU);
  const int saved = num_threads();
  const std::vector<Dims> shapes = {{1, 4100, 128, 16, 16}, {3, 1100, 300, 8, 4}};
  for (const Dims& d : shapes)
    for (const bool causal : {false, true}) {
      const int64_t H = d.H, Tq = d.Tq, Tk = d.Tk, hs = d.hs, hv = d.hv;
      std::mt19937 rng(uint32_t(Tq + Tk + causal));
      std::vector<float> q = uniform<float>(size_t(H * Tq * hs), rng, 2.0);
      std::vector<float> k = uniform<float>(size_t(H * Tk * hs), rng, 2.0);
      std::vector<float> v = uniform<float>(size_t(H * Tk * hv), rng);
      std::vector<float> dout = uniform<float>(size_t(H * Tq * hv), rng);
      struct Run {
        std::vector<float> out, dq, dk, dv;
      };
      // runs[0]: the weights saved, 1 thread; runs[1..3]: lse saved, 1, 2 and 3 threads
      std::vector<Run> runs;
      for (int t : {0, 1, 2, 3}) {
        set_num_threads(std::max(t, 1));
        Run r{std::vector<float>(dout.size()), std::vector<float>(q.size()),
              std::vector<float>(k.size()), std::vector<float>(v.size())};
        std::vector<float> att(size_t(H * Tq * (t == 0 ? Tk : 1)));
        KTensor a = kt(att, H, Tq, t == 0 ? Tk : 1);
        if (t > 0) {  // [H, Tq]
          a.shape.pop_back();
          a.strides.pop_back();
        }
        be.attention(kt(r.out, H, Tq, hv), a, kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                     kt(v, H, Tk, hv), 0.25, causal, 0.3, 99, kFloat32);
        be.attention_backward(kt(r.dq, H, Tq, hs), kt(r.dk, H, Tk, hs), kt(r.dv, H, Tk, hv),
                              kt(dout, H, Tq, hv), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                              kt(v, H, Tk, hv), a, 0.25, causal, 0.3, 99, kFloat32);
        runs.push_back(std::move(r));
      }
      INFO("H " << H << " Tq " << Tq << " Tk " << Tk << (causal ? " causal" : ""));
      // (att in its own rows normalizes P in place; lse leaves the scratch's rows unnormalized
      // and scales out: the same to rounding)
      CHECK(rel_err(runs[1].out, runs[0].out) < 2e-5);
      CHECK(rel_err(runs[1].dq, runs[0].dq) < 2e-5);
      CHECK(rel_err(runs[1].dk, runs[0].dk) < 2e-5);
      CHECK(rel_err(runs[1].dv, runs[0].dv) < 2e-5);
      for (size_t t = 2; t < runs.size(); ++t) {
        CHECK(runs[t].out == runs[1].out);
        CHECK(runs[t].dq == runs[1].dq);
        CHECK(runs[t].dk == runs[1].dk);
        CHECK(runs[t].dv == runs[1].dv);
      }
    }
  set_num_threads(saved);
}

TEST_CASE("fused CPU attention with bfloat16 products: attention_naive's result on the rounded inputs, to bfloat16's precision",
          "[cpu][attention][bf16]") {
  // Under autocast the kernel's products round their operands to bfloat16 and sum in
  // float32 (compute = kBFloat16), P and the softmax staying float32. The reference is
  // attention_naive in double on q, k, v and dout rounded to bfloat16: what remains is the
  // rounding of P (or the unnormalized weights) and of dS as the products read them, a
  // relative 2^-9 each, and float32 sums. The result must also differ from the float32
  // kernel's, which reads the operands unrounded: the bfloat16 path ran. Both ways of saving
  // for backward (P, and lse: the 4 KiB rows of T = 1024) and several query blocks are covered.
  const std::vector<Dims> shapes = {{2, 5, 5, 4, 4},       {2, 64, 64, 32, 32},
                                    {1, 100, 100, 64, 64}, {1, 300, 1100, 6, 4},
                                    {1, 1024, 1024, 16, 16}};
  Backend& be = backend_for(Device::CPU);
  REQUIRE(be.attention_computes(kBFloat16));
  const auto round = [](std::vector<float> x) {
    for (float& e : x) e = to_float(to_bfloat16(e));
    return x;
  };
  for (const Dims& d : shapes)
    for (const bool causal : {false, true}) {
      const int64_t H = d.H, Tq = d.Tq, Tk = d.Tk, hs = d.hs, hv = d.hv;
      std::mt19937 rng(uint32_t(H * 1000 + Tq * 31 + Tk + causal));
      std::vector<float> q = uniform<float>(size_t(H * Tq * hs), rng, 2.0);
      std::vector<float> k = uniform<float>(size_t(H * Tk * hs), rng, 2.0);
      std::vector<float> v = uniform<float>(size_t(H * Tk * hv), rng);
      std::vector<float> dout = uniform<float>(size_t(H * Tq * hv), rng);
      const float scale = float(1 / std::sqrt(double(hs)));
      // The reference, head by head.
      const auto widen = [](const std::vector<float>& x) {
        return std::vector<double>(x.begin(), x.end());
      };
      const std::vector<double> rq = widen(round(q)), rk = widen(round(k)), rv = widen(round(v)),
                                rd = widen(round(dout));
      std::vector<double> r_out(dout.size()), r_att(size_t(H * Tq * Tk)), r_dq(q.size()),
          r_dk(k.size()), r_dv(v.size());
      for (int64_t h = 0; h < H; ++h) {
        cpu::attention_naive<double>(Tq, Tk, hs, hv, &rq[size_t(h * Tq * hs)],
                                     &rk[size_t(h * Tk * hs)], &rv[size_t(h * Tk * hv)], scale,
                                     causal, &r_out[size_t(h * Tq * hv)],
                                     &r_att[size_t(h * Tq * Tk)]);
        cpu::attention_backward_naive<double>(
            Tq, Tk, hs, hv, &rq[size_t(h * Tq * hs)], &rk[size_t(h * Tk * hs)],
            &rv[size_t(h * Tk * hv)], &r_att[size_t(h * Tq * Tk)], &rd[size_t(h * Tq * hv)], scale,
            &r_dq[size_t(h * Tq * hs)], &r_dk[size_t(h * Tk * hs)], &r_dv[size_t(h * Tk * hv)]);
      }
      const bool lse = Tk * 4 % 4096 == 0;  // save only each row's log-sum-exp
      std::vector<std::vector<float>> got;  // out, dq, dk, dv of bfloat16, then of float32
      for (const DType compute : {kBFloat16, kFloat32}) {
        std::vector<float> out(dout.size()), att(size_t(H * Tq * (lse ? 1 : Tk)));
        std::vector<float> dq(q.size()), dk(k.size()), dv(v.size());
        KTensor a = kt(att, H, Tq, lse ? 1 : Tk);
        if (lse) {
          a.shape.pop_back();
          a.strides.pop_back();
        }
        be.attention(kt(out, H, Tq, hv), a, kt(q, H, Tq, hs), kt(k, H, Tk, hs), kt(v, H, Tk, hv),
                     scale, causal, 0.0, 0, compute);
        be.attention_backward(kt(dq, H, Tq, hs), kt(dk, H, Tk, hs), kt(dv, H, Tk, hv),
                              kt(dout, H, Tq, hv), kt(q, H, Tq, hs), kt(k, H, Tk, hs),
                              kt(v, H, Tk, hv), a, scale, causal, 0.0, 0, compute);
        for (auto* x : {&out, &dq, &dk, &dv}) got.push_back(std::move(*x));
      }
      INFO("H " << H << " Tq " << Tq << " Tk " << Tk << (causal ? " causal" : "")
                << (lse ? " lse" : ""));
      CHECK(rel_err(widen(got[0]), r_out) < 1e-2);
      CHECK(rel_err(widen(got[1]), r_dq) < 1e-2);
      CHECK(rel_err(widen(got[2]), r_dk) < 1e-2);
      CHECK(rel_err(widen(got[3]), r_dv) < 1e-2);
      double apart = 0;  // bfloat16's results against float32's
      for (size_t i = 0; i < 4; ++i) apart = std::max(apart, rel_err(got[i], got[i + 4]));
      CHECK(apart > 1e-4);
    }
}
