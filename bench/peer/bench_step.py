"""PyTorch's side of `attic bench train`: the same GPT (bench/peer/gpt.py), batch and step
(forward, backward, clip_grad_norm_, AdamW with nanoGPT's groups) on Shakespeare batches, as
one of three peers:
  eager       nanoGPT as its README's CPU recipe runs it (--device=cpu --compile=False):
              F.scaled_dot_product_attention, and AdamW unfused (nanoGPT fuses it on CUDA only)
  sdpa-fused  the same with AdamW(fused=True)
  compile     the same as sdpa-fused, with the model under torch.compile (inductor)
Prints one JSON line with the median ms per step, like `attic bench train --json=true`, with
the page faults per step and the process's peak RSS:
    build/peer-venv/bin/python bench/peer/bench_step.py --peer=compile --threads=2
--dtype=bfloat16 runs the forward under torch.autocast("cpu", dtype=torch.bfloat16), as
`attic bench train --dtype=bfloat16` runs its own. Any field of the preset's shape may be replaced, as attic's flags do (--n_embd=768 ...), and
--attention=route runs the reflex_attention fork's GPT with route attention (bench/peer/reflex.py),
the peer of `attic bench train --attention=route`.
"""
import argparse
import json
import os
import resource
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402

PRESETS = {
    "cpu": (12, dict(block_size=64, n_layer=4, n_head=4, n_embd=128, dropout=0.0)),
    "gpu-size": (64, dict(block_size=256, n_layer=6, n_head=6, n_embd=384, dropout=0.2)),
}
PEERS = ("eager", "sdpa-fused", "compile")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="cpu", choices=sorted(PRESETS))
    ap.add_argument("--peer", default="eager", choices=PEERS)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--iters", type=int, default=100)
    # torch.compile compiles the forward and the backward in the first step, and may
    # recompile once more in the second; the warm-up keeps both out of the timing.
    ap.add_argument("--warmup", type=int, default=5)
    for key in ("batch_size", "block_size", "n_layer", "n_head", "n_embd"):
        ap.add_argument("--" + key, type=int, default=None, help="replaces the preset's")
    ap.add_argument("--dropout", type=float, default=None, help="replaces the preset's")
    ap.add_argument("--attention", default="softmax", choices=("softmax", "route"))
    ap.add_argument("--dtype", default="float32", choices=("float32", "bfloat16"))
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(1337)
    B, model_cfg = PRESETS[a.preset]
    model_cfg = dict(model_cfg)
    if a.batch_size is not None:
        B = a.batch_size
    for key in ("block_size", "n_layer", "n_head", "n_embd", "dropout"):
        if getattr(a, key) is not None:
            model_cfg[key] = getattr(a, key)
    path = os.path.join(os.path.dirname(__file__), "..", "..", "data", "shakespeare_char", "input.txt")
    text = open(path, "rb").read()
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.from_numpy(np.array([stoi[c] for c in text[: int(len(text) * 0.9)]], dtype=np.int64))
    cfg = dict(model_cfg, vocab_size=len(chars), bias=False, sdpa=True)
    T = cfg["block_size"]
    if a.attention == "route":
        from reflex import ReflexGPT
        model = ReflexGPT(dict(cfg, attention_type="route"))
    else:
        model = GPT(cfg)
    opt = torch.optim.AdamW(model.param_groups(0.1), lr=1e-3, betas=(0.9, 0.99),
                            fused=a.peer != "eager")
    step_model = torch.compile(model) if a.peer == "compile" else model
    times, cpu = [], []  # wall ms, and this process's CPU ms (all threads) per step
    faults = lambda: (lambda u: u.ru_minflt + u.ru_majflt)(resource.getrusage(resource.RUSAGE_SELF))
    for it in range(a.warmup + a.iters):
        if it == a.warmup:
            faults_at_start = faults()
        c0 = time.process_time()
        t0 = time.perf_counter()
        ix = torch.randint(len(data) - T, (B,))
        x = torch.stack([data[i:i + T] for i in ix])
        y = torch.stack([data[i + 1:i + 1 + T] for i in ix])
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=a.dtype == "bfloat16"):
            _, loss = step_model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        if it >= a.warmup:
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
    page_faults = (faults() - faults_at_start) / a.iters
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    times.sort()
    cpu.sort()
    print(json.dumps({"bench": "train", "framework": "pytorch " + torch.__version__, "peer": a.peer,
                      "preset": a.preset, "attention": a.attention, "dtype": a.dtype, "threads": a.threads, "batch_size": B,
                      "block_size": T, "n_layer": cfg["n_layer"], "n_head": cfg["n_head"],
                      "n_embd": cfg["n_embd"], "dropout": cfg["dropout"], "iters": a.iters,
                      "ms_per_iter": round(times[len(times) // 2], 2),
                      "cpu_ms_per_iter": round(cpu[len(cpu) // 2], 2),
                      "page_faults_per_iter": round(page_faults, 1), "peak_rss_bytes": peak_rss}))


if __name__ == "__main__":
    main()
