"""The "reflex attention" fork of nanoGPT (Vadimbuildercxx/reflex_attention, model.py) written
again in PyTorch on top of bench/peer/gpt.py, for side-by-side checks of attic's reflex model.

GPTConfig.attention_type picks how block i >= 2 attends; blocks 0 and 1 always run nanoGPT's
causal self-attention over all heads (karpathy/nanoGPT model.py), whatever the mode.
  classic  nanoGPT unchanged.
  reflex   heads split by fixed index: [0, sa) take K, V from ln_1(x_i) (self-attention),
           [sa, sa+p1) from x_{i-1}, [sa+p1, NH) from x_{i-2} (cross-attention); Q always from
           ln_1(x_i). The original hard-codes sa = p1 = 2.
  route    per head h, K_h = sum_l k_router[l*NH+h] K_{l,h} and V_h likewise with v_router, over
           the sources l = 0: x_{i-2}, 1: x_{i-1}, 2: ln_1(x_i); raw weights, no softmax,
           initialized to 1/(3 NH).
x_0 = drop(wte + wpe) and x_i is the input of block i. As in the original, x_{i-1} and x_{i-2}
enter raw (not layer-normed); norm_prev=True applies block i's ln_1 to them too (not in the
original). Every source goes through the same c_attn (C -> 3C); only the current stream's
queries are used.

Config (a dict, as gpt.py's): gpt.py's keys plus attention_type ("classic"), norm_prev (False),
sa_heads (2), prev1_heads (2). Parameter names are nanoGPT's, plus
transformer.h.{i}.attn.k_router / v_router [3*NH] in route mode only.
Shapes: B batch, T sequence, C = n_embd, NH heads, hs = C / NH, V vocabulary.
Used by bench/peer/*.py only; no build step or test needs Python.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import gpt

DEFAULTS = dict(attention_type="classic", norm_prev=False, sa_heads=2, prev1_heads=2)
SOURCES = 3  # x_{i-2}, x_{i-1}, ln_1(x_i), in this order (the original's torch.stack order)


def head_sources(n_head, sa_heads=2, prev1_heads=2):
    # -> list [NH] of source indices l (0: x_{i-2}, 1: x_{i-1}, 2: current) for reflex mode:
    #    head h < sa -> 2; sa <= h < sa+p1 -> 1; else 0, with sa = min(sa_heads, NH),
    #    p1 = min(prev1_heads, NH - sa) (the original: 2 / 2 / rest; n_head <= 4 leaves CA2 empty)
    sa = min(sa_heads, n_head)
    p1 = min(prev1_heads, n_head - sa)
    return [2] * sa + [1] * p1 + [0] * (n_head - sa - p1)


class ReflexAttention(gpt.CausalSelfAttention):
    """gpt.CausalSelfAttention (nanoGPT's) that can also attend to the two previous block inputs.
    x [B, T, C], prev [x_{i-2}, x_{i-1}] each [B, T, C] (fewer than 2 -> classic) -> [B, T, C]:
      y = resid_drop(c_proj(concat_h attn_h)),  attn_h = softmax(Q_h K_h^T / sqrt(hs) + causal) V_h
    with Q from x and K_h, V_h from the sources as the mode says (module docstring)."""

    def __init__(self, cfg):
        super().__init__(cfg)
        cfg = dict(DEFAULTS, **cfg)
        assert cfg["attention_type"] in ("classic", "reflex", "route"), cfg["attention_type"]
        self.attention_type = cfg["attention_type"]
        self.sources = head_sources(self.n_head, cfg["sa_heads"], cfg["prev1_heads"])
        if self.attention_type == "route":
            # The original: torch.ones(3*NH) / (3*NH) for both; index l*NH + h.
            n = SOURCES * self.n_head
            self.k_router = nn.Parameter(torch.full((n,), 1.0 / n))
            self.v_router = nn.Parameter(torch.full((n,), 1.0 / n))

    def attend(self, q, k, v):
        # q, k, v [B, NH, T, hs] -> [B, NH, T, hs]: softmax(q k^T / sqrt(hs), causal) v, with
        # attention dropout; the same two branches as gpt.CausalSelfAttention.forward.
        T, hs = q.shape[2], q.shape[3]
        if self.sdpa:
            return F.scaled_dot_product_attention(q, k, v, attn_mask=None, is_causal=True,
                                                  dropout_p=self.dropout if self.training else 0.0)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hs))
        att = att.masked_fill(self.mask[:T, :T], float("-inf"))
        return self.attn_dropout(F.softmax(att, dim=-1)) @ v

    def heads(self, x, prev):
        # x [B, T, C] (= ln_1(x_i)), prev [x_{i-2}, x_{i-1}] -> y [B, NH, T, hs], the head outputs
        # before c_proj. Sources s = stack(x_{i-2}, x_{i-1}, x) [3, B, T, C];
        # q_l, k_l, v_l = c_attn(s_l).split(C), each viewed [3, B, NH, T, hs]; Q = q_2.
        #   reflex: K_h = k_{src(h), h}, V_h = v_{src(h), h}   (src from head_sources)
        #   route:  K_h = sum_l k_router[l*NH+h] k_{l,h},  V_h = sum_l v_router[l*NH+h] v_{l,h}
        # Attending each reflex head group on its own (the original: one SDPA per group) is the
        # same as one attention over the gathered heads, since heads do not mix.
        B, T, C = x.shape
        H, hs = self.n_head, C // self.n_head
        s = torch.stack(list(prev) + [x])
        q, k, v = (t.view(SOURCES, B, T, H, hs).transpose(2, 3) for t in self.c_attn(s).split(C, dim=-1))
        q = q[-1]
        if self.attention_type == "reflex":
            idx = torch.tensor(self.sources, device=x.device)
            h = torch.arange(H, device=x.device)
            k, v = k[idx, :, h].transpose(0, 1), v[idx, :, h].transpose(0, 1)  # [B, NH, T, hs]
        else:
            k = torch.einsum("lh,lbhtd->bhtd", self.k_router.view(SOURCES, H), k)
            v = torch.einsum("lh,lbhtd->bhtd", self.v_router.view(SOURCES, H), v)
        return self.attend(q, k, v)

    def forward(self, x, prev=()):
        # x [B, T, C], prev: the earlier block inputs handed down (at most 2) -> [B, T, C].
        # classic, or fewer than 2 earlier states (blocks 0 and 1): nanoGPT's attention.
        if self.attention_type == "classic" or len(prev) < 2:
            return super().forward(x)
        B, T, C = x.shape
        y = self.heads(x, prev).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))


class ReflexBlock(gpt.Block):
    """gpt.Block with ReflexAttention. x [B, T, C] = x_i, prev = [x_{i-2}, x_{i-1}] -> x_{i+1}:
      u = x + attn(ln_1(x), prev'),  x_{i+1} = u + mlp(ln_2(u)),
    prev' = prev (the original) or [ln_1(p) for p in prev] (norm_prev)."""

    def __init__(self, cfg):
        # Built directly, in gpt.Block's order, so no second attention gets initialized.
        nn.Module.__init__(self)
        self.ln_1 = gpt.LayerNorm(cfg["n_embd"], cfg["bias"])
        self.attn = ReflexAttention(cfg)
        self.ln_2 = gpt.LayerNorm(cfg["n_embd"], cfg["bias"])
        self.mlp = gpt.MLP(cfg)
        self.norm_prev = dict(DEFAULTS, **cfg)["norm_prev"]

    def forward(self, x, prev=()):
        if self.norm_prev:
            prev = [self.ln_1(p) for p in prev]
        x = x + self.attn(self.ln_1(x), prev)
        return x + self.mlp(self.ln_2(x))


class ReflexGPT(gpt.GPT):
    """The fork's GPT. idx [B, T] (int64), targets [B, T] or None ->
    logits [B, T, V], loss (mean cross entropy, targets -1 ignored) or None:
      x_0 = drop(wte[idx] + wpe[0:T]),  x_{i+1} = block_i(x_i, [x_{i-2}, x_{i-1}] where they exist),
      logits = lm_head(ln_f(x_n_layer)),  lm_head.weight tied to wte.weight.
    The same seed gives the same nanoGPT weights as gpt.GPT in every mode: gpt.GPT builds and
    initializes them, then each block is rebuilt as a ReflexBlock holding those weights (under
    a forked RNG, so the RNG stream after construction is also gpt.GPT's). Routers start at
    1/(3 NH)."""

    def __init__(self, cfg):
        cfg = dict(DEFAULTS, **cfg)
        super().__init__(cfg)
        weights = self.transformer.h.state_dict()
        with torch.random.fork_rng(devices=[]):
            self.transformer.h = nn.ModuleList([ReflexBlock(cfg) for _ in range(cfg["n_layer"])])
        missing, unexpected = self.transformer.h.load_state_dict(weights, strict=False)
        assert not unexpected and all(k.endswith("_router") for k in missing), (missing, unexpected)

    def forward(self, idx, targets=None):
        T = idx.shape[1]
        pos = torch.arange(T, device=idx.device)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        xs = [x]  # block inputs x_0 .. x_i; block i gets xs[i-2:i] (the original keeps the last 3)
        for i, block in enumerate(self.transformer.h):
            x = block(x, xs[max(0, i - 2):i])
            xs.append(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss
