// Elementwise CPU kernels: fill, copy (with dtype conversion), unary, binary, where.
// Each runs a flat loop when every operand is contiguous, else the strided row loop.
// A large flat loop is split over the thread pool; each element is computed alone, so the
// result does not depend on the split.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "tensor/cpu/kernels.h"
#include "tensor/cpu/fast_math.h"
#include "tensor/cpu/strided.h"
#include "tensor/cpu/thread_pool.h"
#include "tensor/error.h"

namespace attic::cpu::ATTIC_CPU_ISA {

namespace {

// Elements per chunk of a parallel flat loop: below 2 chunks the pool's hand-off
// (microseconds) costs more than the loop itself.
constexpr int64_t kGrain = 32768;

// Calls body(begin, end) over [0, n): inline when n is small, else on the thread pool.
template <class Body>
void flat_loop(int64_t n, const Body& body) {
  if (n < 2 * kGrain)
    body(int64_t(0), n);
  else
    parallel_for(0, n, kGrain, body);
}

// strided_rows for an elementwise kernel: inline when small, else the rows split across the
// thread pool (each output element is written by one row only). Broadcast operands are
// the common case here, e.g. a [B, T, C] tensor times a [B, T, 1] one.
template <size_t N, class Row>
void strided_loop(const std::vector<int64_t>& shape,
                  const std::array<const std::vector<int64_t>*, N>& strides, const Row& row) {
  const int64_t rows = row_count(shape);
  const int64_t n = shape.empty() ? 1 : std::max<int64_t>(shape.back(), 1);
  if (rows * n < 2 * kGrain || rows < 2) {
    strided_rows_range<N>(shape, strides, 0, rows, row);
    return;
  }
  parallel_for(0, rows, std::max<int64_t>(1, kGrain / n), [&](int64_t begin, int64_t end) {
    strided_rows_range<N>(shape, strides, begin, end, row);
  });
}

// out[i] = f(in[i]) over any strides; Out and In may be different types.
template <class Out, class In, class F>
void map1(const KTensor& out, const KTensor& in, F f) {
  Out* o = out.ptr<Out>();
  const In* x = in.ptr<In>();
  if (all_contiguous({&out, &in})) {
    flat_loop(out.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) o[i] = f(x[i]);
    });
    return;
  }
  strided_loop<2>(out.shape, {&out.strides, &in.strides}, [&](auto off, int64_t n, auto st) {
    Out* po = o + off[0];
    const In* px = x + off[1];
    for (int64_t i = 0; i < n; ++i) po[i * st[0]] = f(px[i * st[1]]);
  });
}

// out[i] = sin or cos of in[i] for float32, over any strides: sin_f32 / cos_f32 (fast_math.h),
// vectorized, and libm for |x| > kTrigMax, where their reduction by π/2 would lose bits.
// Each block of 256 elements is checked first, so the common block is one vectorized loop;
// every input is read before its own output is written, so out may be in.
template <class Fast, class Exact>
void map1_trig(const KTensor& out, const KTensor& in, Fast fast, Exact exact) {
  auto row = [&](float* o, const float* x, int64_t n, int64_t so, int64_t sx) {
    for (int64_t b = 0; b < n; b += 256) {
      const int64_t e = std::min<int64_t>(n, b + 256);
      float largest = 0;  // NaN compares false and stays on the fast path, which returns NaN
      for (int64_t i = b; i < e; ++i) largest = std::max(largest, std::abs(x[i * sx]));
      if (largest > kTrigMax) {
        for (int64_t i = b; i < e; ++i) {
          const float v = x[i * sx];
          o[i * so] = std::abs(v) <= kTrigMax ? fast(v) : exact(v);
        }
      } else if (so == 1 && sx == 1) {
        for (int64_t i = b; i < e; ++i) o[i] = fast(x[i]);
      } else {
        for (int64_t i = b; i < e; ++i) o[i * so] = fast(x[i * sx]);
      }
    }
  };
  float* o = out.ptr<float>();
  const float* x = in.ptr<float>();
  if (all_contiguous({&out, &in})) {
    flat_loop(out.numel(), [&](int64_t begin, int64_t end) { row(o + begin, x + begin, end - begin, 1, 1); });
    return;
  }
  strided_loop<2>(out.shape, {&out.strides, &in.strides}, [&](auto off, int64_t n, auto st) {
    row(o + off[0], x + off[1], n, st[0], st[1]);
  });
}

