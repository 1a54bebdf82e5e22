"""Loads an attic checkpoint (out_dir/ckpt.safetensors) into the PyTorch GPT of
bench/peer/gpt.py with strict=True, and prints its loss on random train/val batches:
    build/peer-venv/bin/python bench/peer/load_checkpoint.py out-shakespeare-char-cpu --batches=100
The numbers should agree with `attic eval --out_dir=... --eval_iters=100` up to batch noise.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402
import safetensors_io  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--batches", type=int, default=100)
    a = ap.parse_args()
    tensors, meta = safetensors_io.load(os.path.join(a.out_dir, "ckpt.safetensors"))
    conf = dict(line.split(" = ", 1) for line in meta["config"].splitlines())
    vocab = meta["vocabulary"].encode("latin-1")
    cfg = dict(block_size=int(conf["block_size"]), vocab_size=len(vocab), n_layer=int(conf["n_layer"]),
               n_head=int(conf["n_head"]), n_embd=int(conf["n_embd"]), dropout=0.0,
               bias=conf["bias"] == "true")
    model = GPT(cfg)
    model.load_state_dict({k: torch.from_numpy(v) for k, v in tensors.items()}, strict=True)
    model.eval()
    print(f"loaded {len(tensors)} tensors (strict) from iteration {meta['iter_num']}")

    path = conf["dataset"] or os.path.join(os.path.dirname(__file__), "..", "..", "data",
                                            "shakespeare_char", "input.txt")
    text = open(path, "rb").read()
    stoi = {c: i for i, c in enumerate(vocab)}
    data = torch.from_numpy(np.array([stoi[c] for c in text], dtype=np.int64))
    n = int(len(data) * 0.9)
    B, T = int(conf["batch_size"]), cfg["block_size"]
    torch.manual_seed(0)
    with torch.no_grad():
        for name, d in (("train", data[:n]), ("val", data[n:])):
            total = 0.0
            for _ in range(a.batches):
                ix = torch.randint(len(d) - T, (B,))
                x = torch.stack([d[i:i + T] for i in ix])
                y = torch.stack([d[i + 1:i + 1 + T] for i in ix])
                total += model(x, y)[1].item()
            print(f"{name} loss {total / a.batches:.4f} over {a.batches} batches")


if __name__ == "__main__":
    main()
