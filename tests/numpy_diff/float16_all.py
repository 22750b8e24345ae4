#!/usr/bin/env python3
"""NumPy's float16 results for every one of the 65536 float16 inputs, for test_float16_all.cpp.

Usage: float16_all.py OUT_FILE

Writes a JSON header line, then the arrays it lists, raw, little-endian, in its order: "x" the
inputs (every bit pattern, then every one again for each special value), "y" the second operands
of the binary ops (the inputs in another order, x * 40503 mod 65536 with an odd multiplier, then
each special value against every input), and each op's outputs: uint16 bits for float16, int32
for frexp's exponent. The unary ops take the first 65536 inputs. Exit status 3 when NumPy is
missing.
"""
import json
import sys
import warnings

try:
    import numpy as np
except ImportError:
    sys.stderr.write("float16_all.py: NumPy is not installed for " + sys.executable +
                     "; run scripts/setup-deps\n")
    sys.exit(3)

# +0, -0, the smallest subnormal, 1, -1, the largest finite, +inf, -inf, NaN, the smallest normal
SPECIAL = [0x0000, 0x8000, 0x0001, 0x3c00, 0xbc00, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x0400]


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    bits = np.arange(65536, dtype=np.uint32)
    xb = np.concatenate([bits] + [bits] * len(SPECIAL)).astype(np.uint16)
    yb = np.concatenate([(bits * 40503) % 65536] +
                        [np.full(65536, s, np.uint32) for s in SPECIAL]).astype(np.uint16)
    x1 = bits.astype(np.uint16).view(np.float16)
    x, y = xb.view(np.float16), yb.view(np.float16)
    arrays = [("x", xb), ("y", yb)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            arrays.append(("spacing", np.spacing(x1)))
            frac, whole = np.modf(x1)
            arrays += [("modf.0", frac), ("modf.1", whole)]
            m, e = np.frexp(x1)
            arrays += [("frexp.0", m), ("frexp.1", e.astype(np.int32))]
            nxt = np.nextafter(x, y)
            # NumPy 2.5 returns y where x == y (nextafter(-0, +0) is +0), as C and loom do; NumPy
            # up to 2.4 returned x there: compare with 2.5's rule whatever NumPy runs this.
            if tuple(int(v) for v in np.__version__.split(".")[:2]) < (2, 5):
                nxt = np.where(x == y, y, nxt)
            arrays.append(("nextafter", nxt))
            q, r = np.divmod(x, y)
            arrays += [("divmod.0", q), ("divmod.1", r)]
            arrays.append(("floor_divide", np.floor_divide(x, y)))
            arrays.append(("remainder", np.remainder(x, y)))
            arrays.append(("fmod", np.fmod(x, y)))
    raw = [(n, np.ascontiguousarray(a).view(np.uint16) if a.dtype == np.float16 else a)
           for n, a in arrays]
    head = {"numpy": np.__version__,
            "arrays": [{"name": n, "dtype": a.dtype.str, "count": int(a.size)} for n, a in raw]}
    with open(sys.argv[1], "wb") as f:
        f.write((json.dumps(head) + "\n").encode())
        for _, a in raw:
            f.write(a.astype(a.dtype.newbyteorder("<")).tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main())
