// ATTIC_HOST_DEVICE marks a function that CUDA kernels call as well as host code: nvcc
// compiles it for both sides; any other compiler sees a plain function.
#pragma once

#if defined(__CUDACC__)
#define ATTIC_HOST_DEVICE __host__ __device__
#else
#define ATTIC_HOST_DEVICE
#endif
