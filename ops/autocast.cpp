#include "ops/autocast.h"

#include <string>

namespace attic {
namespace {

thread_local bool t_enabled = false;
thread_local DType t_dtype = kBFloat16;

}  // namespace

bool Autocast::is_enabled() { return t_enabled; }
DType Autocast::dtype() { return t_dtype; }

AutocastGuard::AutocastGuard(DType dtype, bool enabled)
    : prev_enabled_(t_enabled), prev_dtype_(t_dtype) {
  if (!enabled) return;
  ATTIC_CHECK(is_reduced_float(dtype), "AutocastGuard: autocast runs products in bfloat16 or "
              "float16, not ", dtype_name(dtype));
  t_enabled = true;
  t_dtype = dtype;
}

AutocastGuard::~AutocastGuard() {
  t_enabled = prev_enabled_;
  t_dtype = prev_dtype_;
}

DType parse_autocast_dtype(const char* what, const std::string& name) {
  for (DType d : {kFloat32, kBFloat16, kFloat16})
    if (name == dtype_name(d)) return d;
  fail(what, " = '", name, "': not a dtype attic trains in (float32, bfloat16, float16)");
}

}  // namespace attic
