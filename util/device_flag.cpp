#include "util/device_flag.h"

#include "tensor/backend.h"
#include "tensor/error.h"

namespace attic::util {

Device device_from_flag(const std::string& flag) {
  ATTIC_CHECK(flag == "cpu" || flag == "cuda", "device must be cpu or cuda, got '", flag, "'");
  const Device d = flag == "cuda" ? Device::CUDA : Device::CPU;
  backend_for(d);  // throws when the device cannot be used here
  return d;
}

}  // namespace attic::util
