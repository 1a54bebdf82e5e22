// Element types and devices. float32 computes, int64 indexes, float64 makes gradcheck exact,
// bool masks (one byte per element holding 0 or 1, as C++'s bool and PyTorch's torch.bool).
#pragma once

#include <cstddef>
#include <cstdint>

namespace attic {

enum class DType : uint8_t { Float32, Float64, Int64, Bool };

inline constexpr DType kFloat32 = DType::Float32;
inline constexpr DType kFloat64 = DType::Float64;
inline constexpr DType kInt64 = DType::Int64;
inline constexpr DType kBool = DType::Bool;

inline size_t dtype_size(DType d) {
  switch (d) {
    case DType::Float32: return 4;
    case DType::Bool: return 1;
    default: return 8;
  }
}
inline bool is_floating(DType d) { return d == DType::Float32 || d == DType::Float64; }
inline const char* dtype_name(DType d) {
  switch (d) {
    case DType::Float32: return "float32";
    case DType::Float64: return "float64";
    case DType::Int64: return "int64";
    case DType::Bool: return "bool";
  }
  return "?";
}

// dtype_of<float>::value == kFloat32: the DType of a C++ element type.
template <class T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr DType value = DType::Float32; };
template <> struct dtype_of<double> { static constexpr DType value = DType::Float64; };
template <> struct dtype_of<int64_t> { static constexpr DType value = DType::Int64; };
template <> struct dtype_of<bool> { static constexpr DType value = DType::Bool; };

enum class Device : uint8_t { CPU, CUDA };

inline const char* device_name(Device d) { return d == Device::CPU ? "cpu" : "cuda"; }

// Calls f(T{}) with T the C++ type of dtype d: the one switch every kernel uses.
template <class F>
decltype(auto) dispatch_dtype(DType d, F&& f) {
  switch (d) {
    case DType::Float32: return f(float{});
    case DType::Float64: return f(double{});
    case DType::Bool: return f(bool{});
    default: return f(int64_t{});
  }
}

// Same, for kernels that only exist for floating types (the op has checked the dtype).
template <class F>
decltype(auto) dispatch_floating(DType d, F&& f) {
  if (d == DType::Float64) return f(double{});
  return f(float{});
}

}  // namespace attic
