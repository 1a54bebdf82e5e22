"""Reading and writing safetensors files with numpy alone (8-byte header length, JSON
header, raw little-endian data), so the peer scripts need no extra package."""
import json
import struct

import numpy as np

DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64}
NAMES = {np.dtype(v): k for k, v in DTYPES.items()}


def load(path):
    """Returns ({name: np.ndarray}, metadata dict)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    meta = header.pop("__metadata__", {})
    data = blob[8 + n:]
    out = {}
    for name, e in header.items():
        b, end = e["data_offsets"]
        out[name] = np.frombuffer(data[b:end], dtype=DTYPES[e["dtype"]]).reshape(e["shape"]).copy()
    return out, meta


def save(path, tensors, metadata=None):
    """tensors: {name: np.ndarray}, or {name: ("BF16" or "F16", np.uint16 array of the bits)}
    for the 16-bit floats numpy cannot name."""
    header, chunks, offset = {}, [], 0
    if metadata:
        header["__metadata__"] = metadata
    for name in sorted(tensors):
        v = tensors[name]
        dtype_name = None
        if isinstance(v, tuple):
            dtype_name, v = v
            assert dtype_name in ("BF16", "F16") and v.dtype == np.uint16, name
        a = np.ascontiguousarray(v)
        raw = a.astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": dtype_name or NAMES[a.dtype], "shape": list(a.shape),
                        "data_offsets": [offset, offset + len(raw)]}
        chunks.append(raw)
        offset += len(raw)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + b"".join(chunks))
