#include "autograd/autocast_mode.h"

#include <string>

namespace attic::autograd {
namespace {

thread_local bool t_enabled = false;
thread_local DType t_dtype = kBFloat16;

}  // namespace

bool Autocast::is_enabled() { return t_enabled; }
DType Autocast::dtype() { return t_dtype; }

AutocastGuard::AutocastGuard(DType dtype) : prev_enabled_(t_enabled), prev_dtype_(t_dtype) {
  ATTIC_CHECK(dtype == kFloat32 || is_reduced_float(dtype), "AutocastGuard: autocast runs "
              "products in bfloat16 or float16 (or float32: off), not ", dtype_name(dtype));
  t_enabled = dtype != kFloat32;
  if (t_enabled) t_dtype = dtype;
}

DType autocast_dtype() { return t_enabled ? t_dtype : kFloat32; }

AutocastGuard::~AutocastGuard() {
  t_enabled = prev_enabled_;
  t_dtype = prev_dtype_;
}

DType parse_autocast_dtype(const char* what, const std::string& name) {
  for (DType d : {kFloat32, kBFloat16, kFloat16})
    if (name == dtype_name(d)) return d;
  fail(what, " = '", name, "': not a dtype attic trains in (float32, bfloat16, float16)");
}

}  // namespace attic::autograd
