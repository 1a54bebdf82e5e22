"""Writes tests/tensor/fixtures/half_torch.safetensors: float32 bit patterns of every class a
conversion must get right, and what PyTorch's CPU tensors make of them (Tensor.to(bfloat16)
and Tensor.to(float16)), plus every float16 bit pattern widened to float32 (a bfloat16 widens by a shift, which
the test checks by hand).

attic's test (tests/tensor/test_half.cpp) converts the same patterns and compares bit for bit.
Run once with the peer PyTorch (scripts/install-peer.sh puts it in build/peer-venv):
    build/peer-venv/bin/python bench/peer/make_half_fixture.py
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import safetensors_io  # noqa: E402


def patterns():
    """float32 bit patterns (uint32): the classes by name, then random ones."""
    p = []
    p += [0x00000000, 0x80000000, 0x7F800000, 0xFF800000]            # zeros, infinities
    p += [0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800001, 0xFF800001,  # quiet and signalling
          0x7FBFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0x7FA00000, 0x7F802000]  # NaNs, with payloads
    p += [0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00008000,  # float32 subnormals
          0x00018000, 0x00010000, 0x0000FFFF, 0x00800000, 0x80800000]
    p += [0x7F7FFFFF, 0xFF7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0x7F7F0000]  # largest finite
    # bfloat16 ties: the low half exactly 0x8000, kept half even and odd; and one either side.
    for hi in [0x3F80, 0x3F81, 0x4049, 0xC049, 0x0080, 0x7F00]:
        for lo in [0x7FFF, 0x8000, 0x8001]:
            p.append(hi << 16 | lo)
    # float16: around 65504 (max), 65520 (rounds to inf), 2^-14 (min normal), 2^-24 (min
    # subnormal), 2^-25 (half of it: a tie to zero), and ties of the 13 dropped mantissa bits.
    for f in [65504.0, 65519.0, 65519.996, 65520.0, 65536.0, 6.1035156e-05, 6.097555e-05,
              5.9604645e-08, 2.9802322e-08, 2.9802326e-08, 4.4703484e-08, 8.940697e-08,
              1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -23,
              -1.0 - 2.0 ** -11, 0.1, -0.1, 1.0 / 3.0, 3.14159265]:
        p.append(int(np.array([f], dtype=np.float32).view(np.uint32)[0]))
    rng = np.random.default_rng(0)
    p += list(rng.integers(0, 2 ** 32, size=20000, dtype=np.uint64))
    # Random normals of a few scales, the values a model's products see.
    for scale in [1e-3, 1.0, 1e3]:
        x = (rng.standard_normal(2000) * scale).astype(np.float32)
        p += list(x.view(np.uint32))
    return np.array(p, dtype=np.uint64).astype(np.uint32)


def main():
    bits = patterns()
    # Through int32 views, so that no pattern passes through a Python float (which would
    # quieten signalling NaNs).
    x = torch.from_numpy(bits.view(np.int32).copy()).view(torch.float32)
    out = {"x": bits.view(np.float32)}
    out["bf16"] = ("BF16", x.to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16))
    out["f16"] = ("F16", x.to(torch.float16).view(torch.int16).numpy().view(np.uint16))
    # f16_all_up[i]: the float16 of bits i (0 .. 65535) widened.
    every = torch.arange(0, 65536, dtype=torch.int32).to(torch.int16)
    out["f16_all_up"] = every.view(torch.float16).to(torch.float32).numpy()
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "tensor", "fixtures", "half_torch.safetensors")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    safetensors_io.save(path, out, {"torch": torch.__version__})
    print("wrote", os.path.normpath(path), len(bits), "patterns")


if __name__ == "__main__":
    main()
