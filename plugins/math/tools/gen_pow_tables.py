# Generates the three 32-entry tables of pow_f32 (plugins/math/f32_kernels.hpp: kPowLnInvC,
# kPowLnCHi, kPowLnCLo): for each of the 32 intervals of z in [0x3f3e0000, +32 << 18) as float
# bits, a float 1/c within 3000 ulp of 1/midpoint such that ln c lies within 2^-38 of a multiple of
# 2^-17 (so k ln2hi + ln c hi is one exact fma), ln c hi that multiple and ln c lo the rest.
# Run: python3 plugins/math/tools/gen_pow_tables.py (mpmath, numpy); it prints each interval's
# choice, the range of r = z/c - 1, and the three C++ arrays.
import mpmath as mp, struct, numpy as np
mp.mp.prec = 200
def f2b(f): return struct.unpack('<I', struct.pack('<f', f))[0]
def b2f(b): return struct.unpack('<f', struct.pack('<I', b))[0]
def fl(x): return float(np.float32(float(x)))
OFF = 0x3f3e0000
Q = mp.mpf(2)**-17
rows = []
rmin = rmax = 0
for i in range(32):
    lo = b2f(OFF + (i << 18)); hi = b2f(OFF + ((i + 1) << 18))  # z in [lo, hi)
    if i == 16:
        rows.append((1.0, 0.0, 0.0)); 
        rmin = min(rmin, lo - 1); rmax = max(rmax, hi - 1); continue
    mid = (mp.mpf(lo) + mp.mpf(hi)) / 2
    ideal = fl(1 / mid)
    b0 = f2b(ideal)
    best = None
    for d in range(-3000, 3001):
        inv = b2f(b0 + d)
        lnc = -mp.log(mp.mpf(inv))
        h = mp.nint(lnc / Q) * Q
        err = abs(lnc - h)
        # prefer small |d| among tiny err
        score = (err > mp.mpf(2)**-38, err if err > mp.mpf(2)**-38 else abs(d))
        if best is None or score < best[0]:
            best = (score, inv, lnc, h, d)
    _, inv, lnc, h, d = best
    lo_part = fl(lnc - h)
    rows.append((inv, float(h), lo_part))
    r1 = float(mp.mpf(lo) * inv - 1); r2 = float(mp.mpf(hi) * inv - 1)
    rmin = min(rmin, r1); rmax = max(rmax, r2)
    print(i, d, float(lnc - h), float(abs(lnc - h - mp.mpf(lo_part))), r1, r2)
print('r range', rmin, rmax)
def fmt(v): return float(v).hex().replace('0000000000p', 'p') if v != 0 else '0x0.0p+0'
def f32hex(v):
    if v == 0: return '0x0.0p+0f'
    m, e = mp.frexp(mp.mpf(v))  # v = m 2^e, m in [0.5,1)
    s = float(v).hex()
    return s + 'f'
print('invc', ', '.join(f32hex(r[0]) for r in rows))
print('lnchi', ', '.join(f32hex(r[1]) for r in rows))
print('lnclo', ', '.join(f32hex(r[2]) for r in rows))

def short(v):
    if v == 0: return '0x0.0p+0f'
    s = float(v).hex()  # e.g. -0x1.5564a00000000p+0
    sign = '-' if s.startswith('-') else ''
    s = s.lstrip('-')
    mant, exp = s[2:].split('p')
    ip, fp = mant.split('.')
    fp = (fp + '000000')[:6]
    return f'{sign}0x{ip}.{fp}p{exp}f'
for name, j in (('kPowLnInvC', 0), ('kPowLnCHi', 1), ('kPowLnCLo', 2)):
    print(f'alignas(64) inline constexpr float {name}[32] = {{' + ', '.join(short(r[j]) for r in rows) + '};')
