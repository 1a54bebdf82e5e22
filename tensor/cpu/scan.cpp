// The scans on the CPU along one dim (see tensor/backend.h): the decayed prefix sum
// out_t = in_t + r_t ⊙ out_{t−1} (ops/decayed_cumsum.cpp holds the op and its derivative)
// and the running maximum (ops/running_max.cpp).
// The other dims are cut into innermost rows (strided_rows), once; a row and its n steps
// along dim form a panel [n, len], scanned step by step, each step one pass along the row,
// which vectorizes where the row is contiguous. A line-by-line loop (scan.h's naive
// reference) would stride through memory at every step. Panels are independent, so they
// go to threads whole.
#include <algorithm>
#include <array>
#include <vector>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// One panel: each operand's offset at step 0, the row's length and strides along it.
struct Panel {
  std::array<int64_t, 3> off;
  int64_t len;
  std::array<int64_t, 3> st;
};

// One step of panel pn: o[j] = x[j] + d[j] · p[j] for j < pn.len, p laid out as o, with the
// panel's strides along the row (d's 0: one decay for the whole row).
template <class T>
void step_row(T* o, const T* x, const T* d, const T* p, const Panel& pn) {
  const auto [so, sx, sd] = pn.st;
  const int64_t len = pn.len;
  if (so == 1 && sx == 1 && sd == 1) {
#pragma omp simd
    for (int64_t j = 0; j < len; ++j) o[j] = x[j] + d[j] * p[j];
  } else if (so == 1 && sx == 1 && sd == 0) {
    const T dj = d[0];
#pragma omp simd
    for (int64_t j = 0; j < len; ++j) o[j] = x[j] + dj * p[j];
  } else {
    for (int64_t j = 0; j < len; ++j) o[j * so] = x[j * sx] + d[j * sd] * p[j * so];
  }
}

// The panels of a scan along dim: the other dims cut into innermost rows, each operand's
// offset and strides (out, in, and r's strides, or in's again for a scan without r).
std::vector<Panel> panels_along(const KTensor& out, const KTensor& in, const std::vector<int64_t>& r_strides,
                                int64_t dim) {
  auto without_dim = [&](std::vector<int64_t> v) {
    v.erase(v.begin() + dim);
    return v;
  };
  const std::vector<int64_t> shape = without_dim(in.shape);
  const std::vector<int64_t> so = without_dim(out.strides), si = without_dim(in.strides),
                             sr = without_dim(r_strides);
  std::vector<Panel> panels;
  strided_rows<3>(shape, {&so, &si, &sr}, [&](auto off, int64_t len, auto st) {
    panels.push_back({{off[0], off[1], off[2]}, len, {st[0], st[1], st[2]}});
  });
  return panels;
}

// f(panel) for every panel, panels whole to threads. A thread gets at least about 64K
// element steps (n per row element), or waking it costs more than it saves.
template <class F>
void for_each_panel(const std::vector<Panel>& panels, int64_t n, F&& f) {
  int64_t work = 0;
  for (const Panel& p : panels) work += p.len;
  const auto count = std::max<int64_t>(1, int64_t(panels.size()));
  const int64_t per_panel = std::max<int64_t>(1, n * work / count);
  const int64_t grain = std::max<int64_t>(1, (int64_t(1) << 16) / per_panel);
  parallel_for(0, int64_t(panels.size()), grain, [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) f(panels[size_t(p)]);
  });
}

}  // namespace

// out, in, r: the same shape (r's strides may be 0 where it is broadcast); along dim
//   out_t = in_t + r_t out_{t−1}, out_0 = in_0;  reverse: out_t = in_t + r_{t+1} out_{t+1}.
void Kernels::decayed_cumsum(const KTensor& out, const KTensor& in, const KTensor& r,
                             int64_t dim, bool reverse) {
  const auto d = size_t(dim);
  const int64_t n = in.shape[d];
  if (n == 0) return;
  const std::vector<Panel> panels = panels_along(out, in, r.strides, dim);
  const int64_t to = out.strides[d], ti = in.strides[d], tr = r.strides[d];
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    for_each_panel(panels, n, [&](const Panel& pn) {
      T* po = out.ptr<T>() + pn.off[0];
      const T* px = in.ptr<T>() + pn.off[1];
      const T* pr = r.ptr<T>() + pn.off[2];
      const int64_t first = reverse ? n - 1 : 0;
      for (int64_t j = 0; j < pn.len; ++j)
        po[first * to + j * pn.st[0]] = px[first * ti + j * pn.st[1]];
      for (int64_t k = 1; k < n; ++k) {
        // decay r_t (forward) or r_{t+1} (reverse): the step's own index, or the one before
        const int64_t t = reverse ? n - 1 - k : k, prev = reverse ? t + 1 : t - 1;
        const int64_t dt = reverse ? t + 1 : t;
        step_row<T>(po + t * to, px + t * ti, pr + dt * tr, po + prev * to, pn);
      }
    });
  });
}

// out, in: the same shape; along dim out_0 = in_0, out_t = max(out_{t−1}, in_t), one pass
// along each panel's row per step as decayed_cumsum. A NaN stays: x > m is false for
// either a NaN x or a NaN m, so the NaN test keeps the first NaN and then m itself.
void Kernels::running_max(const KTensor& out, const KTensor& in, int64_t dim) {
  const auto d = size_t(dim);
  const int64_t n = in.shape[d];
  if (n == 0) return;
  const std::vector<Panel> panels = panels_along(out, in, in.strides, dim);
  const int64_t to = out.strides[d], ti = in.strides[d];
  dispatch_floating(in.dtype, [&](auto z) {
    using T = decltype(z);
    for_each_panel(panels, n, [&](const Panel& pn) {
      T* po = out.ptr<T>() + pn.off[0];
      const T* px = in.ptr<T>() + pn.off[1];
      const int64_t so = pn.st[0], sx = pn.st[1];
      for (int64_t j = 0; j < pn.len; ++j) po[j * so] = px[j * sx];
      for (int64_t t = 1; t < n; ++t) {
        T* o = po + t * to;
        const T* x = px + t * ti;
        const T* m = po + (t - 1) * to;
        for (int64_t j = 0; j < pn.len; ++j) {
          const T v = x[j * sx], before = m[j * so];
          o[j * so] = (v > before || v != v) && before == before ? v : before;
        }
      }
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
