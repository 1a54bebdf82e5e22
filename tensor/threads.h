// How many CPU threads attic's kernels use: the public knob (PyTorch's
// torch.set_num_threads). The pool behind it is tensor/cpu/thread_pool.{h,cpp}.
//
// The number counts the calling thread: with n threads, n - 1 pool workers wait for work and
// the caller runs chunks too. The default is $ATTIC_NUM_THREADS if set, otherwise
// std::thread::hardware_concurrency().
#pragma once

namespace attic {

// How many threads CPU kernels use (>= 1).
int num_threads();

// Use n threads (n >= 1) from now on. Call it between kernels, not from inside a kernel.
void set_num_threads(int n);

}  // namespace attic
