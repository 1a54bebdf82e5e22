// Route attention's sum over sources on the CPU (see tensor/backend.h):
//   out[b, h] = Σ_l w[l·NH + h] · src_l[b, h]        src_l, out [B, NH, T, hs]
// Written as multiplies and adds, it is 2L − 1 passes over [B, NH, T, hs] forward, and in
// backward a multiply, a multiply and a reduction for each source (routed_sum.h holds the
// plain loops). Here one pass reads every source once: forward, each row of hs is summed over
// the sources in registers; backward, each row of g is read once for all L products w · g and
// all L dot products g · src_l.
// The work is split into blocks of kTBlock positions t of one b, and within a block the rows
// go in (t, h) order: in route's packed layout ([B, T, 3C], heads side by side) one t's
// heads are then one run of memory, where (b, h) pairs with t inside jumped 3C floats from
// row to row.
// dw's sums are kept per (b, block, h) in double, each in t order, and added in order
// afterwards, so they do not depend on the thread count.
#include <algorithm>
#include <vector>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Positions t of one block: a fixed size, so that dw's partial sums, one per block, do not
// depend on how the blocks are split between threads.
constexpr int64_t kTBlock = 16;

// The blocks of one b: T positions in blocks of kTBlock, the last one maybe shorter.
int64_t t_blocks(int64_t Tn) { return (Tn + kTBlock - 1) / kTBlock; }

// Calls row(b, h, t, k) for every row (b, h, t) of [B, NH, T, hs], in blocks of kTBlock
// positions of one b (k: the block's index, b · blocks + t / kTBlock), each block's rows in
// (t, h) order, the blocks split between threads about 16K elements at a time.
template <class Row>
void for_each_row(int64_t B, int64_t NH, int64_t Tn, int64_t hs, const Row& row) {
  const int64_t blocks = t_blocks(Tn);
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, kTBlock * NH * hs));
  parallel_for(0, B * blocks, grain, [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const int64_t b = k / blocks, t0 = k % blocks * kTBlock;
      for (int64_t t = t0; t < std::min(Tn, t0 + kTBlock); ++t)
        for (int64_t h = 0; h < NH; ++h) row(b, h, t, k);
    }
  });
}

// A [B, NH, T, hs] operand as raw pointer and strides, read once outside the row loops.
template <class T>
struct Rows {
  T* p;
  int64_t sb, sh, st, si;
  explicit Rows(const KTensor& k)
      : p(static_cast<T*>(k.data)), sb(k.strides[0]), sh(k.strides[1]), st(k.strides[2]),
        si(k.strides[3]) {}
  T* at(int64_t b, int64_t h, int64_t t) const { return p + b * sb + h * sh + t * st; }
};

}  // namespace

// out [B, NH, T, hs] with unit stride in hs (route's packed form writes head views of
// [B, T, 3C]), w [L·NH] contiguous, src_l [B, NH, T, hs] any strides
void Kernels::routed_sum(const KTensor& out, const KTensor& w, const std::vector<KTensor>& src) {
  const int64_t B = out.shape[0], NH = out.shape[1], Tn = out.shape[2], hs = out.shape[3];
  const auto L = int64_t(src.size());
  ATTIC_CHECK(out.strides[3] == 1, "routed_sum: out needs unit stride in hs, got strides ",
              str(out.strides));
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    const Rows<T> o_rows(out);
    std::vector<Rows<const T>> s_rows;
    for (const KTensor& s : src) s_rows.emplace_back(s);
    const T* pw = w.ptr<T>();
    for_each_row(B, NH, Tn, hs, [&](int64_t b, int64_t h, int64_t t, int64_t) {
      T* o = o_rows.at(b, h, t);
      for (int64_t l = 0; l < L; ++l) {
        const Rows<const T>& s = s_rows[size_t(l)];
        const T* x = s.at(b, h, t);
        const T wl = pw[l * NH + h];
        if (l == 0 && s.si == 1) {
#pragma omp simd
          for (int64_t i = 0; i < hs; ++i) o[i] = wl * x[i];
        } else if (s.si == 1) {
#pragma omp simd
          for (int64_t i = 0; i < hs; ++i) o[i] += wl * x[i];
        } else {
          for (int64_t i = 0; i < hs; ++i) o[i] = (l == 0 ? T(0) : o[i]) + wl * x[i * s.si];
        }
      }
    });
  });
}

// dsrc_l [B, NH, T, hs] with unit stride in hs, dw [L·NH] contiguous; g, src_l any strides
void Kernels::routed_sum_backward(const std::vector<KTensor>& dsrc, const KTensor& dw,
                                  const KTensor& g, const KTensor& w,
                                  const std::vector<KTensor>& src) {
  const int64_t B = g.shape[0], NH = g.shape[1], Tn = g.shape[2], hs = g.shape[3];
  const auto L = int64_t(src.size());
  for (const KTensor& d : dsrc)
    ATTIC_CHECK(d.strides[3] == 1, "routed_sum_backward: dsrc needs unit stride in hs, got "
                "strides ", str(d.strides));
  const int64_t blocks = B * t_blocks(Tn);
  // Σ_{t,i} g · src_l over block k's rows of head h, at [(k · NH + h) · L + l]
  // (A loop, not std::vector's fill constructor: see tensor/cpu/kernels.h on the standard
  // library's templates in kernel files.)
  const Scratch<double> partial_sums(*this, size_t(blocks * NH * L));
  double* partial = partial_sums.data();
  for (int64_t i = 0; i < blocks * NH * L; ++i) partial[i] = 0.0;
  dispatch_floating(g.dtype, [&](auto z) {
    using T = decltype(z);
    const Rows<const T> g_rows(g);
    std::vector<Rows<const T>> s_rows;
    std::vector<Rows<T>> d_rows;
    for (const KTensor& s : src) s_rows.emplace_back(s);
    for (const KTensor& d : dsrc) d_rows.emplace_back(d);
    const T* pw = w.ptr<T>();
    for_each_row(B, NH, Tn, hs, [&](int64_t b, int64_t h, int64_t t, int64_t k) {
      const T* gr = g_rows.at(b, h, t);
      const int64_t sg = g_rows.si;
      for (int64_t l = 0; l < L; ++l) {
        const Rows<const T>& s = s_rows[size_t(l)];
        const T* x = s.at(b, h, t);
        T* d = d_rows[size_t(l)].at(b, h, t);
        const T wl = pw[l * NH + h];
        T dot = 0;  // one row's dot product in T, vectorized; the rows add up in double
        if (sg == 1 && s.si == 1) {
#pragma omp simd reduction(+ : dot)
          for (int64_t i = 0; i < hs; ++i) {
            d[i] = wl * gr[i];
            dot += gr[i] * x[i];
          }
        } else {
          for (int64_t i = 0; i < hs; ++i) {
            d[i] = wl * gr[i * sg];
            dot += gr[i * sg] * x[i * s.si];
          }
        }
        partial[(k * NH + h) * L + l] += double(dot);
      }
    });
    for (int64_t l = 0; l < L; ++l)
      for (int64_t h = 0; h < NH; ++h) {
        double acc = 0;
        for (int64_t k = 0; k < blocks; ++k) acc += partial[(k * NH + h) * L + l];
        dw.ptr<T>()[l * NH + h] = T(acc);
      }
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
