"""PyTorch's side of `attic bench gpt2`: GPT-2 124M's shapes at random init (no weights can be
downloaded here; the time does not depend on their values), on the CPU, as its users run it:

  sample-hf        transformers' GPT2LMHeadModel.generate with its KV cache: a 256-token prompt,
                   256 new tokens, batch 1, do_sample with temperature 0.8 and top_k 200
                   (nanoGPT's sample.py defaults)
  sample-nanogpt   nanoGPT's sample loop (model.py GPT.generate): no cache, every new token runs
                   the whole context again; --new_tokens 32 by default, as 256 would take minutes
  step-eager       one finetune step of nanoGPT's train.py: batch 1, T 1024, forward, backward,
                   clip_grad_norm_(1.0), AdamW with nanoGPT's groups (F.scaled_dot_product_attention)
  step-compile     the same with the model under torch.compile and AdamW(fused=True)

Each prints one JSON line with the figure and the process's peak resident memory (ru_maxrss,
which includes Python and torch themselves, as attic's includes its own binary):
    build/peer-venv/bin/python bench/peer/bench_gpt2.py step-eager --threads=2
bench/peer/compare_gpt2.sh runs these and attic's in alternating rounds.
"""
import argparse
import json
import os
import resource
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))

GPT2 = dict(block_size=1024, vocab_size=50257, n_layer=12, n_head=12, n_embd=768, dropout=0.0, bias=True,
            sdpa=True)


def max_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def sample_hf(a):
    from transformers import GPT2Config, GPT2LMHeadModel
    model = GPT2LMHeadModel(GPT2Config()).eval()
    prompt = torch.randint(0, 50257, (1, a.prompt))
    kw = dict(do_sample=True, temperature=0.8, top_k=200, use_cache=True, pad_token_id=50256)
    with torch.inference_mode():
        model.generate(prompt, max_new_tokens=4, min_new_tokens=4, **kw)
        t0 = time.perf_counter()
        out = model.generate(prompt, max_new_tokens=a.new_tokens, min_new_tokens=a.new_tokens, **kw)
        s = time.perf_counter() - t0
    assert out.shape[1] == a.prompt + a.new_tokens
    return {"peer": "transformers-generate", "new_tokens": a.new_tokens, "seconds": s,
            "tokens_per_s": a.new_tokens / s}


def sample_nanogpt(a):
    from gpt import GPT
    model = GPT(GPT2).eval()
    idx = torch.randint(0, 50257, (1, a.prompt))
    n = a.new_tokens if a.new_tokens_given else 32

    @torch.no_grad()
    def generate(idx, max_new_tokens, temperature=0.8, top_k=200):
        # nanoGPT's model.py GPT.generate, line for line
        for _ in range(max_new_tokens):
            idx_cond = idx if idx.size(1) <= GPT2["block_size"] else idx[:, -GPT2["block_size"]:]
            logits, _ = model(idx_cond)
            logits = logits[:, -1, :] / temperature
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("Inf")
            probs = torch.nn.functional.softmax(logits, dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=1)
        return idx

    generate(idx, 2)
    t0 = time.perf_counter()
    generate(idx, n)
    s = time.perf_counter() - t0
    return {"peer": "nanogpt-sample", "new_tokens": n, "seconds": s, "tokens_per_s": n / s}


def step(a, compiled):
    from gpt import GPT
    model = GPT(GPT2)
    model.train()
    opt = torch.optim.AdamW(model.param_groups(0.1), lr=3e-5, betas=(0.9, 0.95), fused=compiled or None)
    fwd = torch.compile(model) if compiled else model
    times = []
    for i in range(a.warmup + a.iters):
        x = torch.randint(0, 50257, (1, a.block_size))
        y = torch.randint(0, 50257, (1, a.block_size))
        t0 = time.perf_counter()
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=a.dtype == "bfloat16"):
            _, loss = fwd(x, y)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        opt.zero_grad(set_to_none=True)
        if i >= a.warmup:
            times.append(time.perf_counter() - t0)
    return {"peer": "nanogpt-step-" + ("compile" if compiled else "eager"), "dtype": a.dtype,
            "block_size": a.block_size,
            "ms_per_step": 1000 * sum(times) / len(times)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("sample-hf", "sample-nanogpt", "step-eager", "step-compile"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--prompt", type=int, default=256)
    ap.add_argument("--new_tokens", type=int, default=None)
    ap.add_argument("--block_size", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=None)
    ap.add_argument("--dtype", default="float32", choices=("float32", "bfloat16"),
                    help="step: bfloat16 runs the forward under torch.autocast, as attic's --dtype")
    a = ap.parse_args()
    a.new_tokens_given = a.new_tokens is not None
    a.new_tokens = a.new_tokens or 256
    # torch.compile compiles the forward and backward in the first step, maybe again in the second.
    a.warmup = a.warmup if a.warmup is not None else (2 if a.what == "step-compile" else 1)
    torch.set_num_threads(a.threads)
    torch.manual_seed(1337)
    r = {"sample-hf": sample_hf, "sample-nanogpt": sample_nanogpt,
         "step-eager": lambda a: step(a, False), "step-compile": lambda a: step(a, True)}[a.what](a)
    r.update(bench="gpt2", what=a.what, threads=a.threads, torch=torch.__version__, max_rss_mib=max_rss_mib())
    print(json.dumps(r))


if __name__ == "__main__":
    main()
