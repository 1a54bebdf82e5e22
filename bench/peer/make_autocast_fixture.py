"""Writes tests/models/fixtures/gpt_autocast.safetensors: a small GPT's weights, one batch, and
what PyTorch computes from them under torch.autocast("cpu", dtype=torch.bfloat16) (logits,
loss and every gradient), beside the same in float32.

nanoGPT's model with F.scaled_dot_product_attention, as its train.py runs it: under autocast
its linear layers run in bfloat16 and return bfloat16, so the attention, GELU and residual adds
that follow see bfloat16 values; LayerNorm and the loss run in float32.

attic's test (tests/models/gpt/test_gpt_autocast.cpp) runs the same model under its
AutocastGuard. Run once with the peer PyTorch (scripts/install-peer.sh):
    build/peer-venv/bin/python bench/peer/make_autocast_fixture.py
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402
import safetensors_io  # noqa: E402

CFG = dict(block_size=16, vocab_size=65, n_layer=2, n_head=4, n_embd=32, dropout=0.0,
           bias=True, sdpa=True)


def run(model, idx, targets, autocast):
    model.zero_grad(set_to_none=True)
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        logits, loss = model(idx, targets)
    loss.backward()
    grads = {n: p.grad.detach().float().numpy().copy() for n, p in model.named_parameters()}
    return logits.detach().float().numpy(), loss.detach().float().numpy().reshape(()), grads


def main():
    torch.manual_seed(0)
    model = GPT(CFG)
    idx = torch.randint(0, CFG["vocab_size"], (4, CFG["block_size"]))
    targets = torch.randint(0, CFG["vocab_size"], (4, CFG["block_size"]))
    out = {"param." + k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
    out["idx"] = idx.numpy().astype(np.int64)
    out["targets"] = targets.numpy().astype(np.int64)
    for tag, autocast in [("bf16", True), ("f32", False)]:
        logits, loss, grads = run(model, idx, targets, autocast)
        out[tag + ".logits"] = logits
        out[tag + ".loss"] = loss
        for n, g in grads.items():
            out[tag + ".grad." + n] = g
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "models", "fixtures", "gpt_autocast.safetensors")
    meta = {k: str(v) for k, v in CFG.items()}
    meta["torch"] = torch.__version__
    safetensors_io.save(path, out, meta)
    print("wrote", os.path.normpath(path), "loss bf16", float(out["bf16.loss"]),
          "f32", float(out["f32.loss"]))


if __name__ == "__main__":
    main()
