"""Moves a Linformer checkpoint between attic (`attic train --model=linformer`) and the
linformer-pytorch package (tatp22/linformer-pytorch, LinformerLM), both ways:

    build/peer-venv/bin/python bench/peer/linformer_checkpoint.py to-package OUT_DIR model.pt
    build/peer-venv/bin/python bench/peer/linformer_checkpoint.py to-attic model.pt OUT_DIR

The tensor names are the same on both sides (attic names its parameters as the package's
state dict does), so the move is a copy. Two things are not:
  - method=no_params: the package keeps E and F as plain tensors in no state dict, so a
    package state dict alone cannot rebuild the model. attic saves them as buffers named
    like the attribute (linformer.seq.0.fn.heads.1.E); model.pt carries them beside the state
    dict under "no_params", and to-package sets them on the heads.
  - causal: the package knows only its compressed mask (attic's causal=leaky). A model
    trained with attic's causal=prefix loads into the package, but the package computes it
    with the leaky mask; to-package says so.
model.pt is torch.save({"kwargs": LinformerLM's arguments, "state_dict": ..., "no_params":
...}). to-attic writes into an attic checkpoint of the same config (OUT_DIR/ckpt.safetensors
keeps its metadata: config, vocabulary, iteration), through a temporary file and a rename.
--eval prints the package model's loss on 20 val batches of the checkpoint's text.
"""
import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import safetensors_io  # noqa: E402


def attic_config(meta):
    """The config text's `key = value` lines; string values are quoted there."""
    pairs = (line.split(" = ", 1) for line in meta["config"].splitlines())
    return {k: v[1:-1] if v.startswith('"') and v.endswith('"') else v for k, v in pairs}


def package_kwargs(conf, vocab_size):
    """The package's LinformerLM arguments for an attic model=linformer config."""
    opts = dict(kv.split("=", 1) for kv in conf.get("attention_options", "").split(",") if kv)
    n, C = int(conf["block_size"]), int(conf["n_embd"])
    p = float(conf["dropout"])
    causal = opts.get("causal", "prefix")
    return dict(num_tokens=vocab_size, input_size=n, channels=C, dim_k=int(opts.get("k", min(64, n))),
                dim_ff=4 * C, nhead=int(conf["n_head"]), depth=int(conf["n_layer"]), dropout=p,
                dropout_ff=p, dropout_tokens=p, parameter_sharing=opts.get("sharing", "layerwise"),
                method=opts.get("method", "learnable"), checkpoint_level=opts.get("checkpoint", "C0"),
                causal=causal in ("prefix", "leaky")), causal


def heads_of(model):
    """(dotted path, LinearAttentionHead) for every head of the model."""
    from linformer_pytorch.linformer_pytorch import LinearAttentionHead
    return [(name, m) for name, m in model.named_modules() if isinstance(m, LinearAttentionHead)]


def to_package(out_dir, path, evaluate):
    from linformer_pytorch import LinformerLM
    tensors, meta = safetensors_io.load(os.path.join(out_dir, "ckpt.safetensors"))
    conf = attic_config(meta)
    assert conf["model"] == "linformer", f"{out_dir} holds model = {conf['model']}, not linformer"
    vocab = meta["vocabulary"].encode("latin-1")
    kwargs, causal = package_kwargs(conf, len(vocab))
    if causal == "prefix":
        print("note: trained with causal=prefix; the package computes these weights with its leaky mask")
    model = LinformerLM(**kwargs)
    no_params = {}
    for name, head in heads_of(model):
        if head.is_proj_tensor:
            head.E = torch.from_numpy(tensors.pop(name + ".E"))
            head.F = torch.from_numpy(tensors.pop(name + ".F"))
            no_params[name + ".E"], no_params[name + ".F"] = head.E, head.F
    model.load_state_dict({k: torch.from_numpy(v) for k, v in tensors.items()}, strict=True)
    torch.save({"kwargs": kwargs, "state_dict": model.state_dict(), "no_params": no_params}, path)
    print(f"wrote {path}: {len(tensors)} tensors loaded strictly, {len(no_params)} no_params matrices")
    if evaluate:
        evaluate_package(model, conf, vocab)


def to_attic(path, out_dir):
    saved = torch.load(path)
    ckpt = os.path.join(out_dir, "ckpt.safetensors")
    old, meta = safetensors_io.load(ckpt)
    conf = attic_config(meta)
    want, _ = package_kwargs(conf, len(meta["vocabulary"].encode("latin-1")))
    for key in ("num_tokens", "input_size", "channels", "dim_k", "nhead", "depth", "parameter_sharing", "method"):
        assert saved["kwargs"][key] == want[key], \
            f"{key}: model.pt has {saved['kwargs'][key]}, {out_dir} was trained with {want[key]}"
    tensors = {k: v.detach().numpy() for k, v in saved["state_dict"].items()}
    tensors.update({k: v.detach().numpy() for k, v in saved["no_params"].items()})
    assert sorted(tensors) == sorted(old), "the names differ from the attic checkpoint's"
    for k in tensors:
        assert tensors[k].shape == old[k].shape, f"{k}: {tensors[k].shape} against {old[k].shape}"
    safetensors_io.save(ckpt + ".tmp", {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in tensors.items()},
                        metadata=meta)
    os.replace(ckpt + ".tmp", ckpt)
    print(f"wrote {ckpt}: {len(tensors)} tensors")


def evaluate_package(model, conf, vocab):
    path = conf["dataset"] or os.path.join(os.path.dirname(__file__), "..", "..", "data", "shakespeare_char",
                                            "input.txt")
    text = open(path, "rb").read()
    stoi = {c: i for i, c in enumerate(vocab)}
    data = torch.tensor([stoi[c] for c in text], dtype=torch.int64)
    val = data[int(len(data) * 0.9):]
    B, T = int(conf["batch_size"]), int(conf["block_size"])
    torch.manual_seed(0)
    model.eval()
    total = 0.0
    with torch.no_grad():
        for _ in range(20):
            ix = torch.randint(len(val) - T, (B,))
            x = torch.stack([val[i:i + T] for i in ix])
            y = torch.stack([val[i + 1:i + 1 + T] for i in ix])
            logits = model(x)
            total += torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1)).item()
    print(f"package val loss {total / 20:.4f} over 20 batches")


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("to-package")
    a.add_argument("out_dir")
    a.add_argument("path")
    a.add_argument("--eval", action="store_true")
    b = sub.add_parser("to-attic")
    b.add_argument("path")
    b.add_argument("out_dir")
    args = ap.parse_args()
    if args.cmd == "to-package":
        to_package(args.out_dir, args.path, args.eval)
    else:
        to_attic(args.path, args.out_dir)


if __name__ == "__main__":
    main()
