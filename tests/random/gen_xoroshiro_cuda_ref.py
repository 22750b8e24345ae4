#!/usr/bin/env python3
"""Writes tests/random/data/xoroshiro_numba_cuda.txt: the first draws of numba.cuda.random's
xoroshiro128p functions run in CUDA kernels, the reference for loom's cuda targets.

On a GPU the normals go through libdevice's logf/cosf, not the host's libm, so their bits differ
from gen_xoroshiro_ref.py's CPU values (by about an ulp of float32 inside the float64 normal).
Needs a GPU with numba-cuda:  python3 tests/random/gen_xoroshiro_cuda_ref.py
The tests read the stored file; they do not need Numba or a GPU to build.
"""
import os
import sys

import numpy as np

for old, new in (("row_stack", "vstack"), ("in1d", "isin"), ("trapz", "trapezoid")):
    if not hasattr(np, old) and hasattr(np, new):  # names NumPy 2.x removed, used by numba-cuda
        setattr(np, old, getattr(np, new))
import numba  # noqa: E402
from numba import cuda  # noqa: E402
import numba.cuda.random as nr  # noqa: E402

SEEDS = [0, 1, 12345, 2**64 - 1]
SUBSEQUENCES = [0, 1, 5]
N_STATES = 4
DRAWS = 8


def kernel_of(fn):
    @cuda.jit
    def draw(states, out):
        i = cuda.grid(1)
        if i < states.shape[0]:
            for j in range(out.shape[1]):
                out[i, j] = fn(states, i)
    return draw


FUNCS = [
    ("uniform_float32", nr.xoroshiro128p_uniform_float32, np.float32, "<u4"),
    ("uniform_float64", nr.xoroshiro128p_uniform_float64, np.float64, "<u8"),
    ("normal_float32", nr.xoroshiro128p_normal_float32, np.float32, "<u4"),
    ("normal_float64", nr.xoroshiro128p_normal_float64, np.float64, "<u8"),
]


def main():
    out_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                            "xoroshiro_numba_cuda.txt")
    lines = [
        "# numba.cuda.random xoroshiro128p draws in CUDA kernels, written by"
        " gen_xoroshiro_cuda_ref.py",
        "# numba %s, numba-cuda %s, numpy %s, %s" % (
            numba.__version__, getattr(cuda, "__version__", "?"), np.__version__,
            cuda.get_current_device().name.decode() if isinstance(
                cuda.get_current_device().name, bytes) else cuda.get_current_device().name),
        "# draw FUNC SEED SUBSEQ INDEX BITS...  (%d draws from state INDEX of %d fresh states,"
        " IEEE bits in hex)" % (DRAWS, N_STATES),
    ]
    for seed in SEEDS:
        for sub in SUBSEQUENCES:
            for name, fn, dtype, fmt in FUNCS:
                states = nr.create_xoroshiro128p_states(N_STATES, seed=np.uint64(seed),
                                                        subsequence_start=sub)
                out = cuda.device_array((N_STATES, DRAWS), dtype=dtype)
                kernel_of(fn)[1, N_STATES](states, out)
                host = out.copy_to_host()
                width = 8 if fmt == "<u4" else 16
                for i in (0, N_STATES - 1):
                    vals = [format(int(v), "0%dx" % width) for v in host[i].view(fmt)]
                    lines.append("draw %s %d %d %d %s" % (name, seed, sub, i, " ".join(vals)))
    with open(out_path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", out_path, len(lines), "lines", file=sys.stderr)


if __name__ == "__main__":
    main()
