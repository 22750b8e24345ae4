#!/usr/bin/env python3
"""loom's peers: the cases of loom-bench, run with NumPy, Numba and CuPy.

Prints Google-Benchmark-shaped JSON ({"context": ..., "benchmarks": [...]}) whose names follow
loom-bench's scheme with the peer as the last component, e.g. sinexp/float32/64M/numba_parallel,
so that scripts/bench-compare can join the two by case. See README.md beside this file.

Peers that are not installed (numba, numba.cuda, cupy) or have no GPU are skipped with a line on
stderr; the script never fails for a missing peer.
"""
import argparse
import datetime
import gc
import json
import math
import os
import platform
import re
import socket
import statistics
import sys
import time
import traceback
import warnings

import numpy as np

# numba-cuda (and older numba) still refer to names that NumPy 2.x removed; give them back before
# numba is imported. Only where missing, so nothing changes on a NumPy that still has them.
for _old, _new in (("row_stack", "vstack"), ("in1d", "isin"), ("trapz", "trapezoid"),
                   ("product", "prod"), ("cumproduct", "cumprod"), ("sometrue", "any"),
                   ("alltrue", "all")):
    if not hasattr(np, _old) and hasattr(np, _new):
        setattr(np, _old, getattr(np, _new))

HOST_PEERS = ("numpy", "numba_cpu", "numba_parallel")
CUDA_PEERS = ("numba_cuda", "numba_cuda_host", "cupy", "cupy_host", "cupy_philox", "cupy_legacy")


