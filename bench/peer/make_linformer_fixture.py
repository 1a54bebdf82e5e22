"""Writes tests/models/fixtures/linformer_tiny.safetensors: tiny models of the original Linformer
package (linformer_pytorch 0.19.3), one batch each, and what it computes from them (output, a
random linear loss of it, every gradient), for attic's Linformer to be checked against.

Every case but encdec, padder and stack is
    LinformerLM(num_tokens=11, input_size=16, channels=16, dim_k=4, dim_ff=24, nhead=2, depth=2,
                activation="gelu", method="learnable", every dropout 0)
on ids x [2, 16] in [0, 11), changed as follows. Cases, each a key prefix:
  none.                parameter_sharing="none"
  headwise.            parameter_sharing="headwise"; also each head's softmaxed P_bar[0] [16, 4]
  kv.                  parameter_sharing="kv" (F is E)
  layerwise.           parameter_sharing="layerwise" (one E, also F, for every head of every layer)
  conv.                method="convolution" (Conv1d over head channels, kernel = stride = 4), headwise
  conv_none.           method="convolution", parameter_sharing="none"
  noparams.            method="no_params" (fixed random E, F outside the state dict), "none"
  noparams_layerwise.  method="no_params", parameter_sharing="layerwise"
  causal.              causal=True (the package's compressed [n, k] mask), headwise
  full.                full_attention=True, causal=True ([n, n] mask, E and F unused), headwise
  kreduce.             depth=3, k_reduce_by_layer=1 (k = 4, 3, 2), "none"
  extras.              w_o_intermediate_dim=12, emb_dim=20 (ProjectInOut around the Linformer),
                       activation="relu", "kv"
  noff.                include_ff=False, headwise
  ffint.               depth=3, ff_intermediate=20, headwise
  dimd.                dim_d=6, headwise
  encdec.              LinformerEncDec, 2 + 2 layers, headwise, x ids [2, 16] in [0, 11),
                       y ids [2, 16] in [0, 13), out [2, 16, 13]
  padder.              Padder(LinformerLM(layerwise)) on x ids [2, 11], out [2, 11, 11]
  stack.               Linformer(input_size=16, channels=16, dim_k=4, dim_ff=24, nhead=2,
                       depth=2, "none") on a float x [2, 16, 16]
Keys: <case>.x (<case>.y), <case>.out, <case>.w, <case>.loss = sum(out * w), <case>.param.<name>
and <case>.grad.<name> for every state_dict name (shared tensors under each alias name, with the
total gradient; a parameter the forward never uses has a zero gradient), <case>.param.<head>.E
and .F for method "no_params" (every head's path, shared or not), headwise.pbar.<layer>.<head>,
stack.grad.x. Padder's names drop its "net." prefix. Run once with the peer PyTorch (in
build/peer-venv); the test never needs Python:
    build/peer-venv/bin/python bench/peer/make_linformer_fixture.py
"""
import importlib.metadata
import os
import sys

import numpy as np
import torch
import torch.nn as nn
from linformer_pytorch import Linformer, LinformerEncDec, LinformerLM, Padder
from linformer_pytorch.linformer_pytorch import LinearAttentionHead, MHAttention

sys.path.insert(0, os.path.dirname(__file__))
import safetensors_io  # noqa: E402

VERSION = "0.19.3"
LM = dict(num_tokens=11, input_size=16, channels=16, dim_k=4, dim_ff=24, nhead=2, depth=2,
          dropout=0.0, dropout_ff=0.0, dropout_tokens=0.0, activation="gelu", method="learnable")
STACK = dict(input_size=16, channels=16, dim_k=4, dim_ff=24, nhead=2, depth=2, dropout=0.0,
             dropout_ff=0.0, parameter_sharing="none")
ENCDEC = dict(enc_num_tokens=11, enc_input_size=16, enc_channels=16, dec_num_tokens=13,
              dec_input_size=16, dec_channels=16, enc_dim_k=4, dec_dim_k=4, enc_dim_ff=24,
              dec_dim_ff=24, enc_nhead=2, dec_nhead=2, enc_depth=2, dec_depth=2, enc_dropout=0.0,
              dec_dropout=0.0, enc_dropout_ff=0.0, dec_dropout_ff=0.0,
              enc_parameter_sharing="headwise", dec_parameter_sharing="headwise")

# (case, seed, LinformerLM arguments over LM)
LM_CASES = [
    ("none", 0, dict(parameter_sharing="none")),
    ("headwise", 1, dict(parameter_sharing="headwise")),
    ("kv", 2, dict(parameter_sharing="kv")),
    ("layerwise", 3, dict(parameter_sharing="layerwise")),
    ("conv", 4, dict(method="convolution", parameter_sharing="headwise")),
    ("conv_none", 5, dict(method="convolution", parameter_sharing="none")),
    ("noparams", 6, dict(method="no_params", parameter_sharing="none")),
    ("noparams_layerwise", 7, dict(method="no_params", parameter_sharing="layerwise")),
    ("causal", 8, dict(causal=True, parameter_sharing="headwise")),
    ("full", 9, dict(full_attention=True, causal=True, parameter_sharing="headwise")),
    ("kreduce", 10, dict(depth=3, k_reduce_by_layer=1, parameter_sharing="none")),
    ("extras", 11, dict(w_o_intermediate_dim=12, emb_dim=20, activation="relu",
                        parameter_sharing="kv")),
    ("noff", 12, dict(include_ff=False, parameter_sharing="headwise")),
    ("ffint", 13, dict(depth=3, ff_intermediate=20, parameter_sharing="headwise")),
    ("dimd", 14, dict(dim_d=6, parameter_sharing="headwise")),
]