// out[i] = f(a[i], b[i]); a comparison writes Out = bool from inputs of type T.
template <class T, class F, class Out = T>
void map2(const KTensor& out, const KTensor& a, const KTensor& b, F f) {
  Out* o = out.ptr<Out>();
  const T* pa = a.ptr<T>();
  const T* pb = b.ptr<T>();
  if (all_contiguous({&out, &a, &b})) {
    flat_loop(out.numel(), [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) o[i] = f(pa[i], pb[i]);
    });
    return;
  }
  strided_loop<3>(out.shape, {&out.strides, &a.strides, &b.strides},
                  [&](auto off, int64_t n, auto st) {
                    Out* po = o + off[0];
                    const T* x = pa + off[1];
                    const T* y = pb + off[2];
                    // The rows broadcasting makes, written so that they vectorize: both
                    // inputs along the row, or one of them a single value for the row.
                    if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
                      for (int64_t i = 0; i < n; ++i) po[i] = f(x[i], y[i]);
                    } else if (st[0] == 1 && st[1] == 1 && st[2] == 0) {
                      const T yv = *y;
                      for (int64_t i = 0; i < n; ++i) po[i] = f(x[i], yv);
                    } else if (st[0] == 1 && st[1] == 0 && st[2] == 1) {
                      const T xv = *x;
                      for (int64_t i = 0; i < n; ++i) po[i] = f(xv, y[i]);
                    } else {
                      for (int64_t i = 0; i < n; ++i) po[i * st[0]] = f(x[i * st[1]], y[i * st[2]]);
                    }
                  });
}

// The erf form of GELU: x Φ(x) with Φ(x) = (1 + erf(x / √2)) / 2.
// verf/vexp (fast_math.h) keep the float loop vectorized.
template <class T> T gelu_erf(T x) { return T(0.5) * x * (T(1) + verf(x * T(M_SQRT1_2))); }

// Its derivative Φ(x) + x φ(x), φ(x) = e^(-x²/2) / √(2π), where the composed backward runs
// about ten kernels over the tensor (BinaryOp::GeluErfBackward multiplies it into the
// incoming gradient in the same pass).
// float: erf by Abramowitz & Stegun 7.1.26, which is built on the same e^(-u²) = e^(-x²/2)
// (u = x / √2) that φ needs, so one exp serves both:
//   erf(|u|) = 1 - t (a1 + t (a2 + t (a3 + t (a4 + t a5)))) e^(-u²),  t = 1 / (1 + p |u|),
// |error| <= 1.5e-7; the whole derivative is within 3e-7 of the exact one in float32
// (tests/ops/test_activation.cpp), and cheaper than erf_f32 plus an exp.
// double: libm's erf and exp.
// Always inlined: called once per element from a loop that must vectorize, and GCC declines
// to inline it on its own (the loop then runs one element per call).
template <class T> [[gnu::always_inline]] inline T gelu_erf_grad(T x) {
  const T inv_sqrt_2pi = T(0.3989422804014327);  // 1/√(2π)
  const T e = vexp_nonpos(T(-0.5) * x * x);
  if constexpr (std::is_same_v<T, float>) {
    const float t = 1.0f / (1.0f + 0.3275911f * (std::abs(x) * float(M_SQRT1_2)));
    float p = 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    const float half_erf = std::copysign(0.5f - 0.5f * p * t * e, x);  // erf(x / √2) / 2
    return (0.5f + half_erf) + x * inv_sqrt_2pi * e;
  } else {
    return T(0.5) * (T(1) + verf(x * T(M_SQRT1_2))) + x * inv_sqrt_2pi * e;
  }
}

// GPT-2's tanh approximation: 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))).
template <class T> T gelu_tanh(T x) {
  const T k = T(0.7978845608028654);  // √(2/π)
  return T(0.5) * x * (T(1) + std::tanh(k * (x + T(0.044715) * x * x * x)));
}

// σ(x) = 1 / (1 + e^-x), written so that exp never overflows: for x < 0 use e^x / (1 + e^x).
template <class T> T sigmoid(T x) {
  if (x >= 0) return T(1) / (T(1) + std::exp(-x));
  const T e = std::exp(x);
  return e / (T(1) + e);
}

