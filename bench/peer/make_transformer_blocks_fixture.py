"""Writes tests/nn/fixtures/transformer_blocks_tiny.safetensors: the blocks of
tonyduan/transformer-blocks (src/blocks.py, copied unchanged into bench/peer/transformer_blocks/
at the two commits attic follows), each on one fixed batch, with what they compute from it
(output, a random linear loss of it, the gradient of every parameter and input), for attic's
nn/attention and nn/blocks to be checked against.

At commit 01581ee (the one its README describes): MultiHeadAttn, PositionwiseFFN,
PositionalEncoding, ScaleNorm, EncoderBlock, DecoderBlock, and the Set Transformer's MAB, SAB,
PMA and ISAB. At commit b4af92e (the next one): LinearAttention and CrossAttentionBlock, which
first appear there. Its later ISAB (InducedPointsEncoderBlock) passes its arguments into the
wrong slots and its causal linear attention is not the recurrence it names, so neither is here.
Every dropout is 0 and every module is in eval mode.

Cases, each a key prefix (dim 8, 2 heads, hidden 12, batch 2):
  mha.         MultiHeadAttn(8, 6, 6), q [2, 5, 8], k, v [2, 7, 6], key padding mask [2, 7]
  mha_mask3.   MultiHeadAttn(8, 8, 8, dim_a=12, dim_o=10), q, k, v [2, 5, 8], mask [2, 5, 5]
  ffn.         PositionwiseFFN(8, 12), x [2, 5, 8]
  pe.          PositionalEncoding(8, max_length=16), x [2, 5, 8]
  scalenorm.   ScaleNorm(8), x [2, 5, 8] (g set to 1.7)
  encoder.     EncoderBlock(8, 12), x [2, 5, 8], key padding mask [2, 5]
  decoder.     DecoderBlock(8, 12, memory_dim=6), x [2, 5, 8], memory [2, 7, 6],
               causal mask [2, 5, 5], memory mask [2, 7]
  cross.       CrossAttentionBlock(8, 12, memory_dim=6), x [2, 3, 8], memory [2, 7, 6], mask [2, 7]
  mab.         MAB(8, 2), q [2, 3, 8], v [2, 5, 8]
  sab.         SAB(8, 2), x [2, 5, 8]
  pma.         PMA(8, 2, num_seeds=2), x [2, 5, 8]
  isab.        ISAB(8, 2, num_inds=3), x [2, 5, 8]
  linear.      LinearAttention(8, 6, 6), q [2, 5, 8], k, v [2, 7, 6]
  linear_mask. LinearAttention(8, 6, 6, num_heads=1), mask [2, 7] (its 2-D mask broadcasts
               only with one head)
Keys: <case>.<input> for the inputs (q, k, v, x, memory), <case>.mask and <case>.memory_mask
(1 keep, 0 drop), <case>.out, <case>.w, <case>.loss = sum(out * w), <case>.param.<name> and
<case>.grad.<name> for every state_dict name (buffers have no grad), <case>.grad.<input>.
Run once with the peer PyTorch (in build/peer-venv); the test never needs Python:
    build/peer-venv/bin/python bench/peer/make_transformer_blocks_fixture.py
"""
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import safetensors_io  # noqa: E402
from transformer_blocks import blocks_01581ee as old  # noqa: E402
from transformer_blocks import blocks_b4af92e as new  # noqa: E402

D, H, HID, B = 8, 2, 12, 2


def npy(t):
    return t.detach().cpu().numpy().copy()


def padding_mask(n, drop):
    # [B, n] of 1 (keep) and 0 (drop): row b drops the positions in drop[b]; no row is empty.
    m = torch.ones(B, n)
    for b, js in enumerate(drop):
        m[b, js] = 0
    return m


def run(case, seed, build, inputs, call, res, masks=None):
    """inputs: {name: shape}, float tensors that get gradients; call(model, **inputs, **masks)."""
    torch.manual_seed(seed)
    model = build()
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.p = 0.0
    model.eval()
    xs = {k: torch.randn(*shape, requires_grad=True) for k, shape in inputs.items()}
    masks = masks or {}
    out = call(model, **xs, **masks)
    w = torch.randn_like(out)
    loss = (out * w).sum()
    loss.backward()
    pre = case + "."
    for k, x in xs.items():
        res[pre + k] = npy(x)
        res[pre + "grad." + k] = npy(x.grad)
    for k, m in masks.items():
        res[pre + k] = npy(m)
    res[pre + "out"] = npy(out)
    res[pre + "w"] = npy(w)
    res[pre + "loss"] = npy(loss).reshape(())
    for name, v in model.state_dict(keep_vars=True).items():
        res[pre + "param." + name] = npy(v)
        if isinstance(v, nn.Parameter):
            g = v.grad if v.grad is not None else torch.zeros_like(v)
            res[pre + "grad." + name] = npy(g)
    print(f"{case}: out {list(out.shape)}, loss {loss.item():.6f}")


def scalenorm_17():
    sn = old.ScaleNorm(D)
    with torch.no_grad():
        sn.g.fill_(1.7)  # away from its √dim start, so that a wrong init cannot pass
    return sn


if __name__ == "__main__":
    res = {}
    causal = torch.tril(torch.ones(5, 5)).repeat(B, 1, 1)
    mask3 = (torch.rand(B, 5, 5, generator=torch.Generator().manual_seed(99)) > 0.4).float()
    mask3[:, :, 0] = 1  # every query keeps a key

    run("mha", 0, lambda: old.MultiHeadAttn(D, 6, 6, num_heads=H, dropout_prob=0.0),
        dict(q=(B, 5, D), k=(B, 7, 6), v=(B, 7, 6)),
        lambda m, q, k, v, mask: m(q, k, v, mask), res,
        masks=dict(mask=padding_mask(7, [[6], [2, 5]])))
    run("mha_mask3", 1,
        lambda: old.MultiHeadAttn(D, D, D, num_heads=H, dropout_prob=0.0, dim_a=12, dim_o=10),
        dict(q=(B, 5, D), k=(B, 5, D), v=(B, 5, D)),
        lambda m, q, k, v, mask: m(q, k, v, mask), res, masks=dict(mask=mask3))
    run("ffn", 2, lambda: old.PositionwiseFFN(D, HID, dropout_prob=0.0), dict(x=(B, 5, D)),
        lambda m, x: m(x), res)
    run("pe", 3, lambda: old.PositionalEncoding(D, dropout_prob=0.0, max_length=16),
        dict(x=(B, 5, D)), lambda m, x: m(x), res)
    run("scalenorm", 4, scalenorm_17, dict(x=(B, 5, D)), lambda m, x: m(x), res)
    run("encoder", 5, lambda: old.EncoderBlock(D, HID, num_heads=H, dropout_prob=0.0),
        dict(x=(B, 5, D)), lambda m, x, mask: m(x, mask), res,
        masks=dict(mask=padding_mask(5, [[4], [1, 3]])))
    run("decoder", 6,
        lambda: old.DecoderBlock(D, HID, memory_dim=6, num_heads=H, dropout_prob=0.0),
        dict(x=(B, 5, D), memory=(B, 7, 6)),
        lambda m, x, memory, mask, memory_mask: m(x, memory, mask, memory_mask), res,
        masks=dict(mask=causal, memory_mask=padding_mask(7, [[0, 6], [3]])))
    run("cross", 7,
        lambda: new.CrossAttentionBlock(D, HID, memory_dim=6, num_heads=H, dropout_prob=0.0),
        dict(x=(B, 3, D), memory=(B, 7, 6)),
        lambda m, x, memory, memory_mask: m(x, memory, None, memory_mask), res,
        masks=dict(memory_mask=padding_mask(7, [[5], [1, 2]])))
    run("mab", 8, lambda: old.MAB(D, H), dict(q=(B, 3, D), v=(B, 5, D)),
        lambda m, q, v: m(q, v), res)
    run("sab", 9, lambda: old.SAB(D, H), dict(x=(B, 5, D)), lambda m, x: m(x), res)
    run("pma", 10, lambda: old.PMA(D, H, num_seeds=2), dict(x=(B, 5, D)), lambda m, x: m(x), res)
    run("isab", 11, lambda: old.ISAB(D, H, num_inds=3), dict(x=(B, 5, D)), lambda m, x: m(x), res)
    run("linear", 12, lambda: new.LinearAttention(D, 6, 6, num_heads=H, dropout_prob=0.0),
        dict(q=(B, 5, D), k=(B, 7, 6), v=(B, 7, 6)), lambda m, q, k, v: m(q, k, v), res)
    run("linear_mask", 13, lambda: new.LinearAttention(D, 6, 6, num_heads=1, dropout_prob=0.0),
        dict(q=(B, 5, D), k=(B, 7, 6), v=(B, 7, 6)),
        lambda m, q, k, v, mask: m(q, k, v, mask), res,
        masks=dict(mask=padding_mask(7, [[6], [0, 4]])))

    commits = {}
    src = os.environ.get("TRANSFORMER_BLOCKS_REPO")  # a clone, to record that the copies match it
    for c in ("01581ee", "b4af92e"):
        commits["blocks_" + c] = c
        if src:
            orig = subprocess.run(["git", "-C", src, "show", c + ":src/blocks.py"],
                                  capture_output=True, text=True, check=True).stdout
            with open(os.path.join(HERE, "transformer_blocks", f"blocks_{c}.py")) as f:
                copy = f.read().split("\n", 4)[4]
            assert copy == orig, f"bench/peer/transformer_blocks/blocks_{c}.py differs from {c}"
    meta = {"transformer_blocks": "tonyduan/transformer-blocks src/blocks.py at 01581ee and b4af92e",
            "torch": torch.__version__}
    path = os.path.join(HERE, "..", "..", "tests", "nn", "fixtures", "transformer_blocks_tiny.safetensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    safetensors_io.save(path, {k: v.astype(np.float32) for k, v in res.items()}, meta)
    print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes,", len(res), "tensors")