def log(*a):
    print("peers:", *a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Names, as loom-bench prints them (apps/common/app_util.hpp: size_label, shape_label).

def size_label(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20}M"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10}K"
    return str(n)


def shape_label(shape):
    return "x".join(str(d) for d in shape) or "scalar"


class Sizes:
    """apps/bench/bench.hpp's Sizes: 1M and 64M (4M when small), 256^3, (4096,64,256)."""

    def __init__(self, small):
        self.small_n = 1 << 20
        self.large_n = (4 << 20) if small else (64 << 20)
        self.cube = (256, 256, 256)
        self.sum_row = (4096 // 16, 64, 256) if small else (4096, 64, 256)
        # 4x4 matrices per batched linalg case (apps/bench/bench.hpp's linalg_batch).
        self.linalg_batch = 1_000_000 // 16 if small else 1_000_000
        # The issues' reduction goal is a sum of 2^28 float32; only in full runs.
        self.sum_sizes = (self.small_n, self.large_n) if small else (self.small_n, self.large_n,
                                                                     1 << 28)


# --------------------------------------------------------------------------------------------
# Peers: what is importable, and the compiled functions.

class Peers:
    """Imports numba / numba.cuda / cupy if present and compiles the peer functions once."""

    def __init__(self, want):
        self.np = np
        self.numba = None
        self.cuda = None  # numba.cuda, when a GPU is usable
        self.cp = None
        self.versions = {"python": platform.python_version(), "numpy": np.__version__}
        self.gpu = None
        if want & {"numba_cpu", "numba_parallel", "numba_cuda", "numba_cuda_host"}:
            self._load_numba(want)
        if want & {"cupy", "cupy_host", "cupy_philox", "cupy_legacy"}:
            self._load_cupy()

    def _load_numba(self, want):
        try:
            import numba
        except Exception as e:  # ImportError, or a numba that rejects this NumPy
            log(f"skipping numba peers: cannot import numba ({type(e).__name__}: {e})")
            return
        self.numba = numba
        # "Grid size 1 will likely result in GPU under-utilization", "Host array used in CUDA
        # kernel will incur copy overhead": true, and what the one-element and host-array cases
        # measure on purpose.
        warnings.filterwarnings("ignore", message=r"(?s).*(Grid size \d+ will likely|"
                                                  r"Host array used in CUDA kernel)")
        self.versions["numba"] = numba.__version__
        self.versions["llvmlite"] = __import__("llvmlite").__version__
        if not want & {"numba_cuda", "numba_cuda_host"}:
            return
        try:
            from numba import cuda
            if not cuda.is_available():
                log("skipping numba cuda peers: numba.cuda.is_available() is False")
                return
            self.cuda = cuda
            globals()["cuda"] = cuda  # for the module-level kernels (cuda_histogram_py, ...)
            dev = cuda.get_current_device()
            name = dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name)
            self.gpu = self.gpu or name
            try:
                import importlib.metadata as md
                self.versions["numba_cuda"] = md.version("numba-cuda")
            except Exception:
                pass
        except Exception as e:
            log(f"skipping numba cuda peers: {type(e).__name__}: {e}")
            self.cuda = None

    def _load_cupy(self):
        try:
            import cupy
        except Exception as e:
            log(f"skipping cupy peers: cannot import cupy ({type(e).__name__}: {e})")
            return
        try:
            if cupy.cuda.runtime.getDeviceCount() < 1:
                log("skipping cupy peers: no CUDA device")
                return
            cupy.zeros(1).sum().get()  # fails here, not mid-run, without a usable driver
            props = cupy.cuda.runtime.getDeviceProperties(0)
            name = props["name"]
            self.gpu = self.gpu or (name.decode() if isinstance(name, bytes) else str(name))
        except Exception as e:
            log(f"skipping cupy peers: {type(e).__name__}: {e}")
            return
        self.cp = cupy
        self.versions["cupy"] = cupy.__version__

    def available(self, peer):
        if peer == "numpy":
            return True
        if peer in ("numba_cpu", "numba_parallel"):
            return self.numba is not None
        if peer in ("numba_cuda", "numba_cuda_host"):
            return self.cuda is not None
        if peer in ("cupy", "cupy_host", "cupy_philox", "cupy_legacy"):
            return self.cp is not None
        return False

    # Compiled functions, made on first use (compiling costs seconds; --filter may need none).
    _cache = {}

    def vectorize(self, op, target):
        key = ("vectorize", op, target)
        if key not in self._cache:
            import numba
            sigs = ["float32(float32, float32)", "float64(float64, float64)"]
            if target == "cuda":
                deco = self.cuda.vectorize(sigs)
            else:
                deco = numba.vectorize(sigs, target=target)
            self._cache[key] = deco(SCALAR_FUNCS[op])
        return self._cache[key]

    def guvectorize_sum_row(self, target):
        key = ("guvectorize", "sum_row", target)
        if key not in self._cache:
            import numba
            sigs = ["void(float32[:,:], float32[:])", "void(float64[:,:], float64[:])"]
            if target == "cuda":
                deco = self.cuda.guvectorize(sigs, "(n,m)->(n)")
            else:
                deco = numba.guvectorize(sigs, "(n,m)->(n)", target=target)
            self._cache[key] = deco(sum_row_py)
        return self._cache[key]

    def njit_reduce(self, op, parallel):
        key = ("njit", op, parallel)
        if key not in self._cache:
            import numba
            fn = (lambda x: x.sum()) if op == "sum" else (lambda x: x.prod())
            self._cache[key] = numba.njit(parallel=parallel)(fn)
        return self._cache[key]

    def parallel_copy(self):
        key = ("njit", "copy", True)
        if key not in self._cache:
            import numba

            @numba.njit(parallel=True)
            def copy(dst, src):
                for i in numba.prange(src.shape[0]):
                    dst[i] = src[i]
            self._cache[key] = copy
        return self._cache[key]

    def cuda_reduce(self, op):
        key = ("cuda.reduce", op)
        if key not in self._cache:
            fn = (lambda a, b: a + b) if op == "sum" else (lambda a, b: a * b)
            self._cache[key] = self.cuda.reduce(fn)
        return self._cache[key]

    def cupy_kernel(self, op):
        key = ("cupy", op)
        if key not in self._cache:
            body = {"sinexp": "z = sin(x) * exp(y)", "maximum": "z = max(x, y)",
                    "add": "z = x + y"}[op]
            self._cache[key] = self.cp.ElementwiseKernel("T x, T y", "T z", body, "loom_" + op)
        return self._cache[key]

    # Custom kernels (loom-bench's kernel_* cases): the seeds' @cuda.jit code, below at module
    # level like the other peer functions (they read the module global `cuda`, set on load).
    def cuda_histogram(self, shared, nbins):
        key = ("cuda.jit", "histogram", shared, nbins if shared else None)
        if key not in self._cache:
            fn = make_cuda_histogram_shared(nbins) if shared else cuda_histogram_py
            self._cache[key] = self.cuda.jit(fn)
        return self._cache[key]

    def cuda_zero(self):
        key = ("cuda.jit", "zero")
        if key not in self._cache:
            self._cache[key] = self.cuda.jit(cuda_zero_py)
        return self._cache[key]

    def cuda_hypot_stride(self):
        key = ("cuda.jit", "hypot_stride")
        if key not in self._cache:
            self._cache[key] = self.cuda.jit(hypot_stride_py)
        return self._cache[key]

    def cuda_xoroshiro_fill(self, draw):
        key = ("cuda.jit", "xoroshiro_fill", draw)
        if key not in self._cache:
            self._cache[key] = self.cuda.jit(make_xoroshiro_fill(draw))
        return self._cache[key]

    def cuda_compute_pi(self):
        key = ("cuda.jit", "compute_pi")
        if key not in self._cache:
            self._cache[key] = self.cuda.jit(make_compute_pi())
        return self._cache[key]

    def cuda_full_grid(self, threads=256):
        """Blocks of `threads` that fill the device once: SMs x resident threads per SM."""
        dev = self.cuda.get_current_device()
        per_sm = getattr(dev, "MAX_THREADS_PER_MULTI_PROCESSOR", 2048)
        return dev.MULTIPROCESSOR_COUNT * max(1, per_sm // threads)

    def njit_histogram(self, parallel):
        """The seeds' cpu_histogram rule as a Numba CPU user writes it: @njit loop (numba_cpu),
        or @njit(parallel=True) with one private histogram per thread, summed at the end (there
        are no atomics in @njit)."""
        key = ("njit", "histogram", parallel)
        if key not in self._cache:
            import numba

            def histogram(x, xmin, xmax, nbins):
                bin_width = np.float32((xmax - xmin) / nbins)  # float32, as loom's kernel
                nchunks = numba.get_num_threads()
                n = x.shape[0]
                chunk = (n + nchunks - 1) // nchunks
                parts = np.zeros((nchunks, nbins), np.int32)
                for c in numba.prange(nchunks):
                    h = np.zeros(nbins, np.int32)  # thread-local: no false sharing of parts rows
                    for i in range(c * chunk, min(n, (c + 1) * chunk)):
                        b = np.int32((x[i] - xmin) / bin_width)
                        if b >= 0 and b < nbins:
                            h[b] += 1
                    parts[c, :] = h
                out = np.zeros(nbins, np.int32)
                for c in range(nchunks):
                    out += parts[c]
                return out
            self._cache[key] = numba.njit(parallel=parallel)(histogram)
        return self._cache[key]

    def njit_hypot(self, parallel):
        key = ("njit", "hypot", parallel)
        if key not in self._cache:
            import numba

            def hypot(a, b, c):
                for i in numba.prange(a.shape[0]):
                    c[i] = math.hypot(a[i], b[i])
            self._cache[key] = numba.njit(parallel=parallel)(hypot)
        return self._cache[key]

    def sync(self):
        if self.cuda is not None:
            self.cuda.synchronize()
        if self.cp is not None:
            self.cp.cuda.Device().synchronize()


# The scalar functions of the seeds (the Numba tutorials in shared/seeds/), compiled for every
# numba target.
def sinexp_py(x, y):
    return math.sin(x) * math.exp(y)


def maximum_py(x, y):
    return max(x, y)


def add_py(x, y):
    return x + y


SCALAR_FUNCS = {"sinexp": sinexp_py, "maximum": maximum_py, "add": add_py}


# The seeds' @cuda.jit kernels. `cuda` is numba.cuda once the numba cuda peers load (None until
# then: nothing here runs before).
cuda = None


def cuda_histogram_py(x, xmin, xmax, histogram_out):
    """The seeds' histogram solution: grid-stride, one global atomic per element (the seed's
    loop bound, range(start, nbins, stride), is a typo for x.shape[0])."""
    nbins = histogram_out.shape[0]
    bin_width = (xmax - xmin) / nbins
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, x.shape[0], stride):
        bin_number = np.int32((x[i] - xmin) / bin_width)
        if bin_number >= 0 and bin_number < histogram_out.shape[0]:
            cuda.atomic.add(histogram_out, bin_number, 1)


def make_cuda_histogram_shared(nb):
    """The same with a per-block histogram in shared memory; its size is a compile-time constant
    in Numba, so one kernel per bin count."""

    def cuda_histogram_shared(x, xmin, xmax, histogram_out):
        local = cuda.shared.array(nb, np.int32)
        tid = cuda.threadIdx.x
        nt = cuda.blockDim.x
        for j in range(tid, nb, nt):
            local[j] = 0
        cuda.syncthreads()
        bin_width = (xmax - xmin) / nb
        for i in range(cuda.grid(1), x.shape[0], cuda.gridsize(1)):
            bin_number = np.int32((x[i] - xmin) / bin_width)
            if bin_number >= 0 and bin_number < nb:
                cuda.atomic.add(local, bin_number, 1)
        cuda.syncthreads()
        for j in range(tid, nb, nt):
            if local[j] != 0:
                cuda.atomic.add(histogram_out, j, local[j])
    return cuda_histogram_shared


def cuda_zero_py(h):
    """h[:] = 0 as a kernel: queued on the stream like loom's fill, no host round trip."""
    i = cuda.grid(1)
    if i < h.shape[0]:
        h[i] = 0


def hypot_stride_py(a, b, c):  # the seeds' solution
    start = cuda.grid(1)
    stride = cuda.gridsize(1)
    for i in range(start, a.shape[0], stride):
        c[i] = math.hypot(a[i], b[i])


def make_xoroshiro_fill(draw):
    """out[i] = numba.cuda.random.<draw>(states, thread) over a grid-stride loop: how a Numba
    user fills a device array with random numbers (one xoroshiro128p state per thread)."""
    from numba.cuda import random as curand
    fn = getattr(curand, draw)

    def xoroshiro_fill(states, out):
        tid = cuda.grid(1)
        for i in range(tid, out.shape[0], cuda.gridsize(1)):
            out[i] = fn(states, tid)
    return xoroshiro_fill


def make_compute_pi():
    """numba.cuda.random's documented example, compute_pi, as loom's random_compute_pi."""
    from numba.cuda.random import xoroshiro128p_uniform_float32

    def compute_pi(rng_states, iterations, out):
        thread_id = cuda.grid(1)
        inside = 0
        for i in range(iterations):
            x = xoroshiro128p_uniform_float32(rng_states, thread_id)
            y = xoroshiro128p_uniform_float32(rng_states, thread_id)
            if x ** 2 + y ** 2 <= 1.0:
                inside += 1
        out[thread_id] = 4.0 * inside / iterations
    return compute_pi


def sum_row_py(A, s):  # the seeds' @guvectorize sum_row, layout (n,m)->(n)
    for i in range(A.shape[0]):
        tmp = 0.
        for j in range(A.shape[1]):
            tmp += A[i, j]
        s[i] = tmp


# --------------------------------------------------------------------------------------------
# Clocks. "host": perf_counter around k calls, synchronizing the GPU before starting and before
# stopping (host arrays, one-element calls: the time a caller waits). "cupy"/"numba": CUDA
# events recorded on the stream the calls go to, around k calls (device arrays: GPU time).

class HostClock:
    name = "perf_counter"

    def __init__(self, peers):
        self.peers = peers

    def time(self, fn, k):
        sync = self.peers.sync
        sync()
        c0, t0 = time.process_time(), time.perf_counter()
        for _ in range(k):
            fn()
        sync()
        t1, c1 = time.perf_counter(), time.process_time()
        return (t1 - t0) / k, (c1 - c0) / k


class CupyEventClock:
    name = "cupy.cuda.Event"

    def __init__(self, peers):
        self.cp = peers.cp

    def time(self, fn, k):
        cp = self.cp
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        cp.cuda.Device().synchronize()
        c0 = time.process_time()
        start.record()
        for _ in range(k):
            fn()
        stop.record()
        stop.synchronize()
        c1 = time.process_time()
        return cp.cuda.get_elapsed_time(start, stop) * 1e-3 / k, (c1 - c0) / k


class NumbaEventClock:
    name = "numba.cuda.event"

    def __init__(self, peers):
        self.cuda = peers.cuda

    def time(self, fn, k):
        cuda = self.cuda
        start, stop = cuda.event(), cuda.event()
        cuda.synchronize()
        c0 = time.process_time()
        start.record()  # default stream, the one the calls below use
        for _ in range(k):
            fn()
        stop.record()
        stop.synchronize()
        c1 = time.process_time()
        return cuda.event_elapsed_time(start, stop) * 1e-3 / k, (c1 - c0) / k


def measure(fn, clock, opts):
    """Median (and best) seconds per call of fn after warm-up; k calls per sample so that a
    sample lasts at least opts.sample_time; samples until min_time and min_reps are reached."""
    first = None
    for _ in range(opts.warmup):
        first = fn()  # the first call compiles (numba) or builds the kernel (cupy)
    one, _ = clock.time(fn, 1)
    k = max(1, min(100000, int(math.ceil(opts.sample_time / max(one, 1e-9)))))
    samples, cpu, total = [], [], 0.0
    deadline = time.perf_counter() + opts.max_time
    while True:
        t, c = clock.time(fn, k)
        samples.append(t)
        cpu.append(c)
        total += t * k
        if len(samples) >= opts.max_reps:
            break
        if len(samples) >= opts.min_reps and total >= opts.min_time:
            break
        if len(samples) >= 3 and time.perf_counter() > deadline:
            break
    return {"median": statistics.median(samples), "best": min(samples),
            "mean": statistics.fmean(samples), "cpu": statistics.median(cpu),
            "reps": len(samples), "k": k}, first


# --------------------------------------------------------------------------------------------
# Cases. A Group is one loom-bench case (its name without the target): inputs made once, a NumPy
# reference, and one runner per peer. A runner is make(inputs) -> (fn, clock kind), where fn()
# returns its result (for the correctness check against NumPy).

class Group:
    def __init__(self, key, make_inputs, ref, nbytes, items, tol, runners):
        self.key, self.make_inputs, self.ref = key, make_inputs, ref
        self.nbytes, self.items, self.tol, self.runners = nbytes, items, tol, runners


def to_host(P, r):
    if r is None:
        return None
    if hasattr(r, "copy_to_host"):
        return r.copy_to_host()
    if P.cp is not None and isinstance(r, P.cp.ndarray):
        return P.cp.asnumpy(r)
    return np.asarray(r)


def rel_diff(a, ref):
    cplx = np.iscomplexobj(a) or np.iscomplexobj(ref)
    a = np.asarray(a, dtype=np.complex128 if cplx else np.float64)
    ref = np.asarray(ref, dtype=np.complex128 if cplx else np.float64)
    if a.shape != ref.shape:
        return float("inf")
    scale = max(float(np.max(np.abs(ref))) if ref.size else 0.0, 1e-300)
    return float(np.max(np.abs(a - ref))) / scale if ref.size else 0.0


def binary_ufunc_runners(P, op, with_out):
    """sinexp / maximum / add on two inputs: NumPy, numba vectorize (cpu, parallel, cuda on
    device and host arrays), CuPy ElementwiseKernel (device arrays, and host arrays with
    transfers)."""

    def numpy_(inp):
        x, y = inp
        if op == "sinexp":
            if with_out:
                out, tmp = np.empty_like(x), np.empty_like(x)

                def fn():  # sin(x)*exp(y) without temporaries: what out= buys a NumPy user
                    np.sin(x, out=tmp)
                    np.exp(y, out=out)
                    return np.multiply(tmp, out, out=out)
            else:
                def fn():
                    return np.sin(x) * np.exp(y)
            return fn, "host"
        npf = {"maximum": np.maximum, "add": np.add}[op]
        if with_out:
            out = np.empty_like(x)
            return (lambda: npf(x, y, out=out)), "host"
        return (lambda: npf(x, y)), "host"

    def numba_host(target):
        def make(inp):
            x, y = inp
            f = P.vectorize(op, target)
            if with_out:
                out = np.empty_like(x)
                return (lambda: f(x, y, out=out)), "host"
            return (lambda: f(x, y)), "host"
        return make

    def numba_cuda(inp):
        x, y = inp
        f = P.vectorize(op, "cuda")
        dx, dy = P.cuda.to_device(x), P.cuda.to_device(y)
        if with_out:
            dout = P.cuda.device_array_like(dx)
            return (lambda: f(dx, dy, out=dout)), "numba"
        return (lambda: f(dx, dy)), "numba"

    def numba_cuda_host(inp):  # host arrays in and out: transfers included
        x, y = inp
        f = P.vectorize(op, "cuda")
        if with_out:
            # numba-cuda asserts that a host out= has the raveled shape (deviceufunc.py,
            # out.shape == shape) when ndim > 1: give it a flat view of the same memory.
            out = np.empty_like(x)
            flat = out.reshape(-1)
            return (lambda: f(x, y, out=flat)), "host"
        return (lambda: f(x, y)), "host"

    def cupy_(inp):
        x, y = inp
        cp, k = P.cp, P.cupy_kernel(op)
        dx, dy = cp.asarray(x), cp.asarray(y)
        if with_out:
            dout = cp.empty_like(dx)
            return (lambda: k(dx, dy, dout)), "cupy"
        return (lambda: k(dx, dy)), "cupy"

    def cupy_host(inp):  # what a CuPy user writes for host arrays: asarray in, get out
        x, y = inp
        cp, k = P.cp, P.cupy_kernel(op)
        if with_out:
            out = np.empty_like(x)
            return (lambda: k(cp.asarray(x), cp.asarray(y)).get(out=out)), "host"
        return (lambda: k(cp.asarray(x), cp.asarray(y)).get()), "host"

    return {"numpy": numpy_, "numba_cpu": numba_host("cpu"),
            "numba_parallel": numba_host("parallel"), "numba_cuda": numba_cuda,
            "numba_cuda_host": numba_cuda_host, "cupy": cupy_, "cupy_host": cupy_host}


def sum_row_runners(P):
    def numpy_(inp):
        (a,) = inp
        out = np.empty(a.shape[:-1], a.dtype)
        return (lambda: np.sum(a, axis=-1, out=out)), "host"

    def numba_host(target):
        def make(inp):
            (a,) = inp
            g = P.guvectorize_sum_row(target)
            out = np.empty(a.shape[:-1], a.dtype)
            return (lambda: g(a, out)), "host"
        return make

    def numba_cuda(inp):
        (a,) = inp
        g = P.guvectorize_sum_row("cuda")
        da = P.cuda.to_device(a)
        dout = P.cuda.device_array(a.shape[:-1], a.dtype)
        return (lambda: g(da, dout)), "numba"

    def numba_cuda_host(inp):
        (a,) = inp
        g = P.guvectorize_sum_row("cuda")
        return (lambda: g(a)), "host"

    def cupy_(inp):
        (a,) = inp
        cp = P.cp
        da = cp.asarray(a)
        dout = cp.empty(a.shape[:-1], a.dtype)
        return (lambda: cp.sum(da, axis=-1, out=dout)), "cupy"

    def cupy_host(inp):
        (a,) = inp
        cp = P.cp
        return (lambda: cp.sum(cp.asarray(a), axis=-1).get()), "host"

    return {"numpy": numpy_, "numba_cpu": numba_host("cpu"),
            "numba_parallel": numba_host("parallel"), "numba_cuda": numba_cuda,
            "numba_cuda_host": numba_cuda_host, "cupy": cupy_, "cupy_host": cupy_host}


def reduce_runners(P, op):
    def numpy_(inp):
        (x,) = inp
        f = np.sum if op == "sum" else np.prod
        return (lambda: f(x)), "host"

    def numba_host(parallel):  # @njit x.sum() / x.prod(); parallel=True parallelises it
        def make(inp):
            (x,) = inp
            f = P.njit_reduce(op, parallel)
            return (lambda: f(x)), "host"
        return make

    # cuda.reduce's init defaults to 0, which a product keeps: give it the identity.
    init = 0 if op == "sum" else 1

    def numba_cuda(inp):  # @cuda.reduce, as in the seeds; returns the value to the host
        (x,) = inp
        r = P.cuda_reduce(op)
        dx = P.cuda.to_device(x)
        return (lambda: r(dx, init=init)), "numba"

    def numba_cuda_host(inp):
        (x,) = inp
        r = P.cuda_reduce(op)
        return (lambda: r(x, init=init)), "host"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        dx = cp.asarray(x)
        f = cp.sum if op == "sum" else cp.prod
        return (lambda: f(dx)), "cupy"

    def cupy_host(inp):
        (x,) = inp
        cp = P.cp
        f = cp.sum if op == "sum" else cp.prod
        return (lambda: f(cp.asarray(x)).get()), "host"

    return {"numpy": numpy_, "numba_cpu": numba_host(False),
            "numba_parallel": numba_host(True), "numba_cuda": numba_cuda,
            "numba_cuda_host": numba_cuda_host, "cupy": cupy_, "cupy_host": cupy_host}


# The ufunc methods (issue 11): loom-bench's add_accumulate, add_at_100000bins and
# subtract_reduce_axis1 cases (apps/bench/method_cases.cpp). NumPy and CuPy only: Numba has no
# parallel or CUDA scan, scatter-add or non-reorderable reduce of its own to compare with.

AT_BINS, AT_UPDATES = 100_000, 10_000_000
REDUCE_SHAPE = (4096, 4096)


def accumulate_runners(P):
    """np.cumsum(x) / cupy.cumsum(x): the result allocated by every call, as loom-bench's case."""

    def numpy_(inp):
        (x,) = inp
        return (lambda: np.cumsum(x)), "host"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        dx = cp.asarray(x)
        return (lambda: cp.cumsum(dx)), "cupy"

    return {"numpy": numpy_, "cupy": cupy_}


def at_runners(P):
    """np.add.at(a, idx, b) / cupyx.scatter_add(a, idx, b) (cupy.add.at where cupyx has none), in
    place and repeated on the same bins as loom-bench does. In-place calls return the bins after
    the warm-up, not one call's result, so each runner checks one call on zero bins itself
    (exactly for NumPy and integers, within 1e-12 for CuPy's float atomics) and raises if it
    differs."""

    def check(got, want, exact, who):
        got = np.asarray(got)
        if exact:
            ok = np.array_equal(got, want)
        else:
            ok = np.max(np.abs(got - want) / np.maximum(np.abs(want), 1.0)) <= 1e-12
        if not ok:
            raise AssertionError(f"{who}: one call on zero bins differs from np.add.at's")

    def numpy_(inp):
        idx, b, want = inp
        a = np.zeros(AT_BINS, want.dtype)
        np.add.at(a, idx, b)
        check(a, want, True, "np.add.at")
        return (lambda: np.add.at(a, idx, b)), "host"

    def cupy_(inp):
        idx, b, want = inp
        cp = P.cp
        try:
            import cupyx
            scatter = cupyx.scatter_add
        except (ImportError, AttributeError):
            scatter = cp.add.at
        da, di, db = cp.zeros(AT_BINS, want.dtype), cp.asarray(idx), cp.asarray(b)
        scatter(da, di, db)
        check(cp.asnumpy(da), want, want.dtype.kind != "f", "cupyx.scatter_add")
        return (lambda: scatter(da, di, db)), "cupy"

    return {"numpy": numpy_, "cupy": cupy_}


def subtract_reduce_runners(P):
    """np.subtract.reduce(x, axis=1, out=o): NumPy's in-order fold per row. CuPy's ufuncs have
    reduce only in recent versions; where it is missing or refuses, the entry is an error."""

    def numpy_(inp):
        (x,) = inp
        out = np.empty(x.shape[0])
        return (lambda: np.subtract.reduce(x, axis=1, out=out)), "host"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        dx = cp.asarray(x)
        dout = cp.empty(x.shape[0])
        return (lambda: cp.subtract.reduce(dx, axis=1, out=dout)), "cupy"

    return {"numpy": numpy_, "cupy": cupy_}


def one_element_runners(P, with_out):
    """The dispatch overhead: one float64 add, host time per call (the GPU ones on device
    arrays, timed with perf_counter: k calls back to back, one synchronize at the end)."""
    r = binary_ufunc_runners(P, "add", with_out)

    def host_clock(make):
        def wrapped(inp):
            fn, _ = make(inp)
            return fn, "host"
        return wrapped

    return {p: host_clock(m) for p, m in r.items()}


def copy_runners(P):
    """memcpy/<dtype>/<size>: one array copied into another. numpy: np.copyto on the host (one
    thread); numba_parallel: a prange copy loop on every thread (STREAM copy: the machine's
    bandwidth, which one thread does not reach); cupy / numba_cuda: device to device. Bytes are
    read + written, as loom-bench counts them."""

    def numpy_(inp):
        (x,) = inp
        dst = np.empty_like(x)
        return (lambda: np.copyto(dst, x)), "host"

    def numba_parallel(inp):
        (x,) = inp
        dst = np.empty_like(x)
        f = P.parallel_copy()
        return (lambda: f(dst, x)), "host"

    def numba_cuda(inp):
        (x,) = inp
        src = P.cuda.to_device(x)
        dst = P.cuda.device_array_like(src)
        return (lambda: dst.copy_to_device(src)), "numba"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        src = cp.asarray(x)
        dst = cp.empty_like(src)
        return (lambda: cp.copyto(dst, src)), "cupy"

    return {"numpy": numpy_, "numba_parallel": numba_parallel, "numba_cuda": numba_cuda,
            "cupy": cupy_}


def transfer_runners(P, direction):
    """copy_h2d / copy_d2h: pageable host memory to and from the device, the path a call on
    host arrays takes. Bytes are the bytes moved once."""

    def numba_cuda(inp):
        (x,) = inp
        d = P.cuda.to_device(x)
        h = np.empty_like(x)
        if direction == "h2d":
            return (lambda: d.copy_to_device(x)), "host"
        return (lambda: d.copy_to_host(h)), "host"

    def cupy_(inp):
        (x,) = inp
        d = P.cp.asarray(x)
        h = np.empty_like(x)
        if direction == "h2d":
            return (lambda: d.set(x)), "host"
        return (lambda: d.get(out=h)), "host"

    return {"numba_cuda": numba_cuda, "cupy": cupy_}


# Custom kernels: loom-bench's kernel_* cases. The histogram's range and launch configuration
# are loom-bench's (apps/bench/loom_cases.cpp: kKernelBlocks x kKernelThreads).
HIST_RANGE = (np.float32(-4.0), np.float32(4.0))
KERNEL_BLOCKS, KERNEL_THREADS = 1024, 256


def seed_histogram(x, nbins):
    """The seeds' cpu_histogram, vectorised: bin = int32((x - xmin) / bin_width) in float32,
    counted when in [0, nbins)."""
    xmin, xmax = HIST_RANGE
    width = np.float32((xmax - xmin) / np.float32(nbins))
    q = (x - xmin) / width
    q = q[(q > -1) & (q < nbins)]  # also drops NaN before the int conversion
    return np.bincount(q.astype(np.int32), minlength=nbins)[:nbins]


def histogram_runners(P, nbins, shared):
    """numpy: np.histogram; numba_cpu / numba_parallel: @njit loops with the seeds' rule;
    numba_cuda: the seeds' @cuda.jit kernel (global atomics, or per-block shared-memory
    histograms when shared) on [1024, 256] like loom's cuda case, counts zeroed by a kernel before
    each launch; cupy: cupy.histogram(x, bins, range) (edges in float64: a few elements on bin
    edges may land in the neighbour bin)."""
    xmin, xmax = HIST_RANGE

    def numpy_(inp):
        (x,) = inp
        return (lambda: np.histogram(x, bins=nbins, range=(float(xmin), float(xmax)))[0]), "host"

    def numba_host(parallel):
        def make(inp):
            (x,) = inp
            f = P.njit_histogram(parallel)
            return (lambda: f(x, xmin, xmax, nbins)), "host"
        return make

    def numba_cuda(inp):
        (x,) = inp
        k = P.cuda_histogram(shared, nbins)
        zero = P.cuda_zero()
        dx = P.cuda.to_device(x)
        dh = P.cuda.device_array(nbins, np.int32)
        zb = (nbins + 255) // 256

        def fn():
            zero[zb, 256](dh)
            k[KERNEL_BLOCKS, KERNEL_THREADS](dx, xmin, xmax, dh)
            return dh
        return fn, "numba"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        dx = cp.asarray(x)
        return (lambda: cp.histogram(dx, bins=nbins, range=(float(xmin), float(xmax)))[0]), "cupy"

    return {"numpy": numpy_, "numba_cpu": numba_host(False), "numba_parallel": numba_host(True),
            "numba_cuda": numba_cuda, "cupy": cupy_}


def hypot_runners(P):
    """numpy: np.hypot(a, b, out=c); numba_cpu / numba_parallel: @njit (prange) loop of
    math.hypot; numba_cuda: the seeds' hypot_stride on a grid that fills the device (SMs x
    resident threads per SM / 256 blocks of 256); cupy: cupy.hypot(a, b, out=c)."""

    def numpy_(inp):
        a, b = inp
        c = np.empty_like(a)
        return (lambda: np.hypot(a, b, out=c)), "host"

    def numba_host(parallel):
        def make(inp):
            a, b = inp
            f = P.njit_hypot(parallel)
            c = np.empty_like(a)

            def fn():
                f(a, b, c)
                return c
            return fn, "host"
        return make

    def numba_cuda(inp):
        a, b = inp
        k = P.cuda_hypot_stride()
        da, db = P.cuda.to_device(a), P.cuda.to_device(b)
        dc = P.cuda.device_array_like(da)
        blocks = P.cuda_full_grid(256)

        def fn():
            k[blocks, 256](da, db, dc)
            return dc
        return fn, "numba"

    def cupy_(inp):
        a, b = inp
        cp = P.cp
        da, db = cp.asarray(a), cp.asarray(b)
        dc = cp.empty_like(da)
        return (lambda: cp.hypot(da, db, out=dc)), "cupy"

    return {"numpy": numpy_, "numba_cpu": numba_host(False), "numba_parallel": numba_host(True),
            "numba_cuda": numba_cuda, "cupy": cupy_}


# The catalogue's cases (apps/bench/catalogue_cases.cpp): x = linspace(lo, hi, n), and for two
# inputs y = full(n, y), in float64 then cast (as loom-bench makes them). NumPy and CuPy call the
# ufunc of that name with out=.
CATALOGUE = {  # op: (lo, hi, y or None)
    "multiply": (0, 1, 2.0), "less": (0, 1, 0.5), "sin": (0, 2 * math.pi, None),
    "exp": (-10, 10, None), "log": (0.01, 100, None), "arctan2": (-1, 1, 0.7),
    "power": (0.5, 2, 2.5),
}
CATALOGUE_DTYPES = {"float32": np.float32, "float16": np.float16, "complex64": np.complex64}


def catalogue_runners(P, op):
    def numpy_(inp):
        f = getattr(np, op)
        outs = [np.empty(inp[0].shape, f(*[a[:1] for a in inp]).dtype)]
        return (lambda: f(*inp, out=outs[0])), "host"

    def cupy_(inp):
        cp = P.cp
        f = getattr(cp, op)
        d = [cp.asarray(a) for a in inp]
        out = cp.empty(inp[0].shape, f(*[a[:1] for a in d]).dtype)
        return (lambda: f(*d, out=out)), "cupy"

    return {"numpy": numpy_, "cupy": cupy_}


def catalogue_groups(P, S):
    """cat_<op>/<dtype>/<size>: the same (op, dtype) pairs loom-bench registers."""
    n = S.large_n
    pairs = [(op, "float32") for op in ("multiply", "less", "sin", "exp", "log", "arctan2",
                                        "power")]
    pairs += [(op, dt) for op in ("multiply", "exp") for dt in ("float16", "complex64")]
    groups = []
    for op, dtn in pairs:
        lo, hi, y = CATALOGUE[op]
        dt = CATALOGUE_DTYPES[dtn]

        def make(lo=lo, hi=hi, y=y, dt=dt):
            xs = [np.linspace(lo, hi, n).astype(dt)]
            if y is not None:
                xs.append(np.full(n, y).astype(dt))
            return xs

        def ref(*a, op=op):
            return getattr(np, op)(*a)

        isz = np.dtype(dt).itemsize
        out_sz = 1 if op == "less" else isz
        tol = 1e-2 if dtn == "float16" else 1e-5
        groups.append(Group(f"cat_{op}/{dtn}/{size_label(n)}", make, ref,
                            n * (isz * (2 if y is not None else 1) + out_sz), n, tol,
                            catalogue_runners(P, op)))
    return groups


# Batched linear algebra (issue 14): loom-bench's apps/bench/linalg_cases.cpp. NumPy on the host
# cases' sizes, CuPy (device arrays, and host arrays with transfers) on the device ones; cupy.matmul
# on 3-d arrays is cuBLAS's gemmStridedBatched, the baseline for loom's batched matmul.
LINALG_BATCH256, LINALG_SOLVE_HOST, LINALG_SOLVE_DEVICE = 64, 1024, 4096


def linalg_matrices(shape, diag, seed, dtype=np.float64):
    """uniform(-1, 1) matrices plus diag on each diagonal, as loom-bench's (another generator)."""
    a = np.random.default_rng(seed).uniform(-1, 1, shape)
    a += diag * np.eye(shape[-1])
    return a.astype(dtype)


def linalg_runners(P, op, peers):
    """np.matmul (out=) / np.linalg.det / inv / solve, and cupy's of the same name; numpy.linalg
    and cupy.linalg have no out=, so those allocate their result per call (loom's cases give
    out=)."""

    def fn_of(mod):
        if op == "matmul":
            return mod.matmul
        return getattr(mod.linalg, op)

    def numpy_(inp):
        f = fn_of(np)
        if op == "matmul":
            out = np.matmul(*inp)
            return (lambda: f(*inp, out=out)), "host"
        return (lambda: f(*inp)), "host"

    def cupy_(inp):
        cp = P.cp
        f = fn_of(cp)
        d = [cp.asarray(a) for a in inp]
        if op == "matmul":
            out = cp.matmul(*d)
            return (lambda: f(*d, out=out)), "cupy"
        return (lambda: f(*d)), "cupy"

    def cupy_host(inp):
        cp = P.cp
        f = fn_of(cp)
        return (lambda: f(*[cp.asarray(a) for a in inp]).get()), "host"

    runners = {"numpy": numpy_, "cupy": cupy_, "cupy_host": cupy_host}
    return {p: runners[p] for p in peers}


def linalg_groups(P, S):
    groups = []
    b = S.linalg_batch
    small = (b, 4, 4)
    key = shape_label(small)
    every = ("numpy", "cupy", "cupy_host")
    groups.append(Group(f"matmul/float64/{key}",
                        lambda: [linalg_matrices(small, 0, 141), linalg_matrices(small, 0, 142)],
                        np.matmul, 3 * b * 16 * 8, b, 1e-12,
                        linalg_runners(P, "matmul", every)))
    groups.append(Group(f"det/float64/{key}", lambda: [linalg_matrices(small, 4, 143)],
                        np.linalg.det, b * (16 + 1) * 8, b, 1e-10,
                        linalg_runners(P, "det", every)))
    groups.append(Group(f"inv/float64/{key}", lambda: [linalg_matrices(small, 4, 143)],
                        np.linalg.inv, 2 * b * 16 * 8, b, 1e-10,
                        linalg_runners(P, "inv", every)))
    big = (LINALG_BATCH256, 256, 256)
    groups.append(Group(f"matmul/float32/{shape_label(big)}",
                        lambda: [linalg_matrices(big, 0, 144, np.float32),
                                 linalg_matrices(big, 0, 145, np.float32)],
                        lambda x, y: np.matmul(x.astype(np.float64), y.astype(np.float64)),
                        3 * math.prod(big) * 4, LINALG_BATCH256, 1e-5,
                        linalg_runners(P, "matmul", ("cupy", "cupy_host"))))
    for n, peers in ((LINALG_SOLVE_HOST, ("numpy",)), (LINALG_SOLVE_DEVICE, ("cupy", "cupy_host"))):
        groups.append(Group(f"solve/float64/{n}x{n}",
                            lambda n=n: [linalg_matrices((n, n), 0, 146),
                                         np.random.default_rng(147).uniform(-1, 1, (n, 1))],
                            np.linalg.solve, (n * n + 2 * n) * 8, 1, 1e-8,
                            linalg_runners(P, "solve", peers)))
    return groups


# loom::random (issue 27): loom-bench's random_* cases (apps/bench/random_cases.cpp). Each
# generator fills a preallocated array where its API has out= (NumPy's and CuPy's Generator
# random / standard_normal); integers and CuPy's legacy functions allocate their result. Other
# generators give other bits, so each runner checks its own first array's mean instead of NumPy's.
RANDOM_SEED = 2027
RANDOM_INT_RANGE = (0, 1000)  # [low, high), a span below 2^32 as loom-bench's
PI_BLOCKS, PI_THREADS = 1024, 256  # loom-bench's random_monte_carlo_pi grid


def check_draw(arr, draw):
    """The mean within 6 standard errors of the distribution's, as loom-bench checks its own."""
    a = np.asarray(arr, dtype=np.float64)
    lo, hi = RANDOM_INT_RANGE
    want, sd = {"uniform": (0.5, 1 / math.sqrt(12)), "normal": (0.0, 1.0),
                "integers": ((hi - lo - 1) / 2 + lo, (hi - lo) / math.sqrt(12))}[draw]
    if not abs(a.mean() - want) <= 6 * sd / math.sqrt(a.size):
        raise AssertionError(f"{draw}: mean {a.mean():.6g}, expected {want:.6g}")


def random_runners(P, draw, dtn):
    """numpy: np.random.default_rng (PCG64), one thread; cupy: cupy.random.default_rng (XORWOW);
    cupy_philox: cupy.random.Generator(Philox4x3210) (loom's algorithm); cupy_legacy:
    cupy.random.RandomState (cuRAND's XORWOW: cupy.random.uniform / standard_normal / randint);
    numba_cuda: a grid-stride kernel of numba.cuda.random's xoroshiro128p draws on a full grid."""
    dt = np.dtype(dtn)
    lo, hi = RANDOM_INT_RANGE

    def numpy_(inp):
        (n,) = inp
        rng = np.random.default_rng(RANDOM_SEED)
        out = None if draw == "integers" else np.empty(n, dt)
        fn = {"uniform": lambda: rng.random(n, dtype=dt, out=out),
              "normal": lambda: rng.standard_normal(n, dtype=dt, out=out),
              "integers": lambda: rng.integers(lo, hi, n, dtype=dt)}[draw]
        check_draw(fn(), draw)
        return fn, "host"

    def cupy_generator(make_bitgen):
        def make(inp):
            (n,) = inp
            cp = P.cp
            g = make_bitgen(cp)
            out = None if draw == "integers" else cp.empty(n, dt)
            fn = {"uniform": lambda: g.random(n, dtype=dt, out=out),
                  "normal": lambda: g.standard_normal(n, dtype=dt, out=out),
                  "integers": lambda: g.integers(lo, hi, n, dtype=dt)}[draw]
            check_draw(cp.asnumpy(fn()), draw)
            return fn, "cupy"
        return make

    def cupy_legacy(inp):
        (n,) = inp
        cp = P.cp
        rs = cp.random.RandomState(RANDOM_SEED)
        fn = {"uniform": lambda: rs.uniform(0.0, 1.0, n, dtype=dt),
              "normal": lambda: rs.standard_normal(n, dtype=dt),
              "integers": lambda: rs.randint(lo, hi, n, dtype=dt)}[draw]
        check_draw(cp.asnumpy(fn()), draw)
        return fn, "cupy"

    def numba_cuda(inp):
        (n,) = inp
        from numba.cuda.random import create_xoroshiro128p_states
        name = {"uniform": "xoroshiro128p_uniform_", "normal": "xoroshiro128p_normal_"}[draw]
        k = P.cuda_xoroshiro_fill(name + dtn)
        blocks = P.cuda_full_grid(256)
        states = create_xoroshiro128p_states(blocks * 256, seed=RANDOM_SEED)
        out = P.cuda.device_array(n, dt)

        def fn():
            k[blocks, 256](states, out)
            return out
        check_draw(fn().copy_to_host(), draw)
        return fn, "numba"

    runners = {"numpy": numpy_,
               "cupy": cupy_generator(lambda cp: cp.random.default_rng(RANDOM_SEED)),
               "cupy_philox": cupy_generator(
                   lambda cp: cp.random.Generator(cp.random.Philox4x3210(RANDOM_SEED))),
               "cupy_legacy": cupy_legacy}
    if draw != "integers":  # numba.cuda.random has no integers
        runners["numba_cuda"] = numba_cuda
    return runners


def monte_carlo_pi_runners(P):
    """numba_cuda: numba.cuda.random's compute_pi on [1024, 256], n // 262144 points a thread,
    states made once and advanced by every call, as loom-bench's case."""

    def numba_cuda(inp):
        (n,) = inp
        from numba.cuda.random import create_xoroshiro128p_states
        threads = PI_BLOCKS * PI_THREADS
        iterations = max(1, n // threads)
        k = P.cuda_compute_pi()
        states = create_xoroshiro128p_states(threads, seed=1)
        out = P.cuda.device_array(threads, np.float32)

        def fn():
            k[PI_BLOCKS, PI_THREADS](states, iterations, out)
            return out
        est = float(np.mean(fn().copy_to_host(), dtype=np.float64))
        se = math.sqrt(math.pi * (4 - math.pi) / (threads * iterations))
        if not abs(est - math.pi) <= 6 * se:
            raise AssertionError(f"compute_pi: estimate {est}")
        return fn, "numba"

    return {"numba_cuda": numba_cuda}


def random_groups(P, S):
    n = S.large_n
    groups = []
    for draw, dtn in (("uniform", "float32"), ("uniform", "float64"), ("normal", "float32"),
                      ("normal", "float64"), ("integers", "int64")):
        groups.append(Group(f"random_{draw}/{dtn}/{size_label(n)}", lambda n=n: [n], None,
                            n * np.dtype(dtn).itemsize, n, 0.0, random_runners(P, draw, dtn)))
    groups.append(Group(f"random_monte_carlo_pi/float32/{size_label(n)}", lambda n=n: [n], None,
                        0, n, 0.0, monte_carlo_pi_runners(P)))
    return groups


# loom::stats (issue 28): loom-bench's stats_* cases (apps/bench/stats_cases.cpp): mean, var and
# argmax of float32 in [0, 1), bincount of int32 in [0, 1000), histogram of float32 into 100
# equal bins of [0, 1). The inputs are made the same way as loom-bench's (an LCG), on the device
# once for CuPy.
STATS_VALUES, STATS_BINS = 1000, 100


def stats_input(kind, n):
    """loom-bench's LCG: z = z * 6364136223846793005 + 1442695040888963407 (mod 2^64)."""
    # The sequence by doubling (z_{k+m} = a^m z_k + c_m), so no Python loop over n.
    ak, ck = np.uint64(6364136223846793005), np.uint64(1442695040888963407)
    zk = np.array([2028], np.uint64)
    with np.errstate(over="ignore"):  # arithmetic mod 2^64 on purpose
        while zk.size < n + 1:
            m = min(zk.size, n + 1 - zk.size)
            zk = np.concatenate([zk, zk[:m] * ak + ck])
            ak, ck = ak * ak, ck * ak + ck
    z = zk[1:n + 1]
    if kind == "bincount":
        return ((z >> np.uint64(33)) % np.uint64(STATS_VALUES)).astype(np.int32)
    return ((z >> np.uint64(40)).astype(np.float64) / 16777216.0).astype(np.float32)


def stats_call(xp, stat, x):
    if stat == "mean":
        return xp.mean(x)
    if stat == "var":
        return xp.var(x)
    if stat == "argmax":
        return xp.argmax(x)
    if stat == "bincount":
        return xp.bincount(x)
    return xp.histogram(x, STATS_BINS, range=(0.0, 1.0))[0]


def stats_runners(P, stat):
    """numpy: np.<stat>, one thread; cupy: cupy.<stat> on a device array made once."""

    def numpy_(inp):
        (x,) = inp
        return (lambda: stats_call(np, stat, x)), "host"

    def cupy_(inp):
        (x,) = inp
        cp = P.cp
        d = cp.asarray(x)
        return (lambda: stats_call(cp, stat, d)), "cupy"

    return {"numpy": numpy_, "cupy": cupy_}


def stats_groups(P, S):
    n = S.large_n
    groups = []
    for stat in ("mean", "var", "argmax", "bincount", "histogram"):
        dtn = "int32" if stat == "bincount" else "float32"
        x = stats_input(stat, n)
        groups.append(Group(f"stats_{stat}/{dtn}/{size_label(n)}", lambda x=x: [x],
                            lambda x, stat=stat: stats_call(np, stat, x), x.nbytes, n,
                            1e-5 if stat in ("mean", "var") else 0.0, stats_runners(P, stat)))
    return groups


def build_groups(P, S):
    groups = []
    two_pi = 2 * math.pi
    f32, f64 = np.float32, np.float64

    def nbytes(n, dt, arrays):
        return n * np.dtype(dt).itemsize * arrays

    def lin_full(n, dt, lo, hi, fill):
        return lambda: [np.linspace(lo, hi, n, dtype=dt), np.full(n, fill, dt)]

    def ref_sinexp(x, y):
        return np.sin(x) * np.exp(y)

    # sinexp on the seeds' inputs: x = linspace(0, 2pi, n), y = 10; with out= and allocating.
    for dt in (f32, f64):
        for n in (S.small_n, S.large_n):
            groups.append(Group(f"sinexp/{np.dtype(dt).name}/{size_label(n)}",
                                lin_full(n, dt, 0, two_pi, 10), ref_sinexp, nbytes(n, dt, 3),
                                n, 1e-5 if dt == f32 else 1e-12,
                                binary_ufunc_runners(P, "sinexp", True)))
    n = S.small_n
    groups.append(Group(f"sinexp_alloc/float32/{size_label(n)}", lin_full(n, f32, 0, two_pi, 10),
                        ref_sinexp, nbytes(n, f32, 3), n, 1e-5,
                        binary_ufunc_runners(P, "sinexp", False)))

    # maximum of two random 256^3 float32 arrays (the seeds' 3-D example).
    def cube_inputs():
        rng = np.random.default_rng(1)
        return [rng.random(S.cube, dtype=np.float32), rng.random(S.cube, dtype=np.float32)]

    n = math.prod(S.cube)
    groups.append(Group(f"maximum/float32/{shape_label(S.cube)}", cube_inputs, np.maximum,
                        nbytes(n, f32, 3), n, 0.0, binary_ufunc_runners(P, "maximum", True)))

    for n in (S.small_n, S.large_n):
        groups.append(Group(f"add/float32/{size_label(n)}", lin_full(n, f32, 0, 1, 2), np.add,
                            nbytes(n, f32, 3), n, 1e-6, binary_ufunc_runners(P, "add", True)))

    # Reductions: sum of linspace(0, 1, n), prod of ones (no drift into denormals).
    for n in S.sum_sizes:
        groups.append(Group(f"sum/float32/{size_label(n)}",
                            lambda n=n: [np.linspace(0, 1, n, dtype=f32)],
                            lambda x: np.sum(x, dtype=np.float64), nbytes(n, f32, 1), n, 1e-3,
                            reduce_runners(P, "sum")))
    n = S.small_n
    groups.append(Group(f"prod/float32/{size_label(n)}", lambda n=n: [np.ones(n, f32)], np.prod,
                        nbytes(n, f32, 1), n, 1e-6, reduce_runners(P, "prod")))

    # sum_row: (instances, n, m) -> (instances, n), the seeds' @guvectorize.
    def sum_row_inputs():
        return [np.random.default_rng(3).random(S.sum_row, dtype=np.float32)]

    n = math.prod(S.sum_row)
    out_n = n // S.sum_row[-1]
    groups.append(Group(f"sum_row/float32/{shape_label(S.sum_row)}", sum_row_inputs,
                        lambda a: np.sum(a, axis=-1, dtype=np.float64), (n + out_n) * 4, n, 1e-5,
                        sum_row_runners(P)))

    # One element: dispatch overhead, allocating (add) and with out= (add_out).
    def one():
        return [np.full(1, 1.0), np.full(1, 2.0)]

    groups.append(Group("add/float64/1", one, np.add, 0, 1, 0.0, one_element_runners(P, False)))
    groups.append(Group("add_out/float64/1", one, np.add, 0, 1, 0.0,
                        one_element_runners(P, True)))

    # Other small calls, allocating (NumPy only; loom-bench has the same cases): a one-element
    # unary, a one-element array plus a Python float, and 1000 elements.
    def numpy_call(fn):
        return {"numpy": lambda inp: ((lambda: fn(*inp)), "host")}

    groups.append(Group("sin/float64/1", lambda: [np.full(1, 0.5)], np.sin, 0, 1, 0.0,
                        numpy_call(np.sin)))
    groups.append(Group("add_scalar/float64/1", lambda: [np.full(1, 1.0)],
                        lambda x: x + 2.0, 0, 1, 0.0, numpy_call(lambda x: np.add(x, 2.0))))
    groups.append(Group("add/float64/1000", lambda: [np.linspace(0, 1, 1000), np.full(1000, 2.0)],
                        np.add, nbytes(1000, f64, 3), 1000, 0.0, numpy_call(np.add)))

    # Custom kernels: the seeds' histogram (10 and 1024 bins over [-4, 4) of normal float32;
    # global atomics and per-block shared memory: two loom cases, the same CPU and CuPy peers)
    # and hypot_stride on uniform(-12, 12) float32, three arrays: the copy floor's case.
    normal_cache = {}

    def normal_inputs(n):
        def make():
            if n not in normal_cache:
                normal_cache.clear()  # one size at a time
                normal_cache[n] = np.random.default_rng(81).standard_normal(n, dtype=np.float32)
            return [normal_cache[n]]
        return make

    n = S.large_n
    for shared in (False, True):
        for nbins in (10, 1024):
            op = f"kernel_histogram{'_shared' if shared else ''}_{nbins}bins"
            groups.append(Group(f"{op}/float32/{size_label(n)}", normal_inputs(n),
                                lambda x, nbins=nbins: seed_histogram(x, nbins),
                                n * 4 + nbins * 4, n, 1e-3,
                                histogram_runners(P, nbins, shared)))

    def uniform_pair(n):
        def make():
            rng = np.random.default_rng(9)
            return [rng.uniform(-12, 12, n).astype(np.float32),
                    rng.uniform(-12, 12, n).astype(np.float32)]
        return make

    groups.append(Group(f"kernel_hypot_stride/float32/{size_label(n)}", uniform_pair(n), np.hypot,
                        nbytes(n, f32, 3), n, 1e-6, hypot_runners(P)))

    # The ufunc methods: add.accumulate of uniform(-1, 1) float32 (64M, 4M when small), checked
    # against a float64 running sum (a float32 scan drifts; NumPy's own does too); add.at of 1e7
    # values (uniform [0, 1) float64, or int64 in [0, 1000)) at uniform random indices into 1e5
    # bins; subtract.reduce of
    # uniform [0, 1) float64 (4096, 4096) along the last axis.
    n = S.large_n
    groups.append(Group(f"add_accumulate/float32/{size_label(n)}",
                        lambda n=n: [np.random.default_rng(111).uniform(-1, 1, n).astype(f32)],
                        lambda x: np.cumsum(x, dtype=np.float64), nbytes(n, f32, 2), n, 1e-2,
                        accumulate_runners(P)))

    def at_inputs(dt):
        def make():
            rng = np.random.default_rng(121)
            idx = rng.integers(0, AT_BINS, AT_UPDATES)
            b = rng.random(AT_UPDATES) if dt == f64 else rng.integers(0, 1000, AT_UPDATES)
            want = np.zeros(AT_BINS, dt)
            np.add.at(want, idx, b)
            return [idx, b, want]
        return make

    # float64: loom's ordered path on parallel; int64 (whole numbers in [0, 1000)): its atomics.
    for dt in (f64, np.int64):
        groups.append(Group(f"add_at_{AT_BINS}bins/{np.dtype(dt).name}/{AT_UPDATES}",
                            at_inputs(dt), None, AT_UPDATES * 16 + AT_BINS * 16, AT_UPDATES, 0.0,
                            at_runners(P)))
    n = math.prod(REDUCE_SHAPE)
    groups.append(Group(f"subtract_reduce_axis1/float64/{shape_label(REDUCE_SHAPE)}",
                        lambda: [np.random.default_rng(131).random(REDUCE_SHAPE)],
                        lambda x: np.subtract.reduce(x, axis=1), (n + REDUCE_SHAPE[0]) * 8, n,
                        1e-9, subtract_reduce_runners(P)))

    # Bandwidth ceilings: copy of loom-bench's baseline_memcpy size (joins with it), and of
    # 256 MiB whatever the size (the copy bandwidth the issues' goals are read against).
    copy_sizes = sorted({S.large_n, 64 << 20})
    for n in copy_sizes:
        groups.append(Group(f"memcpy/float32/{size_label(n)}",
                            lambda n=n: [np.linspace(0, 1, n, dtype=f32)], lambda x: x,
                            nbytes(n, f32, 2), n, 0.0, copy_runners(P)))
    n = 64 << 20
    for d in ("h2d", "d2h"):
        groups.append(Group(f"copy_{d}/float32/{size_label(n)}",
                            lambda n=n: [np.linspace(0, 1, n, dtype=f32)], None,
                            nbytes(n, f32, 1), n, 0.0, transfer_runners(P, d)))
    groups += catalogue_groups(P, S)
    groups += linalg_groups(P, S)
    groups += random_groups(P, S)
    groups += stats_groups(P, S)
    return groups


# --------------------------------------------------------------------------------------------

def pick_unit(seconds):
    if seconds < 1e-6:
        return "ns", 1e9
    if seconds < 1e-3:
        return "us", 1e6
    return "ms", 1e3


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def run(args):
    want = set(args.peers.split(",")) if args.peers else set(HOST_PEERS + CUDA_PEERS)
    unknown = want - set(HOST_PEERS + CUDA_PEERS)
    if unknown:
        sys.exit(f"peers: unknown peer(s) {sorted(unknown)}; known: {HOST_PEERS + CUDA_PEERS}")
    S = Sizes(args.small)
    # Compile nothing and import nothing for --list.
    P = Peers(set() if args.list else want)
    rx = re.compile(args.filter) if args.filter else None
    clocks = {"host": HostClock(P)}
    if P.cp is not None:
        clocks["cupy"] = CupyEventClock(P)
    if P.cuda is not None:
        clocks["numba"] = NumbaEventClock(P)

    results = []
    for g in build_groups(P, S):
        names = [(peer, f"{g.key}/{peer}") for peer in g.runners if peer in want]
        names = [(p, nm) for p, nm in names if rx is None or rx.search(nm)]
        if args.list:
            for _, nm in names:
                print(nm)
            continue
        names = [(p, nm) for p, nm in names if P.available(p)]
        if not names:
            continue
        inputs = g.make_inputs()
        ref = g.ref(*inputs) if g.ref is not None else None
        for peer, name in names:
            entry = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
                     "repetition_index": 0, "threads": 1, "peer": peer, "case": g.key}
            try:
                fn, clock = g.runners[peer](inputs)
                m, first = measure(fn, clocks[clock], args)
            except Exception as e:
                msg = f"{type(e).__name__}: {e}".strip().splitlines()[0][:300]
                tb = traceback.extract_tb(e.__traceback__)
                if tb:
                    msg += f" (at {os.path.basename(tb[-1].filename)}:{tb[-1].lineno})"
                log(f"{name}: error: {msg}")
                entry.update(error_occurred=True, error_message=msg, iterations=0,
                             real_time=0, cpu_time=0, time_unit="ns")
                results.append(entry)
                continue
            unit, scale = pick_unit(m["median"])
            entry.update(iterations=m["k"] * m["reps"], repetitions=m["reps"],
                         real_time=m["median"] * scale, cpu_time=m["cpu"] * scale,
                         time_unit=unit, best_real_time=m["best"] * scale,
                         mean_real_time=m["mean"] * scale, clock=clocks[clock].name)
            if g.nbytes:
                entry["bytes_per_second"] = g.nbytes / m["median"]
            entry["items_per_second"] = g.items / m["median"]
            if ref is not None and first is not None:
                try:
                    d = rel_diff(to_host(P, first), ref)
                    entry["max_rel_diff_vs_numpy"] = d
                    if d > g.tol:
                        log(f"{name}: note: result differs from NumPy's (max |diff| / max |ref| "
                            f"= {d:.3g} > {g.tol:g})")
                except Exception as e:
                    log(f"{name}: could not check the result: {type(e).__name__}: {e}")
            results.append(entry)
            bw = (f"  {entry['bytes_per_second'] / 1e9:8.1f} GB/s"
                  if "bytes_per_second" in entry else "")
            log(f"{name:45s} {entry['real_time']:10.4g} {unit}{bw}")
        del inputs, ref
        gc.collect()
        if P.cp is not None:
            P.cp.get_default_memory_pool().free_all_blocks()

    if args.list:
        return None
    versions = dict(P.versions)
    ctx = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "host_name": socket.gethostname(),
        "executable": os.path.abspath(__file__),
        "num_cpus": os.cpu_count(),
        "cpu_model": cpu_model(),
        "gpu": P.gpu,
        "library_build_type": "release",
        "loom_peers": {
            "versions": versions,
            "small": bool(args.small),
            "numba_num_threads": None,
            "numba_threading_layer": None,
            "timing": ("real_time = median seconds per call over samples of k back-to-back calls "
                       "after warm-up (the first call compiles); device-array cases timed with "
                       "CUDA events, host and one-element cases with perf_counter and a "
                       "synchronize before stopping the clock"),
        },
    }
    if P.numba is not None:
        ctx["loom_peers"]["numba_num_threads"] = P.numba.config.NUMBA_NUM_THREADS
        try:
            ctx["loom_peers"]["numba_threading_layer"] = P.numba.threading_layer()
        except Exception:
            pass  # no parallel function has run yet
    return {"context": ctx, "benchmarks": results}


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Run loom-bench's cases with NumPy, Numba and CuPy; print "
                    "Google-Benchmark-shaped JSON.")
    ap.add_argument("--small", action="store_true",
                    default=os.environ.get("LOOM_BENCH_SMALL", "0") not in ("", "0"),
                    help="4M instead of 64M elements, sum_row (256,64,256) (as "
                         "LOOM_BENCH_SMALL=1)")
    ap.add_argument("--filter", help="regex; run only the cases whose full name matches")
    ap.add_argument("--threads", type=int,
                    help="NUMBA_NUM_THREADS for numba's parallel target (default: all cores)")
    ap.add_argument("--peers", help="comma-separated subset of: " + ",".join(HOST_PEERS +
                                                                              CUDA_PEERS))
    ap.add_argument("--out", help="write the JSON here instead of stdout")
    ap.add_argument("--list", action="store_true", help="print the case names and exit")
    ap.add_argument("--min-time", type=float, default=0.3,
                    help="seconds of timed calls per case, at least (default 0.3)")
    ap.add_argument("--min-reps", type=int, default=5, help="samples per case, at least")
    ap.add_argument("--max-reps", type=int, default=200, help="samples per case, at most")
    ap.add_argument("--max-time", type=float, default=20.0,
                    help="stop sampling a case after this many seconds (once 3 samples exist)")
    ap.add_argument("--sample-time", type=float, default=2e-3,
                    help="a sample lasts at least this long: short calls are repeated k times")
    ap.add_argument("--warmup", type=int, default=2, help="untimed calls first (>= 1)")
    args = ap.parse_args(argv)
    args.warmup = max(1, args.warmup)
    if args.threads:
        # Read by numba at import, which happens after this.
        os.environ["NUMBA_NUM_THREADS"] = str(args.threads)
    doc = run(args)
    if doc is None:
        return 0
    text = json.dumps(doc, indent=2)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
        log(f"wrote {len(doc['benchmarks'])} results to {args.out}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
