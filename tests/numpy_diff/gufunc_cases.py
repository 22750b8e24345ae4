"""Draws gufunc calls with axes=, axis= and keepdims= (and matmul's flexible dims) and records
NumPy's answer to each: the result's shape and values, or the class of the error NumPy raises.
test_gufunc_options.cpp replays them through loom. Ops: NumPy's test gufuncs, which have loom's
layouts: inner1d (i),(i)->() is loom's dot, matrix_multiply (m,n),(n,p)->(m,p) its matmul, and
matmul (m?,n),(n,p?)->(m?,p?) the test's app_matmul.

usage: gufunc_cases.py SEED COUNT OUT.jsonl   (exit 3: NumPy missing)
"""
import json
import sys

try:
    import numpy as np
    from numpy._core import _umath_tests as umt
except ImportError:
    sys.exit(3)

OPS = {
    "dot": (umt.inner1d, [["n"], ["n"]], [[]]),
    "matmul": (umt.matrix_multiply, [["m", "n"], ["n", "p"]], [["m", "p"]]),
    "app_matmul": (umt.matmul, [["m", "n"], ["n", "p"]], [["m", "p"]]),
}


def place(rng, loop, core):
    """An operand of loop dims `loop` with `core` sizes at random axes; returns shape, axes."""
    nd = len(loop) + len(core)
    pos = list(rng.permutation(nd)[: len(core)])
    shape, it = [0] * nd, iter(loop)
    for k in range(nd):
        shape[k] = core[pos.index(k)] if k in pos else next(it)
    # NumPy accepts each axis as k or k - nd.
    return shape, [int(p - nd) if rng.random() < 0.3 else int(p) for p in pos]


def draw(rng, case_id):
    name = str(rng.choice(list(OPS)))
    f, in_dims, out_dims = OPS[name]
    sizes = {d: int(rng.integers(1, 4)) for d in "mnp"}
    loop = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    shapes, axes = [], []
    for dims in in_dims:
        core = [sizes[d] for d in dims]
        if name == "app_matmul" and rng.random() < 0.3:  # a vector: drops m or p
            core = [sizes["n"]]
        lp = [x if rng.random() < 0.8 else 1 for x in loop[len(loop) - int(rng.integers(0, len(loop) + 1)):]]
        s, a = place(rng, lp, core)
        shapes.append(s)
        axes.append(a)
    kw = {}
    mode = rng.integers(0, 6)
    if mode == 1:
        kw["axes"] = axes
    elif mode == 2:  # with the outputs' entries
        out_nd = len(loop) + len(out_dims[0])
        if name == "app_matmul":
            out_nd = len(loop) + sum(len(s) >= 2 for s in shapes)  # roughly; NumPy decides
        kw["axes"] = axes + [[int(x) for x in rng.permutation(max(out_nd, len(out_dims[0])))[: len(out_dims[0])]]]
    elif mode == 3:
        kw["axis"] = int(rng.integers(-3, 3))
    elif mode == 4:
        kw["keepdims"] = bool(rng.random() < 0.7)
        if rng.random() < 0.5:
            kw["axis"] = int(rng.integers(-2, 2))
    elif mode == 5:
        kw["axes"] = axes
        kw["keepdims"] = bool(rng.random() < 0.7)
    if "axes" in kw and rng.random() < 0.2:  # a broken entry
        e = kw["axes"][int(rng.integers(0, len(kw["axes"])))]
        r = rng.integers(0, 3)
        if r == 0:
            e.append(int(rng.integers(-4, 4)))
        elif r == 1 and e:
            e[0] = int(rng.integers(-5, 5))
        elif e:
            e.pop()
    values = [(np.arange(int(np.prod(s))) % 7 - 3).astype(np.float64).reshape(s) for s in shapes]
    call = {"id": case_id, "op": name, "shapes": shapes, "kw": kw}
    try:
        np_kw = dict(kw)
        if "axes" in np_kw:
            np_kw["axes"] = [tuple(e) for e in np_kw["axes"]]
        r = f(*values, **np_kw)
        call["shape"] = list(r.shape)
        call["values"] = [float(v) for v in np.asarray(r).ravel()]
    except Exception as e:  # noqa: BLE001 - the class is the answer
        call["error"] = type(e).__name__
        call["message"] = str(e)
    return call


def main():
    seed, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    rng = np.random.default_rng(seed)
    with open(path, "w") as out:
        out.write(json.dumps({"numpy": np.__version__, "seed": seed, "count": count}) + "\n")
        for i in range(count):
            out.write(json.dumps(draw(rng, i)) + "\n")


if __name__ == "__main__":
    main()