template <class T>
void unary_typed(UnaryOp op, const KTensor& out, const KTensor& in, T p0, T p1) {
  switch (op) {
    case UnaryOp::Neg: return map1<T, T>(out, in, [](T x) { return -x; });
    case UnaryOp::Exp: return map1<T, T>(out, in, [](T x) { return vexp(x); });
    case UnaryOp::Log: return map1<T, T>(out, in, [](T x) { return std::log(x); });
    case UnaryOp::Sqrt: return map1<T, T>(out, in, [](T x) { return std::sqrt(x); });
    case UnaryOp::Rsqrt: return map1<T, T>(out, in, [](T x) { return T(1) / std::sqrt(x); });
    case UnaryOp::Abs: return map1<T, T>(out, in, [](T x) { return std::abs(x); });
    case UnaryOp::Sign: return map1<T, T>(out, in, [](T x) { return T((x > 0) - (x < 0)); });
    case UnaryOp::Tanh: return map1<T, T>(out, in, [](T x) { return std::tanh(x); });
    case UnaryOp::Sigmoid: return map1<T, T>(out, in, [](T x) { return sigmoid(x); });
    case UnaryOp::Relu: return map1<T, T>(out, in, [](T x) { return x > 0 ? x : T(0); });
    case UnaryOp::GeluErf: return map1<T, T>(out, in, [](T x) { return gelu_erf(x); });
    case UnaryOp::GeluTanh: return map1<T, T>(out, in, [](T x) { return gelu_tanh(x); });
    case UnaryOp::Silu: return map1<T, T>(out, in, [](T x) { return x * sigmoid(x); });
    case UnaryOp::Elu:  // alpha (e^x - 1) below 0; expm1 keeps precision near 0
      return map1<T, T>(out, in, [p0](T x) { return x > 0 ? x : p0 * std::expm1(x); });
    case UnaryOp::Sin:
      if constexpr (std::is_same_v<T, float>)
        return map1_trig(out, in, [](float x) { return sin_f32(x); }, [](float x) { return std::sin(x); });
      else return map1<T, T>(out, in, [](T x) { return std::sin(x); });
    case UnaryOp::Cos:
      if constexpr (std::is_same_v<T, float>)
        return map1_trig(out, in, [](float x) { return cos_f32(x); }, [](float x) { return std::cos(x); });
      else return map1<T, T>(out, in, [](T x) { return std::cos(x); });
    case UnaryOp::Erf: return map1<T, T>(out, in, [](T x) { return std::erf(x); });
    case UnaryOp::Clamp:
      return map1<T, T>(out, in, [p0, p1](T x) { return x < p0 ? p0 : (x > p1 ? p1 : x); });
    case UnaryOp::PowScalar: return map1<T, T>(out, in, [p0](T x) { return std::pow(x, p0); });
    case UnaryOp::Step: return map1<T, T>(out, in, [](T x) { return x > 0 ? T(1) : T(0); });
  }
}

// out[i] = f(a[i], b[i]) as a bool: the comparisons.
template <class T, class F>
void compare(const KTensor& out, const KTensor& a, const KTensor& b, F f) {
  map2<T, F, bool>(out, a, b, f);
}

template <class T>
void binary_typed(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  switch (op) {
    case BinaryOp::Add: return map2<T>(out, a, b, [](T x, T y) { return x + y; });
    case BinaryOp::Sub: return map2<T>(out, a, b, [](T x, T y) { return x - y; });
    case BinaryOp::Mul: return map2<T>(out, a, b, [](T x, T y) { return x * y; });
    case BinaryOp::Div: return map2<T>(out, a, b, [](T x, T y) { return x / y; });
    case BinaryOp::Pow: return map2<T>(out, a, b, [](T x, T y) { return T(std::pow(x, y)); });
    // NaN propagates through maximum and minimum, as in PyTorch
    case BinaryOp::Maximum:
      return map2<T>(out, a, b, [](T x, T y) { return (x != x || x > y) ? x : y; });
    case BinaryOp::Minimum:
      return map2<T>(out, a, b, [](T x, T y) { return (x != x || x < y) ? x : y; });
    case BinaryOp::Gt: return compare<T>(out, a, b, [](T x, T y) { return x > y; });
    case BinaryOp::Lt: return compare<T>(out, a, b, [](T x, T y) { return x < y; });
    case BinaryOp::Ge: return compare<T>(out, a, b, [](T x, T y) { return x >= y; });
    case BinaryOp::Le: return compare<T>(out, a, b, [](T x, T y) { return x <= y; });
    case BinaryOp::Eq: return compare<T>(out, a, b, [](T x, T y) { return x == y; });
    case BinaryOp::Ne: return compare<T>(out, a, b, [](T x, T y) { return x != y; });
    case BinaryOp::GeluErfBackward:
      if constexpr (std::is_floating_point_v<T>)
        return map2<T>(out, a, b, [](T g, T x) { return g * gelu_erf_grad(x); });
      else
        return;  // ops/activation.cpp only asks for it with floating dtypes
  }
}

// Arithmetic on two bool tensors, as PyTorch defines it: + and max are OR, * and min are
// AND, x^y is x OR NOT y. The other ops have no bool form (the op has refused them); the
// comparisons compare false < true.
void binary_bool(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  switch (op) {
    case BinaryOp::Add:
    case BinaryOp::Maximum: return map2<bool>(out, a, b, [](bool x, bool y) { return x || y; });
    case BinaryOp::Mul:
    case BinaryOp::Minimum: return map2<bool>(out, a, b, [](bool x, bool y) { return x && y; });
    case BinaryOp::Pow: return map2<bool>(out, a, b, [](bool x, bool y) { return x || !y; });
    case BinaryOp::Gt: return compare<bool>(out, a, b, [](bool x, bool y) { return x > y; });
    case BinaryOp::Lt: return compare<bool>(out, a, b, [](bool x, bool y) { return x < y; });
    case BinaryOp::Ge: return compare<bool>(out, a, b, [](bool x, bool y) { return x >= y; });
    case BinaryOp::Le: return compare<bool>(out, a, b, [](bool x, bool y) { return x <= y; });
    case BinaryOp::Eq: return compare<bool>(out, a, b, [](bool x, bool y) { return x == y; });
    case BinaryOp::Ne: return compare<bool>(out, a, b, [](bool x, bool y) { return x != y; });
    default: fail("binary: bool tensors have no kernel for this op (the op should refuse them)");
  }
}

}  // namespace

// out[i] = value. It writes without reading: out is often fresh memory, and an
// uninitialized byte read as a bool is undefined behaviour (UBSan reports it).
void Kernels::fill(const KTensor& out, double value) {
  dispatch_storage(out.dtype, [&](auto z) {
    using T = decltype(z);
    const T v = value_cast<T>(value);
    T* o = out.ptr<T>();
    if (all_contiguous({&out})) {
      flat_loop(out.numel(), [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) o[i] = v;  // not std::fill: see kernels.h
      });
      return;
    }
    strided_rows<1>(out.shape, {&out.strides}, [&](auto off, int64_t n, auto st) {
      T* po = o + off[0];
      for (int64_t i = 0; i < n; ++i) po[i * st[0]] = v;
    });
  });
}

void Kernels::copy(const KTensor& out, const KTensor& in) {
  dispatch_storage(out.dtype, [&](auto zo) {
    dispatch_storage(in.dtype, [&](auto zi) {
      using O = decltype(zo);
      using I = decltype(zi);
      map1<O, I>(out, in, [](I x) { return value_cast<O>(x); });
    });
  });
}

void Kernels::unary(UnaryOp op, const KTensor& out, const KTensor& in, double p0, double p1) {
  dispatch_floating(out.dtype, [&](auto z) {
    using T = decltype(z);
    unary_typed<T>(op, out, in, T(p0), T(p1));
  });
}

void Kernels::binary(BinaryOp op, const KTensor& out, const KTensor& a, const KTensor& b) {
  dispatch_dtype(a.dtype, [&](auto z) {
    using T = decltype(z);
    if constexpr (std::is_same_v<T, bool>) binary_bool(op, out, a, b);
    else binary_typed<T>(op, out, a, b);
  });
}

void Kernels::where(const KTensor& out, const KTensor& cond, const KTensor& a,
                    const KTensor& b) {
  dispatch_dtype(out.dtype, [&](auto z) {
    using T = decltype(z);
    dispatch_dtype(cond.dtype, [&](auto zc) {
      using C = decltype(zc);
      T* o = out.ptr<T>();
      const C* c = cond.ptr<C>();
      const T* pa = a.ptr<T>();
      const T* pb = b.ptr<T>();
      if (all_contiguous({&out, &cond, &a, &b})) {
        flat_loop(out.numel(), [&](int64_t begin, int64_t end) {
          for (int64_t i = begin; i < end; ++i) o[i] = c[i] != C(0) ? pa[i] : pb[i];
        });
        return;
      }
      strided_loop<4>(out.shape, {&out.strides, &cond.strides, &a.strides, &b.strides},
                      [&](auto off, int64_t n, auto st) {
                        T* po = o + off[0];
                        const C* pc = c + off[1];
                        const T* pbr = pb + off[3];
                        // masked_fill's rows (a is one fill value, b and out run along the
                        // row), written so that they vectorize: a mask broadcast along the
                        // row fills or copies the whole row.
                        if (st[0] == 1 && st[2] == 0 && st[3] == 1) {
                          const T fill = pa[off[2]];
                          if (st[1] == 0) {
                            if (*pc != C(0)) {
                              for (int64_t i = 0; i < n; ++i) po[i] = fill;
                            }
                            else std::copy(pbr, pbr + n, po);
                          } else {
                            for (int64_t i = 0; i < n; ++i)
                              po[i] = pc[i * st[1]] != C(0) ? fill : pbr[i];
                          }
                          return;
                        }
                        for (int64_t i = 0; i < n; ++i)
                          po[i * st[0]] = pc[i * st[1]] != C(0) ? pa[off[2] + i * st[2]]
                                                                : pbr[i * st[3]];
                      });
    });
  });
}

}  // namespace attic::cpu::ATTIC_CPU_ISA
