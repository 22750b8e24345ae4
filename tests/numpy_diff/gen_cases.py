#!/usr/bin/env python3
"""Draws random ufunc calls and writes NumPy's answers for loom's differential test.

Usage: gen_cases.py SEED COUNT OUT_FILE

Each line of OUT_FILE is one JSON case: the op, the method, the operands (a base array and the
views taken of it: slices with steps, transposes, broadcasts), the keyword arguments, and what
NumPy did: the result (dtype, shape, values in C order), the contents of out= and of at's array
after the call, or the class of the exception NumPy raised. The C++ replayer
(test_numpy_diff.cpp) builds the same arrays with loom and compares. Floats are written exactly
(Python's repr) and NaN/inf as strings; integers as JSON integers (uint64 too).

Only NumPy and the standard library: exit status 3 with a message when NumPy is missing.
"""
import json
import math
import random
import sys
import warnings

try:
    import numpy as np
except ImportError:  # the C++ test turns this into a failure naming scripts/setup-deps
    sys.stderr.write("gen_cases.py: NumPy is not installed for " + sys.executable +
                     "; run scripts/setup-deps (it installs NumPy from PyPI)\n")
    sys.exit(3)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INEXACT = ("float", "complex")  # dtype name prefixes of the float and complex dtypes
UFUNCS = ["add", "subtract", "multiply", "maximum", "minimum", "divide",
          # the catalogue's exact binary ops (docs/catalogue.md)
          "fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor", "floor_divide", "remainder",
          "fmod", "gcd", "logical_and", "logical_or", "logical_xor"]
# Unary ufuncs: called only (no methods).
UNARY_UFUNCS = ["logical_not"]
# rt.reduce(name) <-> NumPy's function of the same meaning.
REDUCE_FNS = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min, "any": np.any,
              "all": np.all}
REDUCE_FN_UFUNC = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum",
                   "any": "logical_or", "all": "logical_and"}
# np.any and np.all take neither initial= nor dtype=.
NO_INITIAL_FNS = ("any", "all")
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


class Draw:
    """One case's random choices; everything comes from one random.Random(seed)."""

    def __init__(self, rng):
        self.r = rng

    def p(self, prob):
        return self.r.random() < prob

    def choice(self, seq, weights=None):
        if weights is None:
            return self.r.choice(seq)
        return self.r.choices(seq, weights=weights, k=1)[0]

    def dim(self, long_ok=False):
        if long_ok and self.p(0.08):
            return self.r.randint(20, 300)  # long enough for the blocked/pairwise paths
        return self.choice([0, 1, 2, 3, 4, 5, 6, 7], [3, 14, 14, 14, 12, 10, 8, 6])

    def shape(self, nd, long_ok=False):
        s = [self.dim(long_ok) for _ in range(nd)]
        while math.prod(s) > 1200:  # keep cases small: 10^4 of them run in seconds
            s[s.index(max(s))] //= 2
        return s

    def ndim(self, lo=0, hi=3):
        return self.r.randint(lo, hi)

    def dtype(self):
        return self.choice(DTYPES)


def value_fill(d, dt, n, op, big_ok):
    """n values of dtype dt, small enough that results are defined (no integer overflow except
    the wrapping NumPy defines for narrow dtypes, products that stay in range)."""
    r = d.r
    if dt == "bool":
        return [r.random() < 0.5 for _ in range(n)]
    if dt.startswith("int") or dt.startswith("uint"):
        info = np.iinfo(dt)
        if big_ok and d.p(0.3):  # max/min: the whole range (uint64 above 2^63, int64 extremes)
            return [r.choice([int(info.min), int(info.max), int(info.max) - r.randint(0, 3),
                              int(info.min) + r.randint(0, 3), r.randint(-3, 3) % (int(info.max) + 1)
                              if info.min == 0 else r.randint(-3, 3)]) for _ in range(n)]
        if op == "multiply":
            lo, hi = (-2, 2) if info.min < 0 else (0, 2)
        elif info.min < 0:
            lo, hi = -9, 9
        else:
            lo, hi = 0, 9
        vals = [r.randint(lo, hi) for _ in range(n)]
        if op in ("add", "subtract") and dt in ("int64", "uint64") and n and d.p(0.15):
            # exactness above 2^53 (issue 11: sums of uint64 went through float64)
            k = r.randrange(n)
            vals[k] = (2 ** 53 + r.randint(1, 9)) if dt == "int64" else (2 ** 63 + r.randint(1, 9))
        return vals
    if dt.startswith("complex"):
        # Each part as a float64 of the same draw; a product's factors r e^(i t) with r as a real
        # product's, so that products of 1200 terms stay finite.
        if op == "multiply":
            out = []
            for _ in range(n):
                rad, t = r.uniform(0.92, 1.08), r.uniform(-math.pi, math.pi)
                out.append(complex(rad * math.cos(t), rad * math.sin(t)))
            return out
        re = value_fill(d, "float64", n, op, big_ok)
        im = value_fill(d, "float64", n, op, big_ok)
        return [complex(a, b) for a, b in zip(re, im)]
    # floats
    half = dt == "float16"  # largest finite 65504: keep sums and products of 1200 terms finite
    if op == "multiply":  # |log2 x| <= 0.42 with mean ~0: products of 1200 terms stay in float32
        # float16: factors within 1 % of 1, so that partial products in any order (NumPy's and
        # loom's group differently) stay inside float16's range: 546 factors above 1 multiply
        # to at most 2^8
        vals = [r.choice([-1, 1]) * (r.uniform(0.99, 1.01) if half else r.uniform(0.75, 1.33))
                for _ in range(n)]
    elif d.p(0.3):
        vals = [float(r.randint(-8, 8)) / r.choice([1, 2, 4]) for _ in range(n)]
    else:
        vals = [r.uniform(-10, 10) * 10 ** r.randint(-3, 0 if half else 2) for _ in range(n)]
    if n and d.p(0.08):
        for _ in range(r.randint(1, 2)):
            vals[r.randrange(n)] = r.choice([math.nan, math.inf, -math.inf, -0.0, 0.0])
    return vals


def refit_factors(d, base, enc, loop):
    """Redraws a product's factors where NumPy's multiply loop is a float dtype that value_fill
    did not draw them for (dtype= or a float out= of a reduction forces it): the loop sees a
    complex input's real parts, and a float16 loop float32/float64 and integer factors. Partial
    products in one order and another must stay finite and normal, as value_fill's: the real
    parts get the loop's real factors (float16: within 1 % of 1; else 0.75 to 1.33), the
    imaginary parts stay; the others within 1 % of 1, integers -1, 0 or 1. (Seed 90210, case
    7156: prod of complex64 with dtype=float16 and initial=inf, real parts like cos t of 226
    factors: loom's pairwise partial underflowed to 0 and met inf, NaN; NumPy's, in order from
    inf, stayed inf. Under a float32 loop 150 such factors underflow alike.)"""
    if loop is None or np.dtype(loop).kind != "f" or not base.size:
        return
    half, kind = loop == "float16", base.dtype.kind
    if kind == "c" or (half and kind == "f" and base.dtype != np.float16):
        n = base.size
        vals = [d.r.choice([-1, 1]) * (d.r.uniform(0.99, 1.01) if half else d.r.uniform(0.75, 1.33))
                for _ in range(n)]
        if kind == "c":
            base.real[...] = np.array(vals).reshape(base.shape)
        else:
            base[...] = np.array(vals).reshape(base.shape)
    elif half and kind in "iu":
        base[...] = np.array([d.r.choice([-1, 0, 1, 1, 1] if kind == "i" else [0, 1, 1, 1])
                              for _ in range(base.size)]).reshape(base.shape)
    else:
        return
    enc["data"] = enc_values(base)


def wide(x):
    """x as float64, or complex128 for complex x (no imaginary part dropped)."""
    a = np.asarray(x)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def magnitude(x):
    """|x| as float64, exactly for every integer (no int8 -128 overflow) and complex (its modulus;
    a part that is not finite counts 0, so that the other part's bound stays finite: the
    non-finite part itself must match exactly)."""
    a = np.asarray(x)
    if a.dtype.kind == "c":
        z = a.astype(np.complex128)
        re = np.where(np.isfinite(z.real), z.real, 0.0)
        im = np.where(np.isfinite(z.imag), z.imag, 0.0)
        return np.abs(re + 1j * im)
    return np.abs(a.astype(np.float64))


def make_base(d, shape, dt, op, big_ok=False):
    n = math.prod(shape)
    return np.array(value_fill(d, dt, n, op, big_ok), dtype=dt).reshape(shape)


def apply_view(base, ops):
    v = base
    for o in ops:
        if o[0] == "slice":
            idx = [slice(None)] * v.ndim
            idx[o[1]] = slice(o[2], o[3], o[4])
            v = v[tuple(idx)]
        elif o[0] == "T":
            v = np.transpose(v, o[1])
        elif o[0] == "bcast":
            v = np.broadcast_to(v, o[1])
    return v


def operand(d, shape, dt, op, writable=False, big_ok=False):
    """An array of `shape`: a C-contiguous base, or a strided / reversed / transposed / broadcast
    view of a larger base. Returns (encoded operand, base, view)."""
    nd = len(shape)
    ops = []
    pre = list(shape)
    perm = None
    if nd >= 2 and d.p(0.25):
        perm = list(range(nd))
        d.r.shuffle(perm)
        # the view before the transpose has pre[perm[i]] = shape[i]
        pre = [0] * nd
        for i in range(nd):
            pre[perm[i]] = shape[i]
    bshape = list(pre)
    bcast_from = None
    if not writable and nd >= 1 and d.p(0.1):
        # a stride-0 view: broadcast a smaller base (some dims 1, or fewer dims)
        keep = d.r.randint(0, nd)
        small = [1 if d.p(0.5) else s for s in shape[nd - keep:]]
        bcast_from = small
        perm = None
        pre = list(small)
        bshape = list(small)
    slices = []
    if d.p(0.35):
        for k in range(len(pre)):
            step = d.choice([1, 1, 2, -1, -2, 3])
            n = pre[k]
            off = d.r.randint(0, 2)
            if step > 0:
                start, stop = off, off + n * step
                bshape[k] = stop + d.r.randint(0, 1)
            else:
                s = -step
                bshape[k] = n * s + off + 1
                start = bshape[k] - 1 - off
                stop = start - n * s  # >= 0 by construction: no Python "from the end" meaning
            slices.append(["slice", k, start, stop, step])
    base = make_base(d, bshape, dt, op, big_ok)
    ops.extend(slices)
    if perm is not None:
        ops.append(["T", perm])
    if bcast_from is not None:
        ops.append(["bcast", list(shape)])
    view = apply_view(base, ops)
    assert list(view.shape) == list(shape), (view.shape, shape, ops)
    return {"dtype": dt, "base": list(base.shape), "data": enc_values(base), "view": ops}, base, view


def enc_float(x):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0 and math.copysign(1.0, x) < 0:
        return "-0"
    return float(x)


def enc_values(a, valid=None):
    flat = np.asarray(a).ravel(order="C")
    vals = flat.tolist()
    if flat.dtype.kind == "f":
        vals = [enc_float(v) for v in vals]
    elif flat.dtype.kind == "c":
        vals = [[enc_float(v.real), enc_float(v.imag)] for v in vals]
    elif flat.dtype.kind == "b":
        vals = [bool(v) for v in vals]
    else:
        vals = [int(v) for v in vals]
    if valid is not None:
        mask = np.asarray(valid).ravel(order="C").tolist()
        vals = [v if m else None for v, m in zip(vals, mask)]
    return vals


def broadcasts_to(shape, target):
    """Whether an array of `shape` broadcasts to `target` unchanged."""
    try:
        return np.broadcast_shapes(tuple(shape), tuple(target)) == tuple(target)
    except ValueError:
        return False


