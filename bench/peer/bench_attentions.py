"""PyTorch's side of attic's benches of the new attentions and of sampling, one JSON line per
point, like attic's --json output:
  elita      ELiTA's attention (acosharma/elita-transformer) on x [1, N, 128], 4 heads, A 32,
             P 16, relative positions: forward + backward of sum(out), N = 1024 ... max_n. The
             same function as attic's numerics=stable, in PyTorch's fastest form: cumulative
             sums over j, shifted by one max over the whole row instead of the running max
             (the shift cancels; attic's kernel keeps a running max in one scan). Peer of
             `attic bench elita`.
  linformer  the original package's MHAttention (linformer_pytorch 0.19.3, tatp22): n positions,
             channels 64, 4 heads of 16, k 128, learnable E and F, headwise sharing, dropout 0,
             no causal mask; forward + backward of sum(out), n = 4096 ... max_n. Peer of
             `attic bench linformer` (its causal none rows).
  sample     nanoGPT's generate loop (karpathy/nanoGPT, model.py): the laptop GPT (4 layers,
             4 heads, C 128, block 64), batch 1, the context cropped to block_size and run
             whole for every new token, logits of the last position only, temperature 1, no
             top-k, torch.multinomial. Peer of `attic bench sample`.
    build/peer-venv/bin/python bench/peer/bench_attentions.py elita --threads=2 --max_n=16384
"""
import argparse
import json
import math
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))


def timed(f, runs, pick):
    """f() once untimed, then `runs` timed calls: pick (min or median) of their seconds."""
    f()
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        out.append(time.perf_counter() - t0)
    return pick(out)


def elita_cumsum(attn, x):
    # x [B, N, W] -> [B, N, W]: y_i = (e^r_i S_i + e^d_i v_i) / (e^r_i Z_i + e^d_i),
    # S_i = sum_{j<=i} e^s_j v_j, Z_i = sum_{j<=i} e^s_j, every exponent shifted by
    # g = max_j s_j (and M_i = max(r_i + g, d_i)), which cancels between numerator and
    # denominator.
    s, d, r, v = attn.parts(x)
    g = s.amax(-1, keepdim=True).detach()
    es = torch.exp(s - g)[..., None]
    S, Z = torch.cumsum(es * v, 2), torch.cumsum(es, 2)
    M = torch.maximum(r + g, d).detach()
    er, ed = torch.exp(r + g - M)[..., None], torch.exp(d - M)[..., None]
    y = (er * S + ed * v) / (er * Z + ed)
    return torch.einsum("bhna,hwa->bnw", y, attn.output_weight)


def bench_elita(a):
    from elita import Attention2
    torch.manual_seed(0)
    W, H = 128, 4
    attn = Attention2(W, H, W // H, 16, numerics="stable", positions="relative")
    n = 1024
    while n <= a.max_n:
        x = torch.randn(1, n, W, requires_grad=True)

        def fwd_bwd():
            x.grad = None
            attn.zero_grad(set_to_none=True)
            elita_cumsum(attn, x).sum().backward()

        with torch.no_grad():
            fwd = timed(lambda: elita_cumsum(attn, x), 5, min)
        print(json.dumps({"bench": "elita", "peer": "pytorch cumsum", "attention": "elita", "n": n,
                          "threads": a.threads, "fwd_ms": round(fwd * 1e3, 3),
                          "fwd_bwd_ms": round(timed(fwd_bwd, 5, min) * 1e3, 3)}), flush=True)
        n *= 2


def bench_linformer(a):
    from linformer_pytorch.linformer_pytorch import MHAttention
    C, H, K = 64, 4, 128
    n = 4096
    while n <= a.max_n:
        torch.manual_seed(0)
        attn = MHAttention(n, C // H, C, K, H, 0.0, "C0", "headwise", None, None, False, None)
        x = torch.randn(1, n, C, requires_grad=True)

        def fwd_bwd():
            x.grad = None
            attn.zero_grad(set_to_none=True)
            attn(x).sum().backward()

        with torch.no_grad():
            fwd = timed(lambda: attn(x), 3, statistics.median)
        print(json.dumps({"bench": "linformer", "peer": "linformer_pytorch", "attention": "linformer",
                          "causal": "none", "n": n, "threads": a.threads,
                          "fwd_ms": round(fwd * 1e3, 3),
                          "fwd_bwd_ms": round(timed(fwd_bwd, 3, statistics.median) * 1e3, 3)}),
              flush=True)
        n *= 2


def bench_sample(a):
    from gpt import GPT
    torch.manual_seed(1337)
    T = a.block_size
    model = GPT(dict(block_size=T, vocab_size=65, n_layer=4, n_head=4, n_embd=128, dropout=0.0,
                     bias=False, sdpa=True))
    model.eval()

    def last_logits(idx):
        # nanoGPT's inference forward: the blocks over the whole context, lm_head at the last
        # position only
        tr = model.transformer
        x = tr.drop(tr.wte(idx) + tr.wpe(torch.arange(idx.shape[1])))
        for block in tr.h:
            x = block(x)
        return model.lm_head(tr.ln_f(x[:, [-1], :]))

    @torch.no_grad()
    def generate(n):
        idx = torch.zeros((1, 1), dtype=torch.long)
        for _ in range(n):
            idx_cond = idx if idx.size(1) <= T else idx[:, -T:]
            logits = last_logits(idx_cond)[:, -1, :] / 1.0
            probs = torch.softmax(logits, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx

    best = a.new_tokens / timed(lambda: generate(a.new_tokens), 2, min)
    window = T - 1
    best_w = window / timed(lambda: generate(window), 2, min)
    print(json.dumps({"bench": "sample", "peer": "nanoGPT generate", "attention": "softmax",
                      "block_size": T, "threads": a.threads, "new_tokens": a.new_tokens,
                      "tokens_per_s": round(best), "window_tokens": window,
                      "window_tokens_per_s": round(best_w)}), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench", choices=("elita", "linformer", "sample"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--max_n", type=int, default=0, help="elita: 16384, linformer: 65536")
    ap.add_argument("--new_tokens", type=int, default=1000)
    ap.add_argument("--block_size", type=int, default=64)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    if a.bench == "elita":
        a.max_n = a.max_n or 16384
        bench_elita(a)
    elif a.bench == "linformer":
        a.max_n = a.max_n or 65536
        bench_linformer(a)
    else:
        bench_sample(a)


if __name__ == "__main__":
    main()
