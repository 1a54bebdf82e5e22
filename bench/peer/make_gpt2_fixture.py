"""Writes tests/models/fixtures/gpt2_tiny/: a GPT-2 of a tiny shape at random init, as Hugging
Face's transformers saves one (model.safetensors, config.json, and the tokenizer's vocab.json and
merges.txt), and expected.safetensors: what transformers' GPT2LMHeadModel computes from it.

    build/peer-venv/bin/python bench/peer/make_gpt2_fixture.py

expected.safetensors holds, for fixed ids [2, 16] and targets [2, 16]:
  logits [2, 16, V], loss (mean cross-entropy of logits against targets, nanoGPT's form),
  grad.NAME for every tensor of model.safetensors (d loss / d NAME, in transformers' names and
  Conv1D layout), and greedy.cache / greedy.nocache: model.generate from a prompt [1, 8], 24 new
  tokens, do_sample=False, with and without its KV cache.
It also writes gpt2_124m_names.json: the tensor names and shapes of GPT2LMHeadModel(GPT2Config())
as save_pretrained writes them (the 124M model; its 500 MB of weights are never committed: the test
writes random ones of these shapes in its build folder).

The tokenizer is a byte-level BPE of 319 ranks trained on the start of the Shakespeare corpus by
tiktoken's own educational trainer, plus <|endoftext|> as id 319, written in GPT-2's formats: no
download is needed anywhere. attic's test (tests/models/gpt/test_gpt2_vs_transformers.cpp) never
runs Python.
"""
import json
import os
import sys

import numpy as np
import torch
from safetensors.numpy import save_file
from tiktoken._educational import bpe_train, bpe_encode
from transformers import GPT2Config, GPT2LMHeadModel

sys.path.insert(0, os.path.dirname(__file__))
from make_bpe_fixture import bytes_to_unicode  # noqa: E402  GPT-2's encoder.py map

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
OUT = os.path.join(ROOT, "tests", "models", "fixtures", "gpt2_tiny")
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
RANKS = 319  # 256 bytes + 63 merges; <|endoftext|> is id 319, so V = 320


def merges_of(ranks):
    """Each merged token's pair: its bytes encoded with only the ranks below its own end in two
    parts (a token made by merges splits back into the pair that made it)."""
    pairs = []
    for token, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(token) == 1:
            continue
        lower = {t: r for t, r in ranks.items() if r < rank}
        parts = bpe_encode(lower, token, visualise=None)
        assert len(parts) == 2, (token, parts)
        inverse = {r: t for t, r in lower.items()}
        pairs.append((inverse[parts[0]], inverse[parts[1]]))
    return pairs


def write_tokenizer():
    text = open(os.path.join(ROOT, "data", "shakespeare_char", "input.txt"), encoding="utf-8").read()[:20000]
    ranks = bpe_train(text, RANKS, GPT2_PATTERN, visualise=None)
    # GPT-2's files number the 256 bytes in bytes_to_unicode's order, not by value: data-gym's
    # convention, which tiktoken's data_gym_to_mergeable_bpe_ranks reads back.
    b2u = bytes_to_unicode()
    order = list(b2u.keys())
    single = {bytes([b]): i for i, b in enumerate(order)}
    merged = sorted((t for t in ranks if len(t) > 1), key=lambda t: ranks[t])
    gpt2_ranks = dict(single)
    for t in merged:
        gpt2_ranks[t] = len(gpt2_ranks)
    vocab = {"".join(b2u[b] for b in t): r for t, r in gpt2_ranks.items()}
    vocab["<|endoftext|>"] = RANKS
    with open(os.path.join(OUT, "vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(OUT, "merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        for a, b in merges_of(gpt2_ranks):
            f.write("".join(b2u[x] for x in a) + " " + "".join(b2u[x] for x in b) + "\n")
    import tiktoken.load
    back = tiktoken.load.data_gym_to_mergeable_bpe_ranks(os.path.join(OUT, "merges.txt"),
                                                          os.path.join(OUT, "vocab.json"))
    assert back == gpt2_ranks


def main():
    os.makedirs(OUT, exist_ok=True)
    write_tokenizer()
    V = RANKS + 1
    torch.manual_seed(0)
    cfg = GPT2Config(n_layer=2, n_head=2, n_embd=64, n_positions=128, vocab_size=V,
                     bos_token_id=RANKS, eos_token_id=RANKS)
    model = GPT2LMHeadModel(cfg)
    model.save_pretrained(OUT, safe_serialization=True)
    gen_cfg = os.path.join(OUT, "generation_config.json")
    if os.path.exists(gen_cfg):
        os.remove(gen_cfg)
    model.eval()  # no dropout: the logits and gradients are deterministic

    g = torch.Generator().manual_seed(1)
    idx = torch.randint(0, V, (2, 16), generator=g)
    targets = torch.randint(0, V, (2, 16), generator=g)
    targets[1, 3] = -1  # one ignored position
    logits = model(idx).logits
    loss = torch.nn.functional.cross_entropy(logits.view(-1, V), targets.view(-1), ignore_index=-1)
    loss.backward()
    out = {"idx": idx.numpy().astype(np.int64), "targets": targets.numpy().astype(np.int64),
           "logits": logits.detach().numpy(), "loss": loss.detach().numpy().reshape(())}
    from safetensors import safe_open
    with safe_open(os.path.join(OUT, "model.safetensors"), "pt") as f:
        names = list(f.keys())
    params = dict(model.named_parameters())
    for name in names:
        out["grad." + name] = params[name].grad.numpy().copy()

    prompt = torch.randint(0, V, (1, 8), generator=g)
    out["prompt"] = prompt.numpy().astype(np.int64)
    with torch.no_grad():
        for cache in (True, False):
            ids = model.generate(prompt, max_new_tokens=24, do_sample=False, use_cache=cache,
                                 pad_token_id=RANKS, eos_token_id=None)
            out["greedy." + ("cache" if cache else "nocache")] = ids.numpy().astype(np.int64)
    assert (out["greedy.cache"] == out["greedy.nocache"]).all()
    save_file(out, os.path.join(OUT, "expected.safetensors"),
              metadata={"writer": "bench/peer/make_gpt2_fixture.py",
                        "transformers": __import__("transformers").__version__,
                        "torch": torch.__version__})

    full = GPT2LMHeadModel(GPT2Config())
    tmp = os.path.join(OUT, "..", "gpt2_124m_tmp")
    full.save_pretrained(tmp, safe_serialization=True)
    with safe_open(os.path.join(tmp, "model.safetensors"), "pt") as f:
        shapes = {k: list(f.get_slice(k).get_shape()) for k in f.keys()}
    config = json.load(open(os.path.join(tmp, "config.json")))
    import shutil
    shutil.rmtree(tmp)
    with open(os.path.join(OUT, "gpt2_124m_names.json"), "w") as f:
        json.dump({"config": {k: config[k] for k in ("n_layer", "n_head", "n_embd", "n_positions", "vocab_size",
                                                    "activation_function", "layer_norm_epsilon")},
                   "parameters": sum(p.numel() for p in full.parameters()),
                   "tensors": shapes}, f, indent=1, sort_keys=True)
    print("wrote", OUT, file=sys.stderr)


if __name__ == "__main__":
    main()
