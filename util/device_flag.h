// --device=cpu|cuda, shared by train, sample, eval and bench.
#pragma once

#include <string>

#include "tensor/dtype.h"

namespace attic::util {

// The Device the flag names. Throws attic::Error for anything but "cpu" or "cuda", and, for
// "cuda", at once (before any data is read) when this build or this machine cannot run it:
// "attic was built without CUDA" / "cuda: no CUDA device is available (...)".
Device device_from_flag(const std::string& flag);

}  // namespace attic::util
