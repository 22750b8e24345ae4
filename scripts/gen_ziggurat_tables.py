#!/usr/bin/env python3
"""Writes core/include/loom/random_ziggurat_tables.hpp: the 256-layer ziggurat of the standard
normal (Marsaglia and Tsang, "The Ziggurat Method for Generating Random Variables", 2000) that
loom::random's normals use (docs/random.md). Computed here in 60-digit arithmetic (mpmath), then
rounded once to the table types, so the tables are the same on every machine that runs this.

Layer i spans x in [0, X[i]); X[0] = v / f(r) is the base layer's width as if it were a rectangle
(the base is [0, r] x [0, f(r)] plus the tail past r, of area v), X[1] = r, and
X[i+1] = f^-1(f(X[i]) + v / X[i]); r is the root that makes the top layer end at f = 1.
"""
import os
import sys

import mpmath as mp

mp.mp.dps = 60
N = 256


def f(x):
    return mp.exp(-x * x / 2)


def finv(y):
    return mp.sqrt(-2 * mp.log(y))


def layers(r):
    v = r * f(r) + mp.sqrt(mp.pi / 2) * mp.erfc(r / mp.sqrt(2))
    xs = [v / f(r), r]
    for _ in range(2, N):
        y = f(xs[-1]) + v / xs[-1]
        if y >= 1:
            return None, y
        xs.append(finv(y))
    return xs, f(xs[-1]) + v / xs[-1]  # the top layer's upper edge: 1 at the root


def closing(r):
    xs, top = layers(r)
    return (top - 1) if xs is not None else top  # > 0 when r is too small


def main():
    lo, hi = mp.mpf("3.6"), mp.mpf("3.7")
    for _ in range(200):  # bisection: closing(r) falls as r grows
        mid = (lo + hi) / 2
        if closing(mid) > 0:
            lo = mid
        else:
            hi = mid
    r = (lo + hi) / 2
    xs, top = layers(r)
    assert abs(top - 1) < mp.mpf("1e-40"), top
    xs.append(mp.mpf(0))  # X[256] = 0: the top layer always takes the wedge test
    fx = [f(x) for x in xs[1:]]  # f(X[1..256]); f(X[256]) = 1

    import numpy as np

    def hexd(x):  # exact: hex literals round nowhere
        return float(x).hex()

    def hexf(x):
        return float(np.float32(float(x))).hex() + "f"

    k32 = [int(mp.floor(2**23 * xs[i + 1] / xs[i])) for i in range(N)]
    k64 = [int(mp.floor(2**52 * xs[i + 1] / xs[i])) for i in range(N)]
    out = [
        "// Written by scripts/gen_ziggurat_tables.py: the 256-layer ziggurat of f(x) = exp(-x^2/2)",
        "// (docs/random.md, \"How the bits are laid out\"). Do not edit; rerun the script.",
        "#pragma once",
        "#include <cstdint>",
        "",
        "// clang-format off",
        "",
        "namespace loom::random::detail {",
        "",
        f"inline constexpr double kZigR = {hexd(r)};  // {mp.nstr(r, 17)}, where the tail starts",
        f"inline constexpr double kZigInvR = {hexd(1 / r)};",
        "",
        "// Layer i spans [0, X[i]) (X[0]: the base layer's width as a rectangle, X[1] = r).",
        "struct ZigTables {",
        "  std::uint32_t k32[256];  // j < k32[i] (23-bit j): x = j w32[i] is under X[i + 1]",
        "  float w32[256];          // X[i] / 2^23",
        "  std::uint64_t k64[256];  // the same for 52-bit j",
        "  double w64[256];         // X[i] / 2^52",
        "  double f[257];           // f(X[i]) for i >= 1 (f(X[256]) = f(0) = 1); f[0] unused",
        "};",
        "",
        "#define LOOM_ZIG_TABLES_INIT                                                           \\",
        "  {{" + ", ".join(f"{k}u" for k in k32) + "},                                        \\",
        "   {" + ", ".join(hexf(xs[i] / 2**23) for i in range(N)) + "},                       \\",
        "   {" + ", ".join(f"{k}ull" for k in k64) + "},                                      \\",
        "   {" + ", ".join(hexd(xs[i] / 2**52) for i in range(N)) + "},                       \\",
        "   {0.0, " + ", ".join(hexd(v) for v in fx) + "}}",
        "",
        "// clang-format on",
        "",
        "}  // namespace loom::random::detail",
    ]
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "core", "include", "loom", "random_ziggurat_tables.hpp")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")
    print(f"r = {mp.nstr(r, 20)}; wrote {path}")


if __name__ == "__main__":
    main()
