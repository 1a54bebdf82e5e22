"""Writes tests/models/fixtures/reflex_tiny.safetensors: for the reflex-attention fork of nanoGPT
(Vadimbuildercxx/reflex_attention, as bench/peer/reflex.py writes it) in several modes, a tiny
model's weights, one shared batch, and what PyTorch computes from them (logits, loss, every
gradient).

attic's test (tests/models/reflex/test_reflex_fixture.cpp) loads the file and checks that attic
computes the same numbers. Run once with the peer PyTorch (scripts/install-peer.sh puts it in
build/peer-venv); the test never needs Python:
    build/peer-venv/bin/python bench/peer/make_reflex_fixture.py

Contents, for every case C in CASES:
  param.<name>    every model.state_dict() entry but the routers, once: every case has the
                  same nanoGPT weights (float32; lm_head.weight = transformer.wte.weight)
  C.param.<name>  the k_router and v_router of each block, route cases only
  C.logits [B, T, V], C.loss from model(idx, targets); the loss is passed as a 0-d array, but
                  safetensors_io.save (np.ascontiguousarray) stores it with shape [1], as
                  gpt_tiny's "loss"
  C.grad.<name>   every named parameter's gradient after loss.backward() (named_parameters()
                  lists the tied lm_head/wte once, as transformer.wte.weight); zeros where the
                  gradient is None (the routers of blocks 0 and 1, which run classic attention)
and once: idx, targets [B, T] int64, both randint(0, V) after torch.manual_seed(123), idx
drawn first (targets[1, 3] = -1, ignored). Metadata: C.<config key>
as strings (booleans "0"/"1"), cases (comma-separated), torch.
Each model is built after torch.manual_seed(0), so all cases share the nanoGPT weights (the
shapes do not depend on n_head). The routers of route cases would then all equal 1/(3 NH);
they are overwritten with U(-0.5, 0.5) from a torch.Generator seeded 1 (k_router then v_router,
block by block) so that a wrong source or head order shows.
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import gpt  # noqa: E402
from reflex import ReflexGPT  # noqa: E402
import safetensors_io  # noqa: E402

BASE = dict(vocab_size=18, block_size=12, n_layer=4, n_embd=24, n_head=6, dropout=0.0, bias=True,
            attention_type="classic", norm_prev=False, sa_heads=2, prev1_heads=2)
CASES = {
    "classic": dict(attention_type="classic"),
    "reflex": dict(attention_type="reflex"),
    "route": dict(attention_type="route"),
    "reflex_norm": dict(attention_type="reflex", norm_prev=True),
    "route_norm": dict(attention_type="route", norm_prev=True),
    "reflex_h4": dict(attention_type="reflex", n_head=4),  # head groups 2 / 2 / 0
    "reflex_split": dict(attention_type="reflex", sa_heads=1, prev1_heads=3),  # 1 / 3 / 2
}
B, T = 2, 12


def build(cfg):
    # -> ReflexGPT(cfg) after torch.manual_seed(0); route: routers U(-0.5, 0.5), generator seed 1
    torch.manual_seed(0)
    model = ReflexGPT(cfg)
    if cfg["attention_type"] == "route":
        g = torch.Generator().manual_seed(1)
        with torch.no_grad():
            for block in model.transformer.h:
                for p in (block.attn.k_router, block.attn.v_router):
                    p.copy_(torch.empty(p.shape).uniform_(-0.5, 0.5, generator=g))
    return model


def batch():
    # -> idx, targets [B, T] int64 in [0, V), targets[1, 3] = -1
    torch.manual_seed(123)
    idx = torch.randint(0, BASE["vocab_size"], (B, T))
    targets = torch.randint(0, BASE["vocab_size"], (B, T))
    targets[1, 3] = -1
    return idx, targets


def max_diff(a, b):
    return (a - b).abs().max().item()


def checks(idx):
    # The properties the fixture relies on, checked in PyTorch before anything is written.
    with torch.no_grad():
        # (a) classic is nanoGPT: gpt.GPT with the same state dict gives the same logits, and the
        #     same seed gives the same weights.
        classic = build(dict(BASE))
        torch.manual_seed(0)
        plain = gpt.GPT({k: BASE[k] for k in ("vocab_size", "block_size", "n_layer", "n_embd",
                                             "n_head", "dropout", "bias")})
        same_init = all(torch.equal(v, plain.state_dict()[k]) for k, v in classic.state_dict().items())
        plain.load_state_dict(classic.state_dict(), strict=True)
        ref = classic(idx)[0]
        d = max_diff(ref, plain(idx)[0])
        assert torch.allclose(ref, plain(idx)[0], atol=1e-6), d
        assert same_init
        print(f"(a) classic == gpt.GPT (same state dict): max |diff| {d:.3g}; same seed -> same weights")

        # (b) route with one-hot routers on the current source (l = 2) is classic attention.
        route = build(dict(BASE, attention_type="route"))
        H = BASE["n_head"]
        for block in route.transformer.h:
            for p in (block.attn.k_router, block.attn.v_router):
                p.zero_()
                p[2 * H:] = 1.0
        sd = {k: v for k, v in route.state_dict().items() if not k.endswith("_router")}
        assert all(torch.equal(v, classic.state_dict()[k]) for k, v in sd.items())
        d = max_diff(route(idx)[0], ref)
        assert torch.allclose(route(idx)[0], ref, atol=1e-6), d
        print(f"(b) route, routers one-hot on ln_1(x_i) == classic: max |diff| {d:.3g}")

        # (c) causality: new tokens at positions >= 8 leave logits[:, :8] unchanged.
        idx2 = idx.clone()
        idx2[:, 8:] = (idx2[:, 8:] + 5) % BASE["vocab_size"]
        for mode in ("classic", "reflex", "route"):
            m = build(dict(BASE, attention_type=mode))
            a, b = m(idx)[0], m(idx2)[0]
            d = max_diff(a[:, :8], b[:, :8])
            assert torch.allclose(a[:, :8], b[:, :8], atol=1e-6), (mode, d)
            assert max_diff(a[:, 8:], b[:, 8:]) > 1e-4, mode
        print("(c) causality: changing idx[:, 8:] leaves logits[:, :8] unchanged (classic, reflex, route)")

        # (d) reflex head isolation in block 2 (NH = 6, groups 2/2/2): perturbing x_{i-1} changes
        #     only heads 2-3 of the pre-projection output, perturbing x_{i-2} only heads 4-5.
        m = build(dict(BASE, attention_type="reflex"))
        g = torch.Generator().manual_seed(7)
        x = [torch.randn(B, T, BASE["n_embd"], generator=g) for _ in range(3)]
        attn = m.transformer.h[2].attn
        y = attn.heads(x[2], x[:2])
        for which, changed in ((1, {2, 3}), (0, {4, 5})):
            prev = list(x[:2])
            prev[which] = prev[which] + torch.randn(B, T, BASE["n_embd"], generator=g)
            diff = (attn.heads(x[2], prev) - y).abs().amax(dim=(0, 2, 3))
            assert {h for h in range(H) if diff[h] > 1e-6} == changed, (which, diff)
        print("(d) reflex head isolation: x_{i-1} -> heads 2-3 only, x_{i-2} -> heads 4-5 only")

        # (e) blocks 0 and 1 are classic in every mode: their outputs equal classic's.
        for mode in ("reflex", "route"):
            m = build(dict(BASE, attention_type=mode))
            x0 = m.transformer.drop(m.transformer.wte(idx) + m.transformer.wpe(torch.arange(T)))
            x1 = m.transformer.h[0](x0, [])
            assert torch.equal(x1, classic.transformer.h[0](x0, []))
            assert torch.equal(m.transformer.h[1](x1, [x0]), classic.transformer.h[1](x1, [x0]))
        print("(e) blocks 0 and 1 equal classic blocks in reflex and route")


def main():
    idx, targets = batch()
    checks(idx)
    out = {"idx": idx.numpy().astype(np.int64), "targets": targets.numpy().astype(np.int64)}
    meta = {"cases": ",".join(CASES), "torch": torch.__version__}
    for case, over in CASES.items():
        cfg = dict(BASE, **over)
        model = build(cfg)
        for k, v in cfg.items():
            meta[f"{case}.{k}"] = str(int(v)) if isinstance(v, bool) else str(v)
        for k, v in model.state_dict().items():
            a = v.detach().numpy().astype(np.float32).copy()
            if k.endswith("_router"):
                out[f"{case}.param.{k}"] = a
            elif f"param.{k}" in out:
                assert np.array_equal(out[f"param.{k}"], a), k  # shared by every case
            else:
                out[f"param.{k}"] = a
        logits, loss = model(idx, targets)
        loss.backward()
        out[f"{case}.logits"] = logits.detach().numpy().astype(np.float32)
        out[f"{case}.loss"] = loss.detach().numpy().astype(np.float32).reshape(())
        none = []
        for name, p in model.named_parameters():
            if p.grad is None:
                none.append(name)
                out[f"{case}.grad.{name}"] = np.zeros(tuple(p.shape), np.float32)
            else:
                out[f"{case}.grad.{name}"] = p.grad.numpy().astype(np.float32).copy()
        if cfg["attention_type"] == "route":
            expect = [f"transformer.h.{i}.attn.{r}_router" for i in (0, 1) for r in "kv"]
            assert sorted(none) == sorted(expect), none
        else:
            assert not none, none
        print(f"{case:13s} loss {loss.item():.6f}  params {len(model.state_dict())}"
              f"  grads None -> zeros: {len(none)}")

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "models", "fixtures", "reflex_tiny.safetensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    safetensors_io.save(path, out, meta)
    print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes,", len(out), "tensors")


if __name__ == "__main__":
    main()
