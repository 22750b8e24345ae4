# Fits (Lawson's minimax by weighted least squares) the polynomials of pow_f32 and prints their
# float coefficients and errors: P(r) ~ (ln(1 + r) - r + r^2/2) / r^3 on r's range, and
# (e^v - 1 - v) / v^2 for three ranges of v (degree 1 and 2). Run: python3
# plugins/math/tools/fit_pow_polys.py (mpmath, numpy).
import numpy as np, mpmath as mp
mp.mp.prec = 100
def lawson(xs, f, basis, w, iters=200):
    A = np.array([[b(x) for b in basis] for x in xs]); F = np.array([f(x) for x in xs]); W = np.array([w(x) for x in xs])
    u = np.ones(len(xs)) / len(xs)
    for _ in range(iters):
        s = np.sqrt(u)
        c = np.linalg.lstsq(A * (s*W)[:, None], F * s*W, rcond=None)[0]
        e = np.abs((A @ c - F) * W)
        u = u * e; u /= u.sum()
    return c, e.max()
# P(r) = (ln(1+r) - r + r^2/2)/r^3 via series
def P(r): return sum((-1)**(n+1) * r**(n-3) / n for n in range(3, 30))
xs = np.linspace(-0.0151, 0.0157, 4001)
c, e = lawson(xs, P, [lambda x: 1, lambda x: x, lambda x: x*x], lambda x: x*x)
cf = [float(np.float32(v)) for v in c]
ef = max(abs((cf[0] + cf[1]*x + cf[2]*x*x - P(x)) * x*x) for x in xs)
print('P', [v.hex() for v in cf], 'err r^2 dP', np.log2(e), 'float coeffs', np.log2(ef))
# e^v - 1 = v + v^2 (c2 + c3 v)
def E(v): return sum(v**(n-2) / float(mp.factorial(n)) for n in range(2, 20))
for V in (0.0108, 0.018, 0.0325):
    xs = np.linspace(-V, V, 4001)
    c, e = lawson(xs, E, [lambda x: 1, lambda x: x], lambda x: x*x)
    cf = [float(np.float32(v)) for v in c]
    ef = max(abs((cf[0] + cf[1]*x - E(x)) * x*x) for x in xs)
    c4, e4 = lawson(xs, E, [lambda x: 1, lambda x: x, lambda x: x*x], lambda x: x*x)
    print('E', V, [v.hex() for v in cf], np.log2(e), np.log2(ef), 'deg4', [float(np.float32(v)).hex() for v in c4], np.log2(e4))
