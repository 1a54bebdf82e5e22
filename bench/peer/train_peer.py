"""The laptop recipe (config/shakespeare_char_cpu.cfg) in PyTorch: the same model
(bench/peer/gpt.py), data split, batches, AdamW groups, warmup + cosine schedule and
clipping as `attic train`. Prints nanoGPT-style lines and ms/iter, to compare attic with
PyTorch on the same machine, and the wall time from the process's start to the last
evaluation (wall_s_to_last_eval), which `make bench-peer` compares with attic train's:
    build/peer-venv/bin/python bench/peer/train_peer.py --threads=2 --max_iters=2000 --seed=1337
    build/peer-venv/bin/python bench/peer/train_peer.py --threads=1 --max_iters=100 --eval_interval=1000
--peer picks the PyTorch configuration, as in bench_step.py: eager (nanoGPT's CPU recipe:
F.scaled_dot_product_attention, AdamW unfused), sdpa-fused (AdamW(fused=True)) or compile
(that, under torch.compile; its compilation counts in the wall time).
"""
import time

T_START = time.perf_counter()  # before torch is imported: its import is part of the run

import argparse  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max_iters", type=int, default=2000)
    ap.add_argument("--eval_interval", type=int, default=250)
    ap.add_argument("--eval_iters", type=int, default=20)
    ap.add_argument("--final_eval_iters", type=int, default=0, help="extra, longer eval at the end")
    ap.add_argument("--seed", type=int, default=1337)
    ap.add_argument("--peer", choices=("eager", "sdpa-fused", "compile"), default="eager")
    ap.add_argument("--dataset", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                      "data", "shakespeare_char", "input.txt"))
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)

    text = open(a.dataset, "rb").read()
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    data = np.array([stoi[c] for c in text], dtype=np.int64)
    n = int(len(data) * 0.9)
    split = {"train": torch.from_numpy(data[:n]), "val": torch.from_numpy(data[n:])}
    B, T = 12, 64
    cfg = dict(block_size=T, vocab_size=len(chars), n_layer=4, n_head=4, n_embd=128, dropout=0.0, bias=False,
               sdpa=True)
    lr, min_lr, warmup, decay = 1e-3, 1e-4, 100, 2000

    def get_batch(name):
        d = split[name]
        ix = torch.randint(len(d) - T, (B,))
        return torch.stack([d[i:i + T] for i in ix]), torch.stack([d[i + 1:i + 1 + T] for i in ix])

    def get_lr(it):
        if it < warmup:
            return lr * it / warmup
        if it > decay:
            return min_lr
        ratio = (it - warmup) / (decay - warmup)
        return min_lr + 0.5 * (1.0 + math.cos(math.pi * ratio)) * (lr - min_lr)

    @torch.no_grad()
    def estimate(iters):
        model.eval()
        out = {}
        for name in ("train", "val"):
            out[name] = sum(step_model(*get_batch(name))[1].item() for _ in range(iters)) / iters
        model.train()
        return out

    model = GPT(cfg)
    opt = torch.optim.AdamW(model.param_groups(0.1), lr=lr, betas=(0.9, 0.99), fused=a.peer != "eager")
    step_model = torch.compile(model) if a.peer == "compile" else model
    times = []
    for it in range(a.max_iters + 1):
        for g in opt.param_groups:
            g["lr"] = get_lr(it)
        if it % a.eval_interval == 0 or it == a.max_iters:
            l = estimate(a.eval_iters)
            print(f"step {it}: train loss {l['train']:.4f}, val loss {l['val']:.4f}", flush=True)
            wall_to_last_eval = time.perf_counter() - T_START
        t0 = time.perf_counter()
        x, y = get_batch("train")
        _, loss = step_model(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        times.append((time.perf_counter() - t0) * 1000)
        if it % 100 == 0:
            print(f"iter {it}: loss {loss.item():.4f}, time {times[-1]:.2f} ms", flush=True)
    steady = sorted(times[5:]) if len(times) > 10 else sorted(times)
    print(f"ms_per_iter {steady[len(steady) // 2]:.2f} (median) threads {a.threads}")
    print(f"wall_s_to_last_eval {wall_to_last_eval:.2f} peer {a.peer}")
    if a.final_eval_iters:
        l = estimate(a.final_eval_iters)
        print(f"final eval ({a.final_eval_iters} batches): train loss {l['train']:.4f}, val loss {l['val']:.4f}")


if __name__ == "__main__":
    main()
