"""ELiTA (acosharma/elita-transformer, main.py, TensorFlow 2) written again in PyTorch, for
side-by-side checks of attic's models/elita.

Attention2 and FeedForward2 keep the original's Keras weight names, shapes and initializers;
ElitaLM wraps them as a language model (token embedding, pre-norm residual blocks, a final
norm, lm_head tied to the embedding). Two options go beyond the original:
  numerics  "clip"      the original: the exponent parts are clipped to [-20, 20]
            "stable"    exact: a running maximum shifts the prefix sums
  positions "relative"  the original: t_i = i / (N - 1)
            "absolute"  t_i = i / (block_size - 1)
Shapes: B batch, N sequence, W width, H heads, A value width, P sinusoids, F FeedForward2's
factor, V vocabulary. Used by bench/peer/*.py only; no build step or test needs Python.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

CLIP = 20.0


def positions(N, mode, block_size, dtype=torch.float32):
    # -> t [N]: t_i = i/(N-1) (relative) or i/(block_size-1) (absolute); 0 where the divisor is 0
    div = (N if mode == "relative" else block_size) - 1
    if mode == "absolute":
        assert N <= block_size, f"N={N} > block_size={block_size}"
    i = torch.arange(N, dtype=dtype)
    return i / div if div > 0 else torch.zeros(N, dtype=dtype)


def uniform(shape, limit):
    return nn.Parameter(torch.empty(shape).uniform_(-limit, limit))


class Attention2(nn.Module):
    """Per head, row i is a softmax over {d_i} ∪ {r_i + s_j : j <= i} with values
    {v_i} ∪ {v_j}, written with prefix sums over j, so O(N) in time."""

    def __init__(self, W, H, A, P, numerics="stable", positions="relative", block_size=0):
        super().__init__()
        assert numerics in ("stable", "clip") and positions in ("relative", "absolute")
        self.numerics, self.positions, self.block_size = numerics, positions, block_size
        # Keras: random_uniform is U(-0.05, 0.05); glorot_uniform of [H, W, A] has
        # fan_in = H*W, fan_out = H*A.
        for name in ("k1", "k2", "k3"):
            setattr(self, name, uniform((H, W), 0.05))
        for name in ("a1", "a2", "b1", "b2", "c"):
            setattr(self, name, uniform((H, P, 1), 0.05))
        limit = math.sqrt(6.0 / (H * (W + A)))
        self.value_weight = uniform((H, W, A), limit)
        self.output_weight = uniform((H, W, A), limit)

    def parts(self, x):
        # x [B, N, W] -> s, d, r [B, H, N], v [B, H, N, A]:
        #   pi1_i = sum_p c_p sin(a1_p t_i + b1_p), pi2 with a2, b2 (same c)    [H, N]
        #   s_j = k1.x_j + pi1_j   d_i = k2.x_i   r_i = pi2_i + k3.x_i   v_j = x_j Wv
        t = positions(x.shape[1], self.positions, self.block_size, x.dtype)
        pi1 = (self.c * torch.sin(self.a1 * t + self.b1)).sum(1)
        pi2 = (self.c * torch.sin(self.a2 * t + self.b2)).sum(1)
        s = torch.einsum("bnw,hw->bhn", x, self.k1) + pi1
        d = torch.einsum("bnw,hw->bhn", x, self.k2)
        r = pi2 + torch.einsum("bnw,hw->bhn", x, self.k3)
        v = torch.einsum("bnw,hwa->bhna", x, self.value_weight)
        return s, d, r, v

    def forward(self, x):
        # x [B, N, W] -> [B, N, W]:  out_i = sum_h Wo_h y_i,
        #   y_i = (e^r_i S_i + e^d_i v_i) / (e^r_i Z_i + e^d_i),
        #   S_i = sum_{j<=i} e^s_j v_j,  Z_i = sum_{j<=i} e^s_j
        s, d, r, v = self.parts(x)
        if self.numerics == "clip":
            # The original: every part clipped on its own; clamp's gradient is 0 outside.
            es = torch.exp(s.clamp(-CLIP, CLIP))[..., None]
            er = torch.exp(r.clamp(-CLIP, CLIP))[..., None]
            ed = torch.exp(d.clamp(-CLIP, CLIP))[..., None]
            S, Z = torch.cumsum(es * v, 2), torch.cumsum(es, 2)
            y = (er * S + ed * v) / (er * Z + ed)
        else:
            # m_i = max_{j<=i} s_j; S_i = sum_{j<=i} e^{s_j - m_i} v_j, Z_i likewise, written
            # as a masked [N, N] product, exact (this is the reference, not the fast form);
            # M_i = max(r_i + m_i, d_i). m and M only shift, so they carry no gradient.
            N = x.shape[1]
            m = torch.cummax(s, dim=-1).values.detach()
            later = torch.ones(N, N, dtype=torch.bool).triu(1)  # j > i
            e = torch.exp((s[..., None, :] - m[..., :, None]).masked_fill(later, -math.inf))
            S, Z = e @ v, e.sum(-1)
            M = torch.maximum(r + m, d).detach()
            er, ed = torch.exp(r + m - M), torch.exp(d - M)
            y = (er[..., None] * S + ed[..., None] * v) / (er * Z + ed)[..., None]
        return torch.einsum("bhna,hwa->bnw", y, self.output_weight)


def attention2_explicit(attn, x):
    # x [B, N, W] -> [B, N, W], O(N^2): per head and row i a softmax over the i+2 logits
    #   L = {d_i} ∪ {r_i + s_j : j <= i}, values {v_i} ∪ {v_j}: y_i = sum softmax(L) v,
    # each exp taken of a logit minus its row's max. No clip. Computes in attn's dtype.
    s, d, r, v = attn.parts(x)
    N = x.shape[1]
    later = torch.ones(N, N, dtype=torch.bool).triu(1)
    L = torch.cat([d[..., None], (r[..., :, None] + s[..., None, :]).masked_fill(later, -math.inf)], -1)
    p = torch.exp(L - L.max(-1, keepdim=True).values)
    p = p / p.sum(-1, keepdim=True)  # [B, H, N, 1 + N]
    y = p[..., :1] * v + p[..., 1:] @ v
    return torch.einsum("bhna,hwa->bnw", y, attn.output_weight)


class FeedForward2(nn.Module):
    """The original's bilinear feed-forward: two SiLU branches multiplied through w3."""

    def __init__(self, W, F=8):
        super().__init__()
        # Keras glorot_uniform; for w3 [W, F, W]: fan_in = W*F, fan_out = W*W.
        self.w1 = uniform((W, W), math.sqrt(6.0 / (2 * W)))
        self.w2 = uniform((W, F), math.sqrt(6.0 / (W + F)))
        self.w3 = uniform((W, F, W), math.sqrt(6.0 / (W * F + W * W)))
        self.b1 = nn.Parameter(torch.zeros(W))
        self.b2 = nn.Parameter(torch.zeros(F))
        self.b3 = nn.Parameter(torch.zeros(W))

    def forward(self, x):
        # x [..., W] -> [..., W]:  u = silu(x w1 + b1) [W], g = silu(x w2 + b2) [F],
        #   y_k = sum_{i,j} u_i g_j w3[i,j,k] + b3_k
        u = F.silu(x @ self.w1 + self.b1)
        g = F.silu(x @ self.w2 + self.b2)
        return torch.einsum("...i,...j,ijk->...k", u, g, self.w3) + self.b3


