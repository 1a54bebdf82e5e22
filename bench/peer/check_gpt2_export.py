"""Checks that `attic export` wrote a folder Hugging Face's transformers loads as a GPT-2:
GPT2LMHeadModel.from_pretrained(HF_DIR) finds every tensor it needs and no other, each equals the
attic checkpoint's (Conv1D weights transposed, lm_head tied to wte), and the model runs.

    build/attic export --out_dir=OUT --hf_dir=HF_DIR
    build/peer-venv/bin/python bench/peer/check_gpt2_export.py OUT HF_DIR
"""
import sys

import torch
from safetensors.torch import load_file
from transformers import GPT2LMHeadModel

CONV1D = ("attn.c_attn.weight", "attn.c_proj.weight", "mlp.c_fc.weight", "mlp.c_proj.weight")


def main(out_dir, hf_dir):
    model, info = GPT2LMHeadModel.from_pretrained(hf_dir, output_loading_info=True)
    assert not info["missing_keys"] and not info["unexpected_keys"], info
    attic = load_file(out_dir + "/ckpt.safetensors")
    hf = model.state_dict()
    checked = 0
    for name, t in attic.items():
        mine = t.t() if name.endswith(CONV1D) else t
        assert torch.equal(hf[name], mine), name
        checked += 1
    assert model.lm_head.weight.data_ptr() == model.transformer.wte.weight.data_ptr()
    ids = torch.randint(0, model.config.vocab_size, (1, 16))
    with torch.no_grad():
        out = model.generate(ids, max_new_tokens=8, do_sample=False, pad_token_id=model.config.eos_token_id)
    print(f"ok: transformers loaded {hf_dir}: {checked} tensors equal to {out_dir}/ckpt.safetensors, "
          f"no missing or unexpected keys; generated {out.shape[1] - 16} tokens")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