def sample_positions(n, rng_seed):
    """Where a big result is compared: 3000 flat positions, the ends and a random spread."""
    if n <= SAMPLE_ABOVE:
        return None
    r = random.Random(rng_seed)
    pos = set(range(16)) | set(range(n - 16, n))
    for k in range(1, n // 65536 + 1):  # around the parallel backend's 64K block boundaries
        pos |= {p for p in range(k * 65536 - 2, k * 65536 + 2) if p < n}
    while len(pos) < 3000:
        pos.add(r.randrange(n))
    return sorted(pos)


SAMPLE_ABOVE = 20000


def enc_result(a, valid=None, sample=None):
    a = np.asarray(a)
    r = {"dtype": a.dtype.name, "shape": list(a.shape)}
    if sample is None:
        r["data"] = enc_values(a, valid)
    else:
        r["sample"] = sample
        r["data"] = enc_values(a.ravel()[sample], None if valid is None else
                               np.asarray(valid).ravel()[sample])
    return r


def broadcastable_shape(d, shape):
    """A shape that broadcasts to `shape`: a suffix of it with some dims set to 1."""
    keep = d.r.randint(0, len(shape))
    return [1 if d.p(0.3) else s for s in shape[len(shape) - keep:]]


def bad_shape(d, shape):
    s = list(shape) if shape else [2]
    k = d.r.randrange(len(s))
    s[k] = s[k] + d.r.randint(1, 3)
    return s


def scalar_input(d, other_dt):
    """A Python scalar (NumPy's weak scalar; loom's weak int / double)."""
    if other_dt.startswith(INEXACT) or d.p(0.3):
        return {"py": "float", "value": enc_float(float(d.r.randint(-6, 6)) / 2)}, None
    if d.p(0.15):
        # Near and past the integer dtypes' bounds (within C++ int, loom's weak int): NumPy 2
        # raises OverflowError where the loop's integer dtype cannot hold one, and compares one
        # with an integer array by value.
        return {"py": "int", "value": d.choice(PY_INT_EDGES)}, None
    lo = 0 if other_dt.startswith("uint") or other_dt == "bool" else -5
    return {"py": "int", "value": d.r.randint(lo, 5)}, None


PY_INT_EDGES = [-1, 127, 128, -128, -129, 255, 256, 300, -300, 32767, 32768, -32769, 65535,
                65536, 2**31 - 1, -2**31]


def py_value(enc):
    v = enc["value"]
    if enc["py"] == "int":
        return int(v)
    return -0.0 if v == "-0" else float(v)


def draw_mask(d, shape, allow_nonbool=True):
    ms = broadcastable_shape(d, shape)
    if allow_nonbool and d.p(0.12):
        dt = d.choice(["int8", "uint8", "int64", "float64"])
        enc, base, view = operand(d, ms, dt, "mask")
        return enc, view, False
    enc, base, view = operand(d, ms, "bool", "mask")
    return enc, view, True


class Case:
    def __init__(self, cid, d):
        self.cid = cid
        self.d = d
        self.c = {"id": cid}
        self.kw_enc = {}
        self.kw = {}
        self.out_base = None
        self.at_base = None
        self.mask_view = None
        self.inputs = []  # the input arrays and scalars, for cast_undefined
        self.indices = None  # at's and reduceat's indices, for cast_undefined
        self.scale_fn = None
        self.exact_fn = None


def out_operand(d, case, shape, likely_dt):
    dt = likely_dt if (likely_dt and d.p(0.5)) else d.dtype()
    if d.p(0.08):
        shape = bad_shape(d, shape)
    enc, base, view = operand(d, shape, dt, "out", writable=True)
    case.kw_enc["out"] = enc
    case.kw["out"] = view
    case.out_base = base


def dry_result(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                r = fn()
        return np.asarray(r)
    except Exception:
        return None


def draw_call(d, case, op, method):
    if op in UNARY_UFUNCS:
        return draw_unary_call(d, case, op)
    nd = d.ndim()
    if method == "outer":
        sa, sb = d.shape(d.ndim(0, 2)), d.shape(d.ndim(0, 2))
        rshape = sa + sb
        shapes = [sa, sb]
    else:
        rshape = d.shape(nd, long_ok=True)
        shapes = [broadcastable_shape(d, rshape), broadcastable_shape(d, rshape)]
        if d.p(0.5):
            shapes[d.r.randrange(2)] = list(rshape)
        if d.p(0.04):
            shapes[1] = bad_shape(d, rshape)
    dts = [d.dtype(), d.dtype()]
    if d.p(0.4):
        dts[1] = dts[0]
    args_enc, args = [], []
    for i in range(2):
        if d.p(0.1):  # outer takes a Python scalar as np.asarray does: a strong int64/float64
            enc, _ = scalar_input(d, dts[1 - i])
            args_enc.append(enc)
            args.append(py_value(enc))
        else:
            enc, base, view = operand(d, shapes[i], dts[i], op)
            args_enc.append(enc)
            args.append(view)
    case.c["args"] = args_enc
    case.inputs.extend(args)
    uf = getattr(np, op)
    call = uf.outer if method == "outer" else uf
    if op == "multiply" and any(np.asarray(a).dtype.kind == "c" for a in args):
        # A complex product's parts: NumPy's AVX2/AVX-512 loop fuses one part's product, loom's
        # rounds each, so a part may differ by a rounding of u |x||y| (compare.cpp): the bound
        # needs |x||y|, per pair of outer's operands too (seed 777, case 5330; no randomness
        # drawn here).
        def scale():
            mag = np.multiply.outer if method == "outer" else np.multiply
            s = mag(magnitude(args[0]), magnitude(args[1]))
            return s, np.ones(np.shape(s))
        case.scale_fn = scale
    if d.p(0.12):
        case.kw_enc["dtype"] = case.kw["dtype"] = d.dtype()
    if d.p(0.15):
        case.kw_enc["casting"] = case.kw["casting"] = d.choice(CASTINGS)
    dry = dry_result(lambda: call(*args, **case.kw))
    if d.p(0.2):
        out_operand(d, case, list(dry.shape) if dry is not None else rshape,
                    dry.dtype.name if dry is not None else None)
    if d.p(0.2):
        mshape = list(dry.shape) if dry is not None else rshape
        enc, view, _ = draw_mask(d, mshape)
        case.kw_enc["where"] = enc
        case.kw["where"] = view
        case.mask_view = view
    return lambda: call(*args, **case.kw)


def draw_unary_call(d, case, op):
    """A call of a one-input ufunc (logical_not): an operand, or a Python scalar, with the
    call's keywords as for binary calls."""
    shape = d.shape(d.ndim(), long_ok=True)
    dt = d.dtype()
    if d.p(0.1):
        enc, _ = scalar_input(d, dt)
        arg = py_value(enc)
    else:
        enc, base, arg = operand(d, shape, dt, op)
    case.c["args"] = [enc]
    case.inputs.append(arg)
    uf = getattr(np, op)
    if d.p(0.12):
        case.kw_enc["dtype"] = case.kw["dtype"] = d.dtype()
    if d.p(0.15):
        case.kw_enc["casting"] = case.kw["casting"] = d.choice(CASTINGS)
    dry = dry_result(lambda: uf(arg, **case.kw))
    if d.p(0.2):
        out_operand(d, case, list(dry.shape) if dry is not None else shape,
                    dry.dtype.name if dry is not None else None)
    if d.p(0.2):
        mshape = list(dry.shape) if dry is not None else shape
        enc_m, view, _ = draw_mask(d, mshape)
        case.kw_enc["where"] = enc_m
        case.kw["where"] = view
        case.mask_view = view
    return lambda: uf(arg, **case.kw)


def draw_axis(d, nd, case):
    k = d.choice(["absent", "int", "tuple", "none", "empty"], [30, 32, 16, 14, 8])
    if k == "absent":
        return
    if k == "int":
        ax = d.r.randint(-nd, nd - 1) if nd and not d.p(0.05) else d.choice([nd, -nd - 1, 0])
        case.kw_enc["axis"] = case.kw["axis"] = ax
    elif k == "tuple":
        m = d.r.randint(1, max(nd, 1))
        ax = [d.r.randint(-nd, nd - 1) if nd else 0 for _ in range(m)]
        case.kw_enc["axis"] = ax
        case.kw["axis"] = tuple(ax)
    elif k == "none":
        case.kw_enc["axis"] = None
        case.kw["axis"] = None
    else:
        case.kw_enc["axis"] = []
        case.kw["axis"] = ()


def draw_initial(d, case, dt):
    k = d.choice(["absent", "value", "none"], [60, 28, 12])
    if k == "absent":
        return
    if k == "none":
        case.kw_enc["initial"] = None
        case.kw["initial"] = None
        return
    if dt.startswith(INEXACT) or d.p(0.15):
        v = float(d.r.randint(-8, 8)) / d.choice([1, 2])
        if d.p(0.05):
            v = d.choice([1e30, -1e30, math.inf])
        case.kw_enc["initial"] = enc_float(v)
    else:
        v = d.r.randint(-5, 9)
        if d.p(0.06):
            v = d.choice([2 ** 63 + 5, 300, -200, 2 ** 40])
        case.kw_enc["initial"] = v
    case.kw["initial"] = v


def draw_reduce(d, case, op, fn_name):
    nd = d.choice([0, 1, 2, 3], [1, 4, 4, 4])
    shape = d.shape(nd, long_ok=True)
    dt = d.dtype()
    uf_name = REDUCE_FN_UFUNC.get(fn_name, op)
    big_ok = uf_name in ("maximum", "minimum")
    enc, base, x = operand(d, shape, dt, uf_name, big_ok=big_ok)
    case.c["args"] = [enc]
    case.inputs.append(x)
    draw_axis(d, nd, case)
    if d.p(0.3):
        case.kw_enc["keepdims"] = case.kw["keepdims"] = True
    if fn_name not in NO_INITIAL_FNS:
        draw_initial(d, case, dt)
    if d.p(0.15) and fn_name not in ("max", "min") + NO_INITIAL_FNS:
        case.kw_enc["dtype"] = case.kw["dtype"] = d.dtype()
    if fn_name:
        call = lambda **kw: REDUCE_FNS[fn_name](x, **kw)
    else:
        call = lambda **kw: getattr(np, op).reduce(x, **kw)
    if d.p(0.18):
        enc_m, mview, _ = draw_mask(d, shape)
        case.kw_enc["where"] = enc_m
        case.kw["where"] = mview
    dry = dry_result(lambda: call(**case.kw))
    if d.p(0.2):
        out_operand(d, case, list(dry.shape) if dry is not None else [2],
                    dry.dtype.name if dry is not None else None)
    if uf_name == "multiply":
        refit_factors(d, base, enc, numpy_loop(case, uf_name, "reduce"))
    default_axis = None if fn_name else 0
    if uf_name in ("subtract", "divide"):
        # float16 folds: NumPy accumulates in float, loom rounds every step (compare.hpp): the
        # bound's scale, sum|x| (subtract) or the exact quotient's magnitude (divide)
        def scale():
            kw = {k: v for k, v in case.kw.items() if k not in ("out", "dtype")}
            kw["axis"] = kw.get("axis", default_axis)
            if x.ndim == 0:
                kw["axis"] = ()
            if kw.get("initial") is not None:
                kw["initial"] = abs(float(kw["initial"]))
            if uf_name == "subtract":
                s = np.add.reduce(magnitude(x), **kw)
            else:
                s = np.abs(np.divide.reduce(wide(x), **kw))
            kw.pop("initial", None)
            return s, np.add.reduce(np.ones(np.shape(x)), **kw)
        case.scale_fn = scale
    if uf_name in ("add", "multiply"):
        # |x| reduced the same way: the scale of the rounding error bound (sum |x_i| for sums,
        # prod |x_i| for products), and the number of terms per output.
        def scale():
            kw = {k: v for k, v in case.kw.items() if k not in ("out", "dtype")}
            kw["axis"] = kw.get("axis", default_axis)
            if x.ndim == 0:
                kw["axis"] = ()
            ax = magnitude(x)
            if kw.get("initial") is not None:
                kw["initial"] = abs(float(kw["initial"]))
            red = np.multiply if uf_name == "multiply" else np.add
            s = red.reduce(ax, **kw)
            kw.pop("initial", None)
            cnt = np.add.reduce(np.ones_like(ax), **kw)
            return s, cnt
        case.scale_fn = scale
    if uf_name == "add" and "out" not in case.kw:
        case.exact_fn = lambda res_dt: exact_sums(x, case.kw, default_axis, res_dt)
    return lambda: call(**case.kw)


def exact_sums(x, kw, default_axis, res_dt):
    """The exact sum (math.fsum: correctly rounded) of each output's terms, taken in the loop's
    dtype as loom casts them; null where a term is not finite."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a complex x into a float dtype= drops its imaginary part
        xv = np.asarray(x).astype(res_dt).astype(np.float64)
    nd = xv.ndim
    ax = kw.get("axis", default_axis)
    if nd == 0:
        axes = ()
    elif ax is None:
        axes = tuple(range(nd))
    elif isinstance(ax, tuple):
        axes = tuple(a % nd for a in ax)
    else:
        axes = (ax % nd,)
    keep = [k for k in range(nd) if k not in axes]
    m = np.broadcast_to(np.asarray(kw["where"], dtype=bool), xv.shape) if "where" in kw else \
        np.ones(xv.shape, dtype=bool)
    nout = math.prod(xv.shape[k] for k in keep)
    nred = math.prod(xv.shape[k] for k in axes)
    order = keep + list(axes)
    xt = np.transpose(xv, order).reshape(nout, nred)
    mt = np.transpose(m, order).reshape(nout, nred)
    init = kw.get("initial")
    out = []
    for row, mrow in zip(xt, mt):
        terms = row[mrow].tolist() + ([float(np.asarray(init).astype(res_dt))] if init is not None else [])
        out.append(math.fsum(terms) if all(math.isfinite(t) for t in terms) else None)
    # docs/methods.md: a reduced axis outside a kept one (in memory) is added row by row, with an
    # error that grows with its length, as NumPy's: those lengths multiply into `rows`.
    st = np.asarray(x).strides
    rows = 1
    for k in axes:
        if any(abs(st[k]) > abs(st[j]) and xv.shape[j] > 1 for j in keep):
            rows *= xv.shape[k]
    return out, rows


def numpy_loop(case, op, method):
    """The output dtype of the loop NumPy runs (ufunc.resolve_dtypes), or None where it cannot
    say. The replayer's documented differences use it to tell NumPy's loop from loom's."""
    uf = getattr(np, op)
    kw = case.kw
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if method in ("call", "outer") and "dtype" in kw:
                return np.dtype(kw["dtype"]).name
            if method in ("call", "outer"):
                # The call's own result dtype: out= does not change a call's loop. (Not
                # resolve_dtypes: NumPy 2.4 crashed in it here with Python scalar types.)
                with np.errstate(all="ignore"):
                    f = uf.outer if method == "outer" else uf
                    return np.asarray(f(*case.inputs[:uf.nin])).dtype.name
            elif method == "at":  # at converts a Python scalar b with np.asarray (no weak scalar)
                r = uf.resolve_dtypes((case.inputs[0].dtype, np.asarray(case.inputs[1]).dtype, None),
                                      casting="unsafe")
            elif "dtype" in kw:
                return np.dtype(kw["dtype"]).name
            else:
                out = kw["out"].dtype if "out" in kw else None
                r = uf.resolve_dtypes((out, np.asarray(case.inputs[0]).dtype, None), reduction=True,
                                      casting="unsafe")
        return r[-1].name
    except Exception:
        return None


# Ops whose integer results wrap modulo 2^k alike whether or not partial results pass through a
# narrower integer dtype (docs/methods.md: the reductions' out= rule).
WRAPPING = ("add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor")
LOGICAL = ("logical_and", "logical_or", "logical_xor")


def out_cannot_hold_loop(case, op, method, loop):
    """loom refuses a reduce where NumPy passes a value through out= that out= does not hold
    (docs/errors.md E-TYPE-REDUCE-OUT-NARROWER): NumPy starts in out= with initial= (cast to
    out='s dtype) or, for an op without an identity or with initial=None, the first element (cast
    from the input's dtype), then folds in its loop's dtype, and past its buffer (np.getbufsize())
    partial results pass through out=. A dtype holds in out= when it casts safely, or both are
    integers under the wrapping ops; the logical ops' loop is bool, which always does."""
    if method != "reduce" or "out" not in case.kw or not loop:
        return False
    ot = case.kw["out"].dtype
    wraps = op in WRAPPING

    def holds(t):
        t = np.dtype(t)
        return t == ot or np.can_cast(t, ot, "safe") or (wraps and t.kind in "iu" and ot.kind in "iu")

    initial = case.kw.get("initial", "absent")
    if initial is not None and initial != "absent":
        start = "initial"
    elif initial is None or getattr(np, op).identity is None:
        start = "first"
    else:
        start = "identity"
    if not holds(loop) and np.asarray(case.inputs[0]).size > np.getbufsize():
        return True
    if start == "first":
        return not holds(np.asarray(case.inputs[0]).dtype)
    # initial= or the identity starts in out=: it must come through unchanged (bitwise_and's -1
    # becomes True in a bool out=), integers under the wrapping ops into an integer out= aside
    v = initial if start == "initial" else getattr(np, op).identity
    # (an infinite initial= is no integer: int(inf) would raise; a Python int past 2^53 is one
    # though its float is not equal to it: seed 355835715, case 4880, initial=2^63 + 5)
    integral = isinstance(v, (int, np.integer)) or (math.isfinite(float(v)) and float(v) == int(v))
    if wraps and ot.kind in "iu" and np.dtype(loop).kind in "iu" and integral:
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            cast = complex(np.asarray(v).astype(ot))
    return cast.real != float(v)


def cast_undefined(case, res, op, loop):
    """True when a float outside an integer dtype's range may be cast to it: a float that is not
    finite, a quotient by zero, a negative value on its way to an unsigned dtype through a float
    (an input or NumPy's float loop), or an integer of 2^53 or more through a float loop. C leaves those values undefined, and NumPy's and
    loom's differ (loom's rule: docs/decisions.md)."""
    sinks = [np.asarray(res).dtype] if res is not None else []
    if "out" in case.kw:
        sinks.append(case.kw["out"].dtype)
    if "dtype" in case.kw:
        sinks.append(np.dtype(case.kw["dtype"]))
    if case.at_base is not None:
        sinks.append(case.at_base.dtype)
    if not any(s.kind in "iu" for s in sinks):
        return False
    unsigned = any(s.kind == "u" for s in sinks)
    if identity_leaves(case, op, loop):
        return True
    # complex goes to an integer through its real part (NumPy and loom alike): a float here too
    float_loop = loop is not None and np.dtype(loop).kind in "fc"
    if float_loop and unsigned and op == "subtract":  # a difference may go below 0 as a float
        return True
    for v in case.inputs:
        a = np.asarray(v)
        if a.dtype.kind == "c":
            if not np.all(np.isfinite(a)):
                return True
            a = a.real
        through_float = float_loop or a.dtype.kind == "f"
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            return True
        if through_float and unsigned and a.dtype.kind in "if" and np.any(a < 0):
            return True
        if through_float and a.dtype.kind in "iu" and a.size and \
                np.max(np.abs(a.astype(np.float64))) >= 2.0 ** 53:  # rounds, may leave the range
            return True
        # values beyond a float16 / float32 loop's range become inf there (uint32 max in float16)
        if float_loop and a.dtype.kind in "iuf" and a.size and np.dtype(loop).kind == "f" and \
                np.max(np.abs(a.astype(np.float64))) > float(np.finfo(loop).max):
            return True
        if op == "divide" and a.size and np.any(a == 0):
            return True
        # x // 0, x % 0, fmod(x, 0) in a float loop: inf or NaN (accumulate folds them on)
        if op in ("floor_divide", "remainder", "fmod") and through_float and a.size and \
                np.any(a == 0):
            return True
    return float_loop and (float_result_leaves(case, op, loop, sinks) or
                           method_result_leaves(case, op, loop, sinks) or
                           at_result_leaves(case, op, loop))


def identity_leaves(case, op, loop):
    """A reduction through an integer loop into a float or complex out= without initial=: NumPy
    starts it from the op's identity written into out= and cast back to the loop dtype, and an
    identity the out= dtype cannot hold leaves the integer's range on the way back (seed 528551871,
    case 5577: bitwise_and's all-ones uint64 is 2^64 in float64, 0 on x86 with "invalid value
    encountered", so NumPy's bitwise_and.reduce gave 0 where the elements' AND is 2)."""
    uf = getattr(np, op, None)
    if case.c.get("method") != "reduce" or loop is None or uf is None or \
            np.dtype(loop).kind not in "iu" or "out" not in case.kw or \
            case.kw["out"].dtype.kind not in "fc" or case.kw.get("initial") is not None:
        return False
    ident = getattr(uf, "identity", None)
    if ident is None:
        return False
    info = np.iinfo(np.dtype(loop))
    start = int(np.array(ident).astype(np.dtype(loop)))  # -1 wraps to all ones, as NumPy's
    back = np.array(start).astype(case.kw["out"].dtype)
    value = float(back.real if back.dtype.kind == "c" else back)
    return not (info.min <= value <= info.max)


def leaves(v, sinks):
    """Whether float values v (the real parts of complex ones), bound for the integer dtypes
    among sinks, hold one that C leaves undefined and NumPy and loom cast differently: one that is
    not finite, or beyond the range that both carry through. x86 NumPy converts a float to int8,
    int16, int32, uint8 and uint16 through a 32-bit conversion (beyond it INT32_MIN, truncated:
    3e9 becomes 0 in int16) and to uint32 and int64 through a 64-bit one; loom saturates to 64
    bits and wraps (docs/decisions.md). So values inside the 32-bit range wrap alike into the
    narrow dtypes (300.0 into int8 is 44 in both) and stay compared, values beyond it do not."""
    v = np.asarray(v)
    if v.dtype.kind == "c":
        v = v.real
    v = np.asarray(v, dtype=np.float64)
    if not v.size:
        return False
    if not np.all(np.isfinite(v)):
        return True
    narrow = ("int8", "int16", "int32", "uint8", "uint16")
    ints = [s for s in sinks if s.kind in "iu"]
    if not ints:
        return False
    bound = 2.0 ** 31 if any(s.name in narrow for s in ints) else 2.0 ** 63
    return bool(np.max(np.abs(v)) >= bound)


def at_result_leaves(case, op, loop):
    """The same for at through a float loop: NumPy updates a's element per index in order,
    casting each result back to a's integer dtype before the next update of that index reads it
    (seed 3303, case 6164: divide.at of an int32 a by -0.0051 four times on one row, 6 becomes
    8.9e9, INT32_MIN in NumPy). Replays the updates in the loop dtype, a cast back after each, up
    to the first result that leaves (then the rest is undefined)."""
    a = np.array(case.inputs[0])
    uf = getattr(np, op, None)
    if case.c.get("method") != "at" or case.indices is None or uf is None or \
            a.dtype.kind not in "iu":
        return False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                idx = np.asarray(case.indices)
                b = np.broadcast_to(np.asarray(case.inputs[1]), a[idx].shape).astype(loop)
                pairs = [(idx[()], b)] if idx.ndim == 0 else \
                    [(idx[k], b[k]) for k in range(idx.shape[0])]
                for i, bk in pairs:
                    r = np.asarray(uf(np.asarray(a[i]).astype(loop), bk))
                    if leaves(r, [a.dtype]):
                        return True
                    a[i] = r.real if r.dtype.kind == "c" else r
    except Exception:
        return False
    return False


def method_result_leaves(case, op, loop, sinks):
    """The same for accumulate, reduce and reduceat through a float loop: a result (accumulate:
    every partial) that leaves (above), bound for an integer sink (seed 371064064, case 5211:
    divide.accumulate of float16 into an int8 out=, where 316.5 / -0.00857 / -0.00061 overflows
    float16 to inf; x86 gives 0 there, loom -1; seeds 31 and 13579, cases 4148 and 7758:
    floor_divide.reduceat of float16 and float64 into int32 and int16 out=). NumPy's method on the
    case's input in the loop dtype, without out=. rt.reduce's cases run NumPy's function (np.prod,
    np.sum), whose axis defaults to None where the method's is 0 (seed 1101, case 9693: np.prod of
    a float32 -1.22 broadcast over 486 elements into an int16 out= is inf; multiply.reduce down
    axis 0, 6 factors, is finite)."""
    method = case.c.get("method")
    uf = getattr(np, op, None)
    if method not in ("accumulate", "reduce", "reduceat") or uf is None or \
            len(case.inputs) != 1 or not any(s.kind in "iu" for s in sinks):
        return False
    kw = {k: case.kw[k] for k in ("axis", "initial", "where") if k in case.kw}
    fn = REDUCE_FNS[case.c["op"]] if case.c.get("kind") == "reduce" else \
        getattr(uf, method)  # np.max and np.min take no dtype=: their values are the inputs'
    if method == "reduceat":
        fn = lambda x, **kw_: uf.reduceat(x, case.indices, **kw_)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                return leaves(fn(case.inputs[0], dtype=loop, **kw), sinks)
    except Exception:
        return False


def float_result_leaves(case, op, loop, sinks):
    """A call's or outer's float result (the op on the case's inputs in NumPy's loop dtype, no
    out=) with a value that leaves (above) on its way to an integer sink (x // 0 in a float loop:
    seed 693473029, case 4566, floor_divide(0.5, bools, out=uint32, casting='unsafe'); an
    overflow). Other methods answer False here (reduce and accumulate: method_result_leaves; at:
    at_result_leaves)."""
    uf = getattr(np, op, None)
    method = case.c.get("method")
    if uf is None or method not in ("call", "outer") or len(case.inputs) != uf.nin:
        return False
    f = uf.outer if method == "outer" else uf
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                r = f(*case.inputs, dtype=loop, casting="unsafe")
                return any(leaves(v, sinks) for v in (r if isinstance(r, tuple) else (r,))
                           if np.asarray(v).dtype.kind in "fc")
    except Exception:
        return False


def draw_accuracy(d, case, fn_name):
    """A long float sum over a strided, reversed or transposed view (issue 11: float32 sums of
    2e7 x 0.1f drifted by 9 % when strided): positive terms, so that a sequential fold's error
    (~ n u sum|x|) stands far above the pairwise bound (O(log n) u sum|x|)."""
    dt = d.choice(["float32", "float32", "float64"])
    cycle = [float(np.asarray(v, dtype=dt)) for v in
             d.r.sample([0.1, 0.3, 0.7, 0.01, 1.3, 0.03, 0.9, 0.11, 2.7], d.r.randint(1, 4))]
    if d.p(0.5):
        n = d.r.randint(5000, 60000)
        step = d.choice([1, 2, 3, -1, -2])
        bshape = [n * abs(step) + 1]
        ops = [["slice", 0, 0, n * step, step]] if step > 0 else \
              [["slice", 0, bshape[0] - 1, bshape[0] - 1 - n * abs(step), step]]
    else:
        a, b = d.r.randint(40, 300), d.r.randint(40, 300)
        bshape = [b, a]
        ops = [["T", [1, 0]]]
        if d.p(0.3):
            bshape = [b, 2 * a]
            ops = [["slice", 1, 0, 2 * a, 2]] + ops
        case.kw_enc["axis"] = case.kw["axis"] = d.choice([None, 0, 1, -1])
    base = np.resize(np.array(cycle, dtype=dt), math.prod(bshape)).reshape(bshape)
    x = apply_view(base, ops)
    case.c["args"] = [{"dtype": dt, "base": bshape, "data": {"cycle": cycle}, "view": ops}]
    case.inputs.append(x)
    default_axis = None if fn_name else 0
    call = (lambda: np.sum(x, **case.kw)) if fn_name else (lambda: np.add.reduce(x, **case.kw))

    def scale():
        kw = dict(case.kw, axis=case.kw.get("axis", default_axis))
        s = np.add.reduce(magnitude(x), **kw)
        return s, np.add.reduce(np.ones(x.shape), **kw)
    case.scale_fn = scale
    case.exact_fn = lambda res_dt: exact_sums(x, case.kw, default_axis, res_dt)
    return call


def cycle_operand(d, case, bshape, dt, cycle, ops=()):
    """A big operand whose values repeat `cycle` (the file holds the cycle, not every value)."""
    base = np.resize(np.array(cycle, dtype=dt), math.prod(bshape)).reshape(bshape)
    enc = {"dtype": dt, "base": list(bshape), "data": {"cycle": enc_values(np.array(cycle, dtype=dt))},
           "view": [list(o) for o in ops]}
    return enc, base, apply_view(base, list(ops))


def big_cycle(d, dt, op, k):
    if dt.startswith("float"):
        if op == "multiply":
            return [d.r.choice([-1, 1]) * d.r.uniform(0.99, 1.01) for _ in range(k)]
        return [d.r.uniform(-10, 10) for _ in range(k)]
    if dt.startswith("uint"):  # unsigned products wrap, which both define
        return [d.r.randint(0, 9) if op != "multiply" else d.r.choice([1, 1, 1, 3]) for _ in range(k)]
    return [d.r.randint(-9, 9) if op != "multiply" else d.r.choice([-1, 1, 1]) for _ in range(k)]


def draw_big(d, case, method):
    """Big enough for the parallel backend's splits (docs/parallel.md, backends/tbb/chunking.hpp):
    reductions cut along a reduced dim (64K-element chunks) or over >= 16 output pieces, ordered
    reductions over outputs, the two-pass blocked scan (< 16 lines of > 2 x 64K), whole-line
    scans, at's sorted buckets and atomics (>= 4096 rows), at over long rows."""
    dt = d.choice(["float32", "float64", "int32", "int64", "uint64"])
    if method == "at":
        op = d.choice(["add", "add", "multiply", "maximum", "minimum", "subtract"])
        c = case.c
        if d.p(0.7):
            bins = d.r.randint(1000, 20000)
            shape, m = [bins], d.r.randint(50000, 200000)
        else:
            shape, m = [d.r.randint(2, 30), d.r.randint(17000, 40000)], d.r.randint(2, 40)
        a_enc, a_base, a = cycle_operand(d, case, shape, dt, big_cycle(d, dt, op, 97))
        ivals = [d.r.randrange(shape[0]) for _ in range(d.r.choice([1009, 4999, 7919]))]
        i_enc, _, idx = cycle_operand(d, case, [m], "int64", ivals)
        b_enc, _, b = cycle_operand(d, case, [m] + shape[1:], dt, big_cycle(d, dt, op, 101))
        c["args"] = [a_enc, b_enc]
        c["indices"] = i_enc
        case.at_base = a_base
        case.inputs.extend([a.copy(), b])
        if op in ("add", "multiply") and dt.startswith("float"):
            a0 = a.copy()
            case.scale_fn = lambda: at_bound(a_base.shape, [], a0, idx, b, op)
        uf = getattr(np, op)
        return op, (lambda: uf.at(a, idx, b))
    if method == "accumulate":
        op = d.choice(["add", "add", "multiply", "maximum", "minimum", "subtract"])
        shape = d.choice([[d.r.randint(140000, 300000)], [d.r.randint(2, 6), d.r.randint(140000, 200000)],
                          [d.r.randint(16, 40), d.r.randint(3000, 8000)]])
        ax = len(shape) - 1
    else:
        op = d.choice(["add", "add", "multiply", "maximum", "minimum", "subtract"])
        shape = d.choice([[d.r.randint(140000, 300000)], [d.r.randint(100, 400), d.r.randint(500, 1500)],
                          [d.r.randint(20, 64), d.r.randint(4096, 8192)]])
        ax = d.choice([0, len(shape) - 1]) if op == "subtract" else d.choice([None, 0, len(shape) - 1])
    ops = [["T", list(range(len(shape)))[::-1]]] if len(shape) > 1 and d.p(0.3) else []
    bshape = shape[::-1] if ops else shape
    x_enc, _, x = cycle_operand(d, case, bshape, dt, big_cycle(d, dt, op, d.choice([97, 1000, 4099])), ops)
    case.c["args"] = [x_enc]
    case.inputs.append(x)
    case.kw_enc["axis"] = case.kw["axis"] = ax
    uf = getattr(np, op)
    absx = None
    if op in ("add", "multiply") and dt.startswith("float"):
        absx = magnitude(x)
    if method == "accumulate":
        if absx is not None:
            red = np.multiply if op == "multiply" else np.add
            case.scale_fn = lambda: (red.accumulate(absx, axis=ax),
                                     np.add.accumulate(np.ones(x.shape), axis=ax))
        return op, (lambda: uf.accumulate(x, axis=ax))
    if absx is not None:
        red = np.multiply if op == "multiply" else np.add
        case.scale_fn = lambda: (red.reduce(absx, axis=ax), np.add.reduce(np.ones(x.shape), axis=ax))
        if op == "add":
            case.exact_fn = lambda res_dt: exact_sums(x, case.kw, 0, res_dt)
    return op, (lambda: uf.reduce(x, axis=ax))


def draw_accumulate(d, case, op, reduceat):
    nd = d.ndim(1, 3) if not d.p(0.03) else 0
    shape = d.shape(nd, long_ok=True)
    dt = d.dtype()
    enc, base, x = operand(d, shape, dt, op, big_ok=op in ("maximum", "minimum"))
    case.c["args"] = [enc]
    case.inputs.append(x)
    if d.p(0.6) or nd == 0:
        ax = d.r.randint(-nd, nd - 1) if nd else 0
        if d.p(0.04):
            ax = nd
        case.kw_enc["axis"] = case.kw["axis"] = ax
    ax = case.kw.get("axis", 0)
    n = shape[ax] if nd and -nd <= ax < nd else 0
    idx = None
    if reduceat:
        m = d.r.randint(0, 6)
        vals = [d.r.randint(0, max(n - 1, 0)) for _ in range(m)]
        if d.p(0.4):
            vals.sort()
        if d.p(0.06):
            vals.append(d.choice([n, -1, n + 3]))
        idt = d.choice(["int64", "int64", "int32", "uint8", "int16"]) if not d.p(0.03) else "float64"
        if idt.startswith("uint"):
            vals = [v % 256 for v in vals]
        idx = np.array(vals, dtype=idt)
        ienc = {"dtype": idt, "base": [len(vals)], "data": enc_values(idx), "view": []}
        case.c["indices"] = ienc
        case.indices = idx
    if d.p(0.15):
        case.kw_enc["dtype"] = case.kw["dtype"] = d.dtype()
    uf = getattr(np, op)
    call = (lambda **kw: uf.reduceat(x, idx, **kw)) if reduceat else (lambda **kw: uf.accumulate(x, **kw))
    dry = dry_result(lambda: call(**case.kw))
    if d.p(0.18):
        out_operand(d, case, list(dry.shape) if dry is not None else shape,
                    dry.dtype.name if dry is not None else None)
    if op == "multiply":
        refit_factors(d, base, enc, numpy_loop(case, op, "reduceat" if reduceat else "accumulate"))
    folds = ("add", "multiply", "subtract", "divide") if reduceat else ("add", "multiply")
    if op in folds and dry is not None and dry.dtype.kind in "fc":
        def scale():
            ax_ = case.kw.get("axis", 0)
            a = magnitude(x)
            red = np.multiply if op == "multiply" else np.add
            if reduceat and op == "divide":  # float16 folds (compare.hpp): the exact quotient
                s = np.abs(np.divide.reduceat(wide(x), idx, axis=ax_))
                cnt = np.add.reduceat(np.ones_like(a), idx, axis=ax_)
            elif reduceat:
                s = red.reduceat(a, idx, axis=ax_)
                cnt = np.add.reduceat(np.ones_like(a), idx, axis=ax_)
            else:
                s = red.accumulate(a, axis=ax_)
                cnt = np.add.accumulate(np.ones_like(a), axis=ax_)
            return s, cnt
        case.scale_fn = scale
    return lambda: call(**case.kw)


def at_bound(base_shape, view_ops, a_before, idx, b, op):
    """For add.at and multiply.at of floats: per element of a's base, the scale of the rounding
    error (|a| combined with every |b| that lands there) and the number of terms. cuda
    (atomics) and parallel (private bins) may group the updates of one element in any order."""
    s, k = np.zeros(base_shape), np.zeros(base_shape)
    sv, kv = apply_view(s, view_ops), apply_view(k, view_ops)
    sv[...] = magnitude(a_before)
    kv[...] = 1
    bb = magnitude(b)
    (np.multiply if op == "multiply" else np.add).at(sv, idx, bb)
    np.add.at(kv, idx, np.ones_like(bb))
    return s, k


def draw_at(d, case, op):
    nd = d.ndim(1, 3) if not d.p(0.03) else 0
    shape = d.shape(nd)
    dt = d.dtype()
    enc, base, a = operand(d, shape, dt, op, writable=True, big_ok=op in ("maximum", "minimum"))
    case.c["args"] = [enc]
    case.at_base = base
    n0 = shape[0] if nd else 0
    m = d.r.randint(0, 8)
    vals = [d.r.randint(-n0, n0 - 1) if n0 else 0 for _ in range(m)]
    if d.p(0.06):
        vals.append(d.choice([n0, -n0 - 1]))
    zero_d = d.p(0.1) and vals
    idt = d.choice(["int64", "int64", "int32", "uint8"]) if not d.p(0.03) else "float64"
    if idt.startswith("uint"):
        vals = [v % max(n0, 1) for v in vals]
    if zero_d:
        idx = np.array(vals[0], dtype=idt)
    else:
        idx = np.array(vals, dtype=idt)
    case.c["indices"] = {"dtype": idt, "base": list(idx.shape), "data": enc_values(idx), "view": []}
    case.indices = idx
    bshape = ([] if zero_d else [len(vals)]) + list(shape[1:])
    bshape = broadcastable_shape(d, bshape) if d.p(0.5) else bshape
    if d.p(0.04):
        bshape = bad_shape(d, bshape)
    bdt = dt if d.p(0.6) else d.dtype()
    if d.p(0.1):
        benc, _ = scalar_input(d, dt)
        b = py_value(benc)
    else:
        benc, bbase, b = operand(d, bshape, bdt, op)
    case.c["args"].append(benc)
    case.inputs.extend([a.copy(), b])
    if op in ("add", "multiply") and dt.startswith(INEXACT):
        a0 = a.copy()
        case.scale_fn = lambda: at_bound(base.shape, enc["view"], a0, idx, b, op)
    uf = getattr(np, op)
    return lambda: uf.at(a, idx, b)


def run_case(cid, rng):
    d = Draw(rng)
    case = Case(cid, d)
    method = d.choice(["call", "reduce", "accumulate", "reduceat", "outer", "at"],
                      [30, 28, 12, 10, 9, 11])
    c = case.c
    c["method"] = method
    fn_name = None
    if method == "reduce" and d.p(0.5):
        fn_name = d.choice(list(REDUCE_FNS))
        c["kind"] = "reduce"
        c["op"] = fn_name
        op = REDUCE_FN_UFUNC[fn_name]
    else:
        c["kind"] = "ufunc"
        op = d.choice(UFUNCS + UNARY_UFUNCS)
        if op in UNARY_UFUNCS:
            method = c["method"] = "call"
        c["op"] = op
    if method in ("reduce", "accumulate", "at") and d.p(0.006):
        c["kind"] = "ufunc"
        c["big"] = True
        op, fn = draw_big(d, case, method)
        c["op"] = op
    elif method == "reduce" and op == "add" and d.p(0.04):
        c["accuracy"] = True
        fn = draw_accuracy(d, case, fn_name)
    elif method in ("call", "outer"):
        fn = draw_call(d, case, op, method)
    elif method == "reduce":
        fn = draw_reduce(d, case, op, fn_name)
    elif method in ("accumulate", "reduceat"):
        fn = draw_accumulate(d, case, op, method == "reduceat")
    else:
        fn = draw_at(d, case, op)
    c["kw"] = case.kw_enc
    expect = {}
    loop = numpy_loop(case, op, method)
    if loop:
        expect["loop"] = loop
    if out_cannot_hold_loop(case, op, method, loop):
        expect["out_cannot_hold_loop"] = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                res = fn()
    except Exception as e:  # NumPy refuses: the replayer expects a loom::Error
        expect["error"] = type(e).__name__
        expect["message"] = str(e)[:200]
        c["expect"] = expect
        return c
    if method == "at":
        expect["a_after"] = enc_values(case.at_base)
        if case.scale_fn is not None:
            s, cnt = case.scale_fn()
            expect["scale"] = enc_values(s)
            expect["count"] = [int(v) for v in cnt.ravel().tolist()]
    else:
        valid = None
        if case.mask_view is not None and "out" not in case.kw:
            # NumPy leaves masked-out elements of a fresh output uninitialised: null there
            valid = np.broadcast_to(np.asarray(case.mask_view, dtype=bool), np.shape(res))
        sample = sample_positions(int(np.asarray(res).size), cid)
        expect["result"] = enc_result(res, valid, sample)
        if case.out_base is not None:
            expect["out_after"] = enc_values(case.out_base)
        if case.scale_fn is not None and np.asarray(res).dtype.kind in "fc":
            try:
                with np.errstate(all="ignore"):
                    s, cnt = case.scale_fn()
                # NumPy's accumulate/reduceat broadcast the input against a larger out= (x[0:0]
                # into out= of shape (1,)), which loom refuses (a documented difference): then
                # there is no result of loom's to bound.
                larger_out = method in ("accumulate", "reduceat") and "out" in case.kw and \
                    not broadcasts_to(np.shape(s), np.shape(res))
                if not larger_out:
                    s = np.broadcast_to(s, np.shape(res))
                    cnt = np.broadcast_to(cnt, np.shape(res))
                    s = np.asarray(s, dtype=np.float64).ravel()
                    cnt = np.asarray(cnt).ravel()
                    if sample is not None:
                        s, cnt = s[sample], cnt[sample]
                    expect["scale"] = enc_values(s)
                    expect["count"] = [int(v) for v in cnt.tolist()]
                    if case.exact_fn is not None and sample is None and \
                            np.asarray(res).dtype.kind == "f":
                        ex, rows = case.exact_fn(np.asarray(res).dtype)
                        expect["exact"] = [None if v is None else enc_float(v) for v in ex]
                        expect["rows"] = rows
            except Exception as e:  # the scale is a bound for a case NumPy answered: must exist
                raise RuntimeError("case %d: cannot compute the error scale: %r" % (cid, e))
    if cast_undefined(case, None if method == "at" else res, op, loop):
        expect["undefined"] = "a float outside the integer's range may be cast to it"
    c["expect"] = expect
    return c


def main():
    if len(sys.argv) != 4:
        sys.stderr.write(__doc__)
        return 2
    seed, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    with open(path, "w") as f:
        f.write(json.dumps({"numpy": np.__version__, "seed": seed, "count": count}) + "\n")
        for cid in range(count):
            # one generator per case: case k of a seed is the same whatever the count
            rng = random.Random(seed * 1000003 + cid)
            f.write(json.dumps(run_case(cid, rng), allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
