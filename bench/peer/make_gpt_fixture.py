"""Writes tests/models/fixtures/gpt_tiny{,_nobias}.safetensors: a tiny GPT's weights, one batch, and
what PyTorch computes from them (logits, loss, every gradient, and the losses of five
AdamW steps with nanoGPT's groups and clipping), in the spirit of llm.c's debug state.

attic's test (tests/models/test_gpt_vs_pytorch.cpp) loads the file and checks that attic
computes the same numbers. Run once with the peer PyTorch (scripts/install-peer.sh puts it in
build/peer-venv); the test never needs Python:
    build/peer-venv/bin/python bench/peer/make_gpt_fixture.py
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from gpt import GPT  # noqa: E402
import safetensors_io  # noqa: E402

BASE = dict(block_size=8, vocab_size=11, n_layer=2, n_head=2, n_embd=16, dropout=0.0)
STEPS = 5
LR, BETAS, WD, CLIP = 1e-2, (0.9, 0.99), 0.1, 1.0


def write(bias, filename):
    CFG = dict(BASE, bias=bias)
    torch.manual_seed(0)
    model = GPT(CFG)
    idx = torch.randint(0, CFG["vocab_size"], (3, 8))
    targets = torch.randint(0, CFG["vocab_size"], (3, 8))
    targets[1, 2] = -1  # one ignored position

    out = {"param." + k: v.detach().numpy().copy() for k, v in model.state_dict().items()}
    out["idx"] = idx.numpy().astype(np.int64)
    out["targets"] = targets.numpy().astype(np.int64)
    logits, loss = model(idx, targets)
    loss.backward()
    out["logits"] = logits.detach().numpy()
    out["loss"] = loss.detach().numpy().reshape(())
    for name, p in model.named_parameters():
        out["grad." + name] = p.grad.numpy().copy()

    model.zero_grad(set_to_none=True)
    opt = torch.optim.AdamW(model.param_groups(WD), lr=LR, betas=BETAS)
    losses = []
    for _ in range(STEPS):
        _, loss = model(idx, targets)
        losses.append(loss.item())
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        opt.step()
        opt.zero_grad(set_to_none=True)
    out["adamw_losses"] = np.array(losses, dtype=np.float32)

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "models", "fixtures", filename)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    meta = {k: str(v) for k, v in CFG.items()}
    meta.update(lr=str(LR), beta1=str(BETAS[0]), beta2=str(BETAS[1]), weight_decay=str(WD),
                grad_clip=str(CLIP), torch=torch.__version__)
    safetensors_io.save(path, out, meta)
    print("wrote", os.path.normpath(path), "loss", float(out["loss"]), "adamw", losses)


if __name__ == "__main__":
    write(True, "gpt_tiny.safetensors")
    write(False, "gpt_tiny_nobias.safetensors")  # the recipes' bias=False
