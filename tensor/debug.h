// Debugging help that a debugger can reach.
//
//   (gdb) call attic::debug::repr(t)
//   $1 = "Tensor [2, 2] float32 cpu requires_grad=true grad_fn=MatmulBackward ..."
//
// The gdb pretty-printers (debug/gdb/attic_printers.py) print a Tensor without calling
// anything; repr is the call to make when the printers are not loaded, or to see all values.
#pragma once

#include <string>

#include "tensor/tensor.h"

namespace attic::debug {

// t: any shape. The first line holds shape, dtype, device, strides, offset, requires_grad,
// grad_fn and .grad's shape; the lines after it print the values as operator<< does.
std::string repr(const Tensor& t);

}  // namespace attic::debug
