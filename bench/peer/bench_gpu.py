"""PyTorch's side of `attic bench train --preset=gpu-size --device=cuda`: the GPU recipe
(config/shakespeare_char.cfg: 6 layers, 6 heads, width 384, block 256, batch 64, dropout 0.2)
with the same model (bench/peer/gpt.py), batch and step (forward, backward, clip_grad_norm_,
AdamW with nanoGPT's groups), timed in eager mode and under torch.compile in one run.
Prints one JSON line per mode with the median ms per step, like attic's --json=true:
    python3 bench/peer/bench_gpu.py --iters=100
Float32 throughout; TF32 matmuls stay off unless --tf32 (attic's cuBLAS calls use full
FP32, so this is the like-for-like setting).
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402

CFG = dict(block_size=256, n_layer=6, n_head=6, n_embd=384, dropout=0.2, bias=False)
BATCH = 64


def step_fn(model, opt):
    def step(x, y):
        _, loss = model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        return loss
    return step


def time_mode(mode, data, vocab, iters, warmup):
    torch.manual_seed(1337)
    dev = torch.device("cuda")
    model = GPT(dict(CFG, vocab_size=vocab)).to(dev)
    opt = torch.optim.AdamW(model.param_groups(0.1), lr=1e-3, betas=(0.9, 0.99))
    fwd = torch.compile(model) if mode == "compile" else model
    step = step_fn(fwd, opt)
    T = CFG["block_size"]
    times = []
    for it in range(warmup + iters):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        ix = torch.randint(len(data) - T, (BATCH,))
        x = torch.stack([data[i:i + T] for i in ix]).to(dev, non_blocking=True)
        y = torch.stack([data[i + 1:i + 1 + T] for i in ix]).to(dev, non_blocking=True)
        step(x, y)
        torch.cuda.synchronize()
        if it >= warmup:
            times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    return times[len(times) // 2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=20, help="compile needs a few steps to settle")
    ap.add_argument("--modes", default="eager,compile")
    ap.add_argument("--tf32", action="store_true")
    a = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("bench_gpu.py: PyTorch sees no CUDA device")
    torch.backends.cuda.matmul.allow_tf32 = a.tf32
    torch.backends.cudnn.allow_tf32 = a.tf32
    path = os.path.join(os.path.dirname(__file__), "..", "..", "data", "shakespeare_char", "input.txt")
    text = open(path, "rb").read()
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.from_numpy(np.array([stoi[c] for c in text[: int(len(text) * 0.9)]], dtype=np.int64))
    for mode in a.modes.split(","):
        ms = time_mode(mode, data, len(chars), a.iters, a.warmup)
        print(json.dumps({"bench": "train", "framework": "pytorch " + torch.__version__, "mode": mode,
                          "preset": "gpu-size", "device": torch.cuda.get_device_name(),
                          "tf32": a.tf32, "iters": a.iters, "ms_per_iter": round(ms, 2)}), flush=True)


if __name__ == "__main__":
    main()