def npy(t):
    return t.detach().cpu().numpy().copy()


def silence_dropout(model):
    # p = 0 on every nn.Dropout (LinformerEncDec leaves dropout_tokens at 0.1), and eval mode.
    for m in model.modules():
        if isinstance(m, nn.Dropout):
            m.p = 0.0
    model.eval()


def check_sharing(model, sharing):
    # Distinct E/F objects over the heads of each Linformer, M = its MHAttention count:
    # none 2hM, headwise 2M, kv M, layerwise 1.
    for lin in (m for m in model.modules() if isinstance(m, Linformer)):
        attns = [m for m in lin.modules() if isinstance(m, MHAttention)]
        h, n = len(attns[0].heads), len(attns)
        want = {"none": 2 * h * n, "headwise": 2 * n, "kv": n, "layerwise": 1}[sharing]
        got = len({id(p) for a in attns for head in a.heads for p in (head.E, head.F)})
        assert got == want, (sharing, got, want)


def record(case, model, inputs, out, w, loss, res, strip=""):
    pre = case + "."
    for k, x in zip("xy", inputs):
        res[pre + k] = npy(x) if x.is_floating_point() else npy(x).astype(np.int64)
    res[pre + "out"] = npy(out)
    res[pre + "w"] = npy(w)
    res[pre + "loss"] = npy(loss).reshape(())
    for name, v in model.state_dict(keep_vars=True).items():
        name = name.removeprefix(strip)
        res[pre + "param." + name] = npy(v)
        if isinstance(v, nn.Parameter) and v.requires_grad:
            g = v.grad if v.grad is not None else torch.zeros_like(v)
            res[pre + "grad." + name] = npy(g)
    for path, head in model.named_modules():
        if isinstance(head, LinearAttentionHead) and head.is_proj_tensor:
            path = path.removeprefix(strip)
            res[pre + "param." + path + ".E"] = npy(head.E)
            res[pre + "param." + path + ".F"] = npy(head.F)


def run(case, seed, build, make_inputs, sharing, res, strip=""):
    torch.manual_seed(seed)
    model = build()
    silence_dropout(model)
    inputs = make_inputs()
    out = model(*inputs)
    w = torch.randn_like(out)
    loss = (out * w).sum()
    loss.backward()
    check_sharing(model, sharing)
    before = len(res)
    record(case, model, inputs, out, w, loss, res, strip)
    if inputs[0].requires_grad:
        res[case + ".grad.x"] = npy(inputs[0].grad)
    print(f"{case}: {len(res) - before} tensors, out {list(out.shape)}, loss {loss.item():.6f}")
    return model, inputs, out


def ids(n, high=11):
    return torch.randint(0, high, (2, n))


def pbar(model, x, out, res):
    # Each head's softmaxed P_bar of batch row 0, from a second forward with visualize=True.
    with torch.no_grad():
        again = model(x, visualize=True)
    assert torch.equal(again, out)
    for l in range(LM["depth"]):
        for h, head in enumerate(model.linformer.seq[2 * l].fn.heads):
            res[f"headwise.pbar.{l}.{h}"] = npy(head.P_bar[0])


if __name__ == "__main__":
    assert importlib.metadata.version("linformer_pytorch") == VERSION
    res = {}
    for case, seed, args in LM_CASES:
        cfg = {**LM, **args}
        model, inputs, out = run(case, seed, lambda: LinformerLM(**cfg), lambda: (ids(16),),
                                 cfg["parameter_sharing"], res)
        if case == "headwise":
            pbar(model, inputs[0], out, res)
    run("encdec", 15, lambda: LinformerEncDec(**ENCDEC), lambda: (ids(16), ids(16, 13)),
        "headwise", res)
    run("padder", 16, lambda: Padder(LinformerLM(**{**LM, "parameter_sharing": "layerwise"})),
        lambda: (ids(11),), "layerwise", res, strip="net.")
    run("stack", 17, lambda: Linformer(**STACK), lambda: (torch.randn(2, 16, 16, requires_grad=True),),
        "none", res)

    meta = {"linformer_pytorch": VERSION, "torch": torch.__version__}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "models", "fixtures", "linformer_tiny.safetensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    safetensors_io.save(path, res, meta)
    print("wrote", os.path.normpath(path), os.path.getsize(path), "bytes,", len(res), "tensors")