def layer_norm(x):
    # x [..., W] -> [..., W]: (x - mean) / sqrt(var + 1e-3), biased var, no weight or bias
    # (Keras LayerNormalization(center=False, scale=False))
    return F.layer_norm(x, x.shape[-1:], eps=1e-3)


class Block(nn.Module):
    def __init__(self, W, H, A, P, F, numerics, positions, block_size):
        super().__init__()
        self.attn = Attention2(W, H, A, P, numerics, positions, block_size)
        self.ff = FeedForward2(W, F)

    def forward(self, x):
        # x [B, N, W]: x + attn(ln(x)), then + ff(ln(x)), as the original's Model2
        x = x + self.attn(layer_norm(x))
        return x + self.ff(layer_norm(x))


class ElitaLM(nn.Module):
    def __init__(self, vocab_size, W, n_layer, H, A, P, F=8, numerics="stable",
                 positions="relative", block_size=0):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, W),
            h=nn.ModuleList([Block(W, H, A, P, F, numerics, positions, block_size)
                             for _ in range(n_layer)]),
        ))
        nn.init.normal_(self.transformer.wte.weight, 0.0, 0.02)

    def forward(self, idx, targets=None):
        # idx, targets [B, N] -> logits [B, N, V], loss (mean over targets != -1):
        #   x = wte[idx]; blocks; logits = ln(x) wte^T (lm_head tied)
        wte = self.transformer.wte.weight
        x = wte[idx]
        for block in self.transformer.h:
            x = block(x)
        logits = layer_norm(x) @ wte.t()
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss
