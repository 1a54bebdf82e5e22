// Element types and devices. float32 computes, int64 indexes, float64 makes gradcheck exact,
// bool masks (one byte per element holding 0 or 1, as C++'s bool and PyTorch's torch.bool).
// bfloat16 and float16 (tensor/half.h) are storage: tensors of them are converted, copied,
// printed, saved and loaded, and the matrix products of autocast (autograd/autocast_mode.h) read them;
// every other op computes in float32 and refuses them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "tensor/error.h"
#include "tensor/half.h"

namespace attic {

enum class DType : uint8_t { Float32, Float64, Int64, Bool, BFloat16, Float16 };

inline constexpr DType kFloat32 = DType::Float32;
inline constexpr DType kFloat64 = DType::Float64;
inline constexpr DType kInt64 = DType::Int64;
inline constexpr DType kBool = DType::Bool;
inline constexpr DType kBFloat16 = DType::BFloat16;
inline constexpr DType kFloat16 = DType::Float16;

inline size_t dtype_size(DType d) {
  switch (d) {
    case DType::Float32: return 4;
    case DType::Bool: return 1;
    case DType::BFloat16:
    case DType::Float16: return 2;
    default: return 8;
  }
}
// The 16-bit floats, which are stored but not computed in (see the file comment).
inline bool is_reduced_float(DType d) { return d == DType::BFloat16 || d == DType::Float16; }
inline bool is_floating(DType d) {
  return d == DType::Float32 || d == DType::Float64 || is_reduced_float(d);
}
inline const char* dtype_name(DType d) {
  switch (d) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Int64: return "int64";
    case DType::Bool: return "bool";
    case DType::BFloat16: return "bfloat16";
    case DType::Float16: return "float16";
  }
  return "?";
}

// dtype_of<float>::value == kFloat32: the DType of a C++ element type.
template <class T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };
template <> struct dtype_of<bfloat16> { static constexpr DType value = DType::BFloat16; };
template <> struct dtype_of<float16> { static constexpr DType value = DType::Float16; };

enum class Device : uint8_t { CPU, CUDA };

inline const char* device_name(Device d) { return d == Device::CPU ? "cpu" : "cuda"; }

// Calls f(T{}) with T the C++ type of dtype d: the one switch every computing kernel uses.
// The ops refuse bfloat16 and float16 before a kernel runs (ops/helpers.h, backend_of), so
// reaching one here is a bug in attic, reported as such rather than read as other bits.
[[noreturn]] inline void fail_reduced_in_kernel(DType d) {
  fail("kernel: a ", d == DType::BFloat16 ? "bfloat16" : "float16",
       " tensor reached a kernel that computes in float32, float64, int64 or bool (a bug in "
       "attic: the op should have refused it)");
}
template <class F>
decltype(auto) dispatch_dtype(DType d, F&& f) {
  switch (d) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Bool: return f(bool{});
    case DType::Int64: return f(int64_t{});
    default: fail_reduced_in_kernel(d);
  }
}

// Same, for kernels that only exist for floating types (the op has checked the dtype).
template <class F>
decltype(auto) dispatch_floating(DType d, F&& f) {
  if (is_reduced_float(d)) fail_reduced_in_kernel(d);
  if (d == DType::Float64) return f(double{});
  return f(float{});
}

// dispatch_dtype with the two storage types as well: for the kernels that only move or
// convert elements (fill, copy), which see bfloat16 and float16 as their structs.
template <class F>
decltype(auto) dispatch_storage(DType d, F&& f) {
  switch (d) {
    case DType::BFloat16: return f(bfloat16{});
    case DType::Float16: return f(float16{});
    default: return dispatch_dtype(d, static_cast<F&&>(f));
  }
}

}  // namespace attic
