"""PyTorch's (MKL's) side of `attic bench gemm`: the same products, float32, the same
operand layouts (a transposed operand is a transposed view, as in the training step), best
of 5 runs. One JSON line per shape and thread count:
    build/peer-venv/bin/python bench/peer/bench_gemm.py --threads=1
"""
import argparse
import json
import time

import torch

# (name, M, N, K, A transposed, B transposed): the cases of lab/bench.cpp's bench_gemm.
CASES = [
    ("square", 512, 512, 512, False, False),
    ("square", 1024, 1024, 1024, False, False),
    ("c_attn fwd x Wt", 768, 384, 128, False, True),
    ("c_attn bwd dy W", 768, 128, 384, False, False),
    ("c_attn bwd dyt x", 384, 128, 768, True, False),
    ("c_fc fwd x Wt", 768, 512, 128, False, True),
    ("c_fc bwd dyt x", 512, 128, 768, True, False),
    ("mlp c_proj fwd", 768, 128, 512, False, True),
    ("mlp c_proj bwd dy W", 768, 512, 128, False, False),
    ("mlp c_proj bwd dyt x", 128, 512, 768, True, False),
    ("C768 c_fc fwd x Wt", 768, 3072, 768, False, True),
    ("C768 c_proj fwd x Wt", 768, 768, 3072, False, True),
    ("C768 c_fc bwd dy W", 768, 768, 3072, False, False),
    ("C768 c_fc bwd dyt x", 3072, 768, 768, True, False),
]


def best_seconds(f, runs=5):
    f()
    t0 = time.perf_counter()
    f()
    once = time.perf_counter() - t0
    reps = max(1, int(0.1 / max(once, 1e-9)))
    best = 1e30
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in range(reps):
            f()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    for name, M, N, K, ta, tb in CASES:
        A = torch.rand(K, M).t() if ta else torch.rand(M, K)
        B = torch.rand(N, K).t() if tb else torch.rand(K, N)
        C = torch.empty(M, N)
        s = best_seconds(lambda: torch.matmul(A, B, out=C))
        print(json.dumps({"bench": "gemm", "framework": "pytorch " + torch.__version__, "shape": name,
                          "M": M, "N": N, "K": K, "threads": a.threads,
                          "gflops": round(2.0 * M * N * K / s * 1e-9, 1)}), flush=True)


if __name__ == "__main__":
    main()
