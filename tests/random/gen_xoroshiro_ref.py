#!/usr/bin/env python3
"""Writes tests/random/data/xoroshiro_numba.txt: states and first draws of numba.cuda.random's
xoroshiro128p, the reference loom::random's port is tested against (test_xoroshiro.cpp).

numba.cuda.random's functions are plain CPU @jit functions, so no GPU is needed:
    pip install numba numba-cuda && python3 tests/random/gen_xoroshiro_ref.py
The tests read the stored file; they do not need Numba.
"""
import os
import sys

import numpy as np

if not hasattr(np, "row_stack"):  # older Numba releases still refer to it under NumPy 2
    np.row_stack = np.vstack
import numba  # noqa: E402
import numba.cuda.random as nr  # noqa: E402

SEEDS = [0, 1, 12345, 2**64 - 1]
SUBSEQUENCES = [0, 1, 5]
N_STATES = 4
DRAWS = 8
FUNCS = [
    ("uniform_float32", nr.xoroshiro128p_uniform_float32, "<u4"),
    ("uniform_float64", nr.xoroshiro128p_uniform_float64, "<u8"),
    ("normal_float32", nr.xoroshiro128p_normal_float32, "<u4"),
    ("normal_float64", nr.xoroshiro128p_normal_float64, "<u8"),
]


def bits(value, fmt):
    width = 8 if fmt == "<u4" else 16
    as_float = np.float32 if fmt == "<u4" else np.float64
    return format(int(np.array(as_float(value)).view(fmt)), "0%dx" % width)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "xoroshiro_numba.txt")
    lines = [
        "# numba.cuda.random xoroshiro128p reference, written by gen_xoroshiro_ref.py",
        "# numba %s, numba-cuda's random.py, numpy %s" % (numba.__version__, np.__version__),
        "# state SEED SUBSEQ INDEX S0 S1          (hex, init_xoroshiro128p_states_cpu, %d states)"
        % N_STATES,
        "# draw FUNC SEED SUBSEQ INDEX BITS...  (%d draws from a fresh copy of state INDEX,"
        " IEEE bits in hex)" % DRAWS,
    ]
    for seed in SEEDS:
        for sub in SUBSEQUENCES:
            states = np.empty(N_STATES, dtype=nr.xoroshiro128p_dtype)
            nr.init_xoroshiro128p_states_cpu(states, np.uint64(seed), np.uint64(sub))
            for i in range(N_STATES):
                lines.append("state %d %d %d %016x %016x"
                             % (seed, sub, i, int(states[i]["s0"]), int(states[i]["s1"])))
            for name, fn, fmt in FUNCS:
                for i in (0, N_STATES - 1):
                    s = states.copy()
                    vals = [bits(fn(s, i), fmt) for _ in range(DRAWS)]
                    lines.append("draw %s %d %d %d %s" % (name, seed, sub, i, " ".join(vals)))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote", out, len(lines), "lines", file=sys.stderr)


if __name__ == "__main__":
    main()
