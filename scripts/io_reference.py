"""Writes the reference files of tests/io (tests/data/io/): .npy files from numpy.save and a
.safetensors file from safetensors.numpy.save_file, with manifest.json giving, per file, the
dtype, shape, order and the array's C-order bytes (hex), which the Rust tests compare with.

Run in a virtual environment outside the repository:
    python3 -m venv /work/venv-io && /work/venv-io/bin/pip install numpy safetensors
    /work/venv-io/bin/python scripts/io_reference.py tests/data/io
"""
import json
import os
import sys

import numpy as np
from safetensors.numpy import save_file

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(14)

SHAPES = {0: (), 1: (5,), 2: (2, 3), 3: (2, 3, 4)}
DTYPES = ["b1", "u1", "i1", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]


def values(code, shape):
    n = int(np.prod(shape)) if shape else 1
    if code == "b1":
        v = rng.integers(0, 2, n).astype(bool)
    elif code[0] in "ui":
        info = np.iinfo(np.dtype(code))
        v = rng.integers(info.min, info.max, n, endpoint=True, dtype=np.dtype(code))
    elif code[0] == "f":
        v = (rng.standard_normal(n) * 100).astype(np.dtype(code))
        if n > 2:
            v[1] = -0.0
            v[2] = np.inf
    else:
        re = rng.standard_normal(n) * 10
        im = rng.standard_normal(n) * 10
        v = (re + 1j * im).astype(np.dtype(code))
    return v.reshape(shape)


manifest = {"npy": [], "safetensors": []}
for code in DTYPES:
    for rank, shape in SHAPES.items():
        a = values(code, shape)
        orders = ["C", "F"] if rank >= 2 else ["C"]
        for order in orders:
            name = f"{code}_r{rank}_{order}.npy"
            arr = a.copy(order=order)  # (np.ascontiguousarray would make a 0-d array 1-d)
            np.save(os.path.join(out, name), arr)
            manifest["npy"].append(
                {"file": name, "descr": arr.dtype.str, "shape": list(shape), "order": order,
                 "c_bytes": a.tobytes(order="C").hex()})

# A big-endian file: read_npy copies it, swapping bytes.
a = values("f4", (2, 3))
np.save(os.path.join(out, "be_f4_r2_C.npy"), a.astype(">f4"))
manifest["npy"].append({"file": "be_f4_r2_C.npy", "descr": ">f4", "shape": [2, 3], "order": "C",
                        "c_bytes": a.astype("<f4").tobytes(order="C").hex()})

# safetensors files: every dtype numpy and safetensors share but f16 in one, f16 in another
# (it needs StrideWeave's `half` feature).
for file, specs in [("mixed.safetensors",
                     [("b1", (3,)), ("u1", (2, 2)), ("i1", (5,)), ("i4", (2, 3)), ("i8", (4,)),
                      ("f4", (2, 3, 4)), ("f8", ()), ("c8", (2, 2)), ("f4", (7,))]),
                    ("f16.safetensors", [("f2", (3, 2)), ("f2", (4,))])]:
    tensors = {}
    for i, (code, shape) in enumerate(specs):
        name = f"t{i}_{code}"
        tensors[name] = values(code, shape)
        manifest["safetensors"].append(
            {"file": file, "name": name, "descr": tensors[name].dtype.str, "shape": list(shape),
             "c_bytes": tensors[name].tobytes(order="C").hex()})
    save_file(tensors, os.path.join(out, file))

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
