#!/usr/bin/env bash
# The speed peer for `make bench-peer`: PyTorch 2 from PyPI (with MKL and oneDNN), numpy and
# the Linformer package, in a virtual environment of attic's own, build/peer-venv/. The system Python and its
# packages are never touched. Installs only what is missing; prints the venv's python.
#   scripts/install-peer.sh            PEER_VENV=/elsewhere scripts/install-peer.sh
set -uo pipefail
cd "$(dirname "$0")/.."
venv=${PEER_VENV:-build/peer-venv}
py=$venv/bin/python

if ! command -v python3 >/dev/null 2>&1; then
  scripts/install-deps.sh python3 python3-venv >&2 || exit 1
fi
if [ ! -x "$py" ]; then
  echo "attic: creating the PyTorch peer's virtual environment in $venv" >&2
  if ! python3 -m venv "$venv" >/tmp/attic-venv.log 2>&1; then
    # Debian's python3 keeps venv (ensurepip) in a package of its own.
    scripts/install-deps.sh python3-venv >&2 &&
      python3 -m venv "$venv" >/tmp/attic-venv.log 2>&1 ||
      { echo "attic: could not create $venv (log: /tmp/attic-venv.log)" >&2; exit 1; }
  fi
fi
if ! "$py" -c 'import torch, numpy' >/dev/null 2>&1; then
  echo "attic: installing torch and numpy from PyPI into $venv (a few GB; once)" >&2
  if ! "$py" -m pip install -q torch numpy >/tmp/attic-pip.log 2>&1; then
    echo "attic: pip could not install torch and numpy into $venv (log: /tmp/attic-pip.log)" >&2
    exit 1
  fi
fi
# The original Linformer package, the peer of bench/peer/bench_attentions.py and the maker of
# tests/models/fixtures/linformer_tiny.safetensors, at the version that fixture records. Its
# __init__ imports matplotlib (for its visualizer); --no-deps keeps pip from touching torch.
if ! "$py" -c 'import linformer_pytorch' >/dev/null 2>&1; then
  echo "attic: installing linformer-pytorch 0.19.3 and matplotlib into $venv" >&2
  if ! "$py" -m pip install -q matplotlib >/tmp/attic-pip.log 2>&1 ||
     ! "$py" -m pip install -q --no-deps linformer-pytorch==0.19.3 >>/tmp/attic-pip.log 2>&1; then
    echo "attic: pip could not install linformer-pytorch into $venv (log: /tmp/attic-pip.log)" >&2
    exit 1
  fi
fi
# The GPT-2 fixtures' writers: Hugging Face transformers (GPT2LMHeadModel, save_pretrained) and
# OpenAI's tiktoken (the BPE that attic's tokenizer must equal). --no-deps for transformers would
# miss tokenizers and huggingface_hub, so it installs with its own dependencies, none of them torch.
# unicodedata2 16.0.0 is the Unicode version of tiktoken's regex engine, which
# scripts/make_unicode_tables.py writes attic's letter and number tables from.
if ! "$py" -c 'import transformers, tiktoken, safetensors, unicodedata2' >/dev/null 2>&1; then
  echo "attic: installing transformers, tiktoken, safetensors and unicodedata2 into $venv" >&2
  if ! "$py" -m pip install -q transformers tiktoken safetensors unicodedata2==16.0.0 >/tmp/attic-pip.log 2>&1; then
    echo "attic: pip could not install transformers and tiktoken into $venv (log: /tmp/attic-pip.log)" >&2
    exit 1
  fi
fi
echo "$py"
