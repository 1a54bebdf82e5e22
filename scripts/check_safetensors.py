#!/usr/bin/env python3
"""Opens a safetensors file with Hugging Face's own reader and prints what it holds.

An optional cross-check that attic's checkpoints (nn/safetensors.cpp) are readable outside
attic; the build and the tests never run it. Needs `pip install safetensors numpy`.

    python3 scripts/check_safetensors.py ckpt.safetensors [--values]

Prints the metadata, then one line per tensor: name, dtype, shape (and with --values, the
values). Exits 1 if the reference reader rejects the file.
"""
import argparse
import sys

try:
    import numpy as np
    from safetensors import safe_open
    from safetensors.numpy import load_file
except ImportError as e:
    sys.exit(f"check_safetensors: {e.name} is missing; run: pip install safetensors numpy")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", help="the .safetensors file")
    parser.add_argument("--values", action="store_true", help="print every tensor's values too")
    args = parser.parse_args()

    try:
        with safe_open(args.path, framework="numpy") as f:
            metadata = f.metadata() or {}
        tensors = load_file(args.path)
    except Exception as e:  # the reader's own error types differ between versions
        print(f"check_safetensors: {args.path}: rejected by safetensors: {e}", file=sys.stderr)
        return 1

    print(f"metadata: {len(metadata)} entries")
    for key in sorted(metadata):
        print(f"  {key!r}: {metadata[key]!r}")
    print(f"tensors: {len(tensors)}")
    for name in sorted(tensors):
        t = tensors[name]
        print(f"  {name}: {t.dtype} {list(t.shape)}")
        if args.values:
            with np.printoptions(precision=17, threshold=sys.maxsize):
                print("    " + np.array2string(t, separator=", ").replace("\n", "\n    "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
