"""Writes tests/models/fixtures/elita_tiny.safetensors: tiny ELiTA LMs' weights, one batch, and
what PyTorch computes from them (logits, loss, every gradient), plus one Attention2 on
logits near ±1000 with its exact output, for attic's models/elita to be checked against.

Cases, each a key prefix:
  clip_relative.    the original's numerics and positions, k1, k2, k3 scaled by 300 so that
                    the [-20, 20] clip is active on some parts and not on others
  stable_absolute.  the running-max numerics with absolute positions, weights at their init
  stable_scaled.    the running-max numerics with k1, k2, k3 scaled by 30, so that the
                    running maximum moves by several units under backprop
  stable_big.       one Attention2 (stable, relative) whose logits reach about ±1000; out is
                    the explicit O(N^2) softmax in float64, cast to float32
Keys: <case>.param.<name> (state_dict names, plus lm_head.weight = wte), <case>.idx,
<case>.targets, <case>.logits, <case>.loss, <case>.grad.<name>; stable_big.param.<name>,
stable_big.x, stable_big.out. Run once with the peer PyTorch (scripts/install-peer.sh puts it
in build/peer-venv); the test never needs Python:
    build/peer-venv/bin/python bench/peer/make_elita_fixture.py
"""
import copy
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from elita import CLIP, Attention2, ElitaLM, attention2_explicit  # noqa: E402
import safetensors_io  # noqa: E402

SIZES = dict(vocab_size=11, W=16, n_layer=2, H=2, A=8, P=4, F=8, block_size=12)
K_SCALE = 300.0
BIG = dict(W=8, H=2, A=4, P=3, numerics="stable", positions="relative", block_size=50)


def npy(t):
    return t.detach().numpy().copy()


def scale_keys(attn, k):
    with torch.no_grad():
        for p in (attn.k1, attn.k2, attn.k3):
            p.mul_(k)


def lm_case(case, seed, numerics, positions, k_scale, out, meta):
    torch.manual_seed(seed)
    model = ElitaLM(numerics=numerics, positions=positions, **SIZES)
    blocks = model.transformer.h
    for block in blocks:
        scale_keys(block.attn, k_scale)
    idx = torch.randint(0, SIZES["vocab_size"], (3, 8))
    targets = torch.randint(0, SIZES["vocab_size"], (3, 8))
    targets[1, 2] = -1  # one ignored position

    seen = []  # each attention's input, for the checks below
    hooks = [b.attn.register_forward_hook(lambda m, inp, o: seen.append((m, inp[0].detach())))
             for b in blocks]
    logits, loss = model(idx, targets)
    loss.backward()
    for h in hooks:
        h.remove()

    pre = case + "."
    for k, v in model.state_dict().items():
        out[pre + "param." + k] = npy(v)
    out[pre + "param.lm_head.weight"] = npy(model.transformer.wte.weight)
    out[pre + "idx"] = idx.numpy().astype(np.int64)
    out[pre + "targets"] = targets.numpy().astype(np.int64)
    out[pre + "logits"] = npy(logits)
    out[pre + "loss"] = npy(loss).reshape(())
    for name, p in model.named_parameters():
        out[pre + "grad." + name] = npy(p.grad)
    meta.update({pre + k: str(v) for k, v in SIZES.items()})
    meta.update({pre + "numerics": numerics, pre + "positions": positions, pre + "k_scale": str(k_scale)})

    with torch.no_grad():
        if numerics == "clip":
            # Which parts the clip changes, per layer and kind: some must, some must not.
            clipped, total = 0, 0
            for i, (attn, x) in enumerate(seen):
                for kind, part in zip("sdr", attn.parts(x)[:3]):
                    n = int((part.abs() > CLIP).sum())
                    clipped, total = clipped + n, total + part.numel()
                    print(f"  {case} layer {i} {kind}: {n}/{part.numel()} clipped, |max| {part.abs().max():.1f}")
            assert 0 < clipped < total, (clipped, total)
        elif k_scale != 1.0:
            # Large keys: the running maximum moves; the stable form is the explicit softmax.
            for attn, x in seen:
                y = attn(x)
                big = max(p.abs().max() for p in attn.parts(x)[:3]).item()
                err = (attention2_explicit(attn, x) - y).abs().max().item()
                print(f"  {case}: parts up to {big:.0f}, stable vs explicit {err:.2e}")
                assert big > 3 and err < 1e-4, (big, err)
        else:
            # The stable form, the clip form (no clip active at these weights) and the explicit
            # O(N^2) softmax agree.
            for attn, x in seen:
                y = attn(x)
                assert max(p.abs().max() for p in attn.parts(x)[:3]) < CLIP
                attn.numerics = "clip"
                err_clip = (attn(x) - y).abs().max().item()
                attn.numerics = "stable"
                err_explicit = (attention2_explicit(attn, x) - y).abs().max().item()
                assert err_clip < 1e-5 and err_explicit < 1e-5, (err_clip, err_explicit)
    print(f"{case}: loss {loss.item():.6f}")


def relative_check():
    # The explicit softmax against the stable form, relative positions, small weights.
    torch.manual_seed(3)
    attn = Attention2(16, 2, 8, 4, "stable", "relative")
    x = torch.randn(2, 9, 16)
    with torch.no_grad():
        err = (attention2_explicit(attn, x) - attn(x)).abs().max().item()
    assert err < 1e-5, err


def big_case(out, meta):
    torch.manual_seed(2)
    attn = Attention2(**BIG)
    x = torch.randn(2, 50, BIG["W"])
    with torch.no_grad():
        # Scale the keys so that the largest |k.x| over k1, k2, k3 is 1000.
        kx = torch.einsum("bnw,hw->bhn", x, torch.cat([attn.k1, attn.k2, attn.k3]))
        k_scale = 1000.0 / kx.abs().max().item()
        scale_keys(attn, k_scale)
        ref = attention2_explicit(copy.deepcopy(attn).double(), x.double())
        y32 = attn(x)
    s, d, r, _ = attn.parts(x)
    print(f"stable_big: k_scale {k_scale:.1f}, |s| {s.abs().max():.0f}, |d| {d.abs().max():.0f}, "
          f"|r| {r.abs().max():.0f}, float32 stable vs float64 explicit {(y32 - ref).abs().max():.2e}")
    assert torch.isfinite(ref).all() and torch.isfinite(y32).all()
    for k, v in attn.state_dict().items():
        out["stable_big.param." + k] = npy(v)
    out["stable_big.x"] = npy(x)
    out["stable_big.out"] = npy(ref.float())
    meta.update({"stable_big." + k: str(v) for k, v in BIG.items()})
    meta.update({"stable_big.N": "50", "stable_big.k_scale": repr(k_scale)})


if __name__ == "__main__":
    out, meta = {}, {"torch": torch.__version__}
    relative_check()
    lm_case("clip_relative", 0, "clip", "relative", K_SCALE, out, meta)
    lm_case("stable_absolute", 1, "stable", "absolute", 1.0, out, meta)
    # k × 30: the running maximum moves by several units; at × 300 the float32 gradients of
    # either framework are uncertain by up to 5 % (PyTorch against its own float64)
    lm_case("stable_scaled", 4, "stable", "relative", 30.0, out, meta)
    big_case(out, meta)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "models", "fixtures", "elita_tiny.safetensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    safetensors_io.save(path, out, meta)
    print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes,", len(out), "tensors")
