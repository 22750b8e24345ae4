// The math plugin's generalized ufuncs (sum_row, dot): functors called once per instance with a
// View per operand, for g++ and nvcc alike. Sums run in an order fixed by the lengths alone.
// (matmul is plugins/linalg's.)
#pragma once
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "functors.hpp"
#include "loom/hd.hpp"
#include "loom/view.hpp"

namespace loom::math {

namespace detail {

// a*b + c, fused wherever the hardware has FMA: written out rather than left to the compiler's
// contraction, so that every loop shape (vectorized or not, contiguous or strided) rounds alike.
template <class T>
LOOM_HD T madd(T a, T b, T c) {
#if defined(__CUDA_ARCH__) || defined(__FMA__)
  if constexpr (std::is_floating_point_v<T>) return std::fma(a, b, c);
#endif
  return add(mul(a, b), c);
}

// x[i] of a vector given by a byte stride; kContig fixes the stride to sizeof(T) at compile time
// so that the contiguous case vectorizes.
template <class T, bool kContig>
struct Vec {
  const char* p;
  std::int64_t s;
  LOOM_HD T operator[](std::int64_t i) const {
    const std::int64_t step = kContig ? static_cast<std::int64_t>(sizeof(T)) : s;
    return *reinterpret_cast<const T*>(p + i * step);
  }
};

// The steps cascade_sum takes: acc + x[i], and acc + x[i] * y[i].
template <class T, class X>
struct SumStep {
  X x;
  LOOM_HD T operator()(T acc, std::int64_t i) const { return add(acc, x[i]); }
};
template <class T, class X, class Y>
struct DotStep {
  X x;
  Y y;
  LOOM_HD T operator()(T acc, std::int64_t i) const { return madd(x[i], y[i], acc); }
};

// cascade_sum's accumulators (kLanes below).
template <class T>
LOOM_HD constexpr std::int64_t cascade_lanes() {
  return sizeof(T) >= 8 ? 16 : 32;
}

// The fold of step(acc, i) over i = 0 .. n-1 from acc = 0, regrouped in an order fixed by n alone:
// blocks of 8 * kLanes terms go to kLanes independent accumulators (so contiguous data vectorizes),
// block results are combined pairwise through a binary counter (error growing with log n, as in
// NumPy's pairwise sum). Strided and contiguous data take the same order, so they give the same
// bits.
template <class T, class Step>
LOOM_HD T cascade_sum(std::int64_t n, const Step& step) {
  constexpr std::int64_t kLanes = cascade_lanes<T>();
  constexpr std::int64_t kBlock = 8 * kLanes;
  T stack[64];
  int top = 0;
  for (std::int64_t base = 0, nb = 0; base < n; base += kBlock, ++nb) {
    const std::int64_t len = n - base < kBlock ? n - base : kBlock;
    T acc[kLanes] = {};
    std::int64_t i = 0;
    for (; i + kLanes <= len; i += kLanes) {
      for (std::int64_t j = 0; j < kLanes; ++j) acc[j] = step(acc[j], base + i + j);
    }
    for (std::int64_t w = kLanes / 2; w > 0; w /= 2) {
      for (std::int64_t j = 0; j < w; ++j) acc[j] = add(acc[j], acc[j + w]);
    }
    T s = acc[0];
    for (; i < len; ++i) s = step(s, base + i);
    for (std::int64_t c = nb; c & 1; c >>= 1) s = add(stack[--top], s);
    stack[top++] = s;
  }
  T total = top > 0 ? stack[--top] : T(0);
  while (top > 0) total = add(stack[--top], total);
  return total;
}

}  // namespace detail

// "(n,m)->(n)": out[i] = sum_j a[i, j].
struct SumRow {
  template <class T>
  LOOM_HD void operator()(View<const T, 2> a, View<T, 1> out) const {
    for (std::int64_t i = 0; i < a.shape[0]; ++i) out(i) = row_sum(a, i);
  }
  // With a team (a warp on CUDA), for large instances: wide rows are split over the members,
  // whose partial sums (each in order) are folded by the team's fixed tree, so that every row
  // is read by neighbouring threads (team_rows); narrow rows go one row to each member.
  template <class T, class Team>
  LOOM_HD void operator()(const Team& team, View<const T, 2> a, View<T, 1> out) const {
    const std::int64_t n = a.shape[0], m = a.shape[1];
    if (m < team.size()) {
      // m < min(size, 2 * lanes), not m < 2 * lanes: the same test as above for a warp, which
      // the compiler folds, so that row_sum's code (and its registers) is left out.
      constexpr std::int64_t kShort = 2 * detail::cascade_lanes<T>();
      const std::int64_t lim = team.size() < kShort ? team.size() : kShort;
      for (std::int64_t i = team.rank(); i < n; i += team.size()) {
        out(i) = m < lim ? short_row_sum(a, i) : row_sum(a, i);
      }
      return;
    }
    // 16-byte loads need rows that start on 16 bytes; other rows take the same order in
    // element loads (the same bits).
    const bool packed = a.strides[1] == static_cast<std::int64_t>(sizeof(T)) &&
                        reinterpret_cast<std::uintptr_t>(a.data) % 16 == 0 &&
                        a.strides[0] % 16 == 0;
    if (packed) {
      team_rows<T, true>(team, a, out);
    } else {
      team_rows<T, false>(team, a, out);
    }
  }

 private:
  // Wide rows. A row is read in chunks of kV * size elements (kV elements: 16 bytes); member r
  // adds, from 0 and in this order, the elements r * kV .. r * kV + kV - 1 of chunk 0, then of
  // chunk 1, and so on (those past the row's end skipped), and the team's tree folds the members'
  // sums. So a member's share of a chunk is one 16-byte load when the row is packed (contiguous,
  // 16-byte aligned) and a warp's loads of a chunk are one contiguous run. Each member loads kSteps
  // chunks of kRows rows before adding any: a warp keeps that many loads in flight, which is
  // what hides the memory's latency when a warp owns a whole instance (a (4096, 64, 256) batch is
  // 31 warps per H100 multiprocessor). Every row has its own accumulator and order, so rows summed
  // kRows at a time or alone, packed or not, give the same bits.
  template <class T>
  static constexpr int kV = sizeof(T) < 16 ? static_cast<int>(16 / sizeof(T)) : 1;
  template <class T>
  struct alignas(16) Pack {
    T v[kV<T>];
  };

  template <class T, bool kPacked>
  LOOM_HD static Pack<T> load(const char* row, std::int64_t s, std::int64_t j) {
    if constexpr (kPacked) {
      return *reinterpret_cast<const Pack<T>*>(row + j * static_cast<std::int64_t>(sizeof(T)));
    } else {
      Pack<T> p;
      for (int q = 0; q < kV<T>; ++q) p.v[q] = *reinterpret_cast<const T*>(row + (j + q) * s);
      return p;
    }
  }

  // Rows i .. i + kR - 1 into out, in the order above.
  template <int kR, class T, bool kPacked, class Team>
  LOOM_HD static void sum_rows(const Team& team, View<const T, 2> a, View<T, 1> out,
                               std::int64_t i) {
    constexpr int kSteps = 2;
    const std::int64_t m = a.shape[1], s = a.strides[1];
    const std::int64_t chunk = kV<T> * static_cast<std::int64_t>(team.size());
    const std::int64_t full = m / chunk;
    const std::int64_t first = kV<T> * static_cast<std::int64_t>(team.rank());
    const char* row[kR];
    T acc[kR];
    for (int r = 0; r < kR; ++r) {
      row[r] = reinterpret_cast<const char*>(a.data) + (i + r) * a.strides[0];
      acc[r] = T(0);
    }
    std::int64_t c = 0;
    for (; c + kSteps <= full; c += kSteps) {
      Pack<T> v[kR][kSteps];
      for (int r = 0; r < kR; ++r) {
        for (int k = 0; k < kSteps; ++k)
          v[r][k] = load<T, kPacked>(row[r], s, (c + k) * chunk + first);
      }
      for (int r = 0; r < kR; ++r) {
        for (int k = 0; k < kSteps; ++k) {
          for (int q = 0; q < kV<T>; ++q) acc[r] = detail::add(acc[r], v[r][k].v[q]);
        }
      }
    }
    for (; c < full; ++c) {
      for (int r = 0; r < kR; ++r) {
        const Pack<T> v = load<T, kPacked>(row[r], s, c * chunk + first);
        for (int q = 0; q < kV<T>; ++q) acc[r] = detail::add(acc[r], v.v[q]);
      }
    }
    for (std::int64_t j = full * chunk + first, q = 0; q < kV<T> && j + q < m; ++q) {
      for (int r = 0; r < kR; ++r)
        acc[r] = detail::add(acc[r], *reinterpret_cast<const T*>(row[r] + (j + q) * s));
    }
    for (int r = 0; r < kR; ++r) acc[r] = team.reduce(acc[r], Add{});
    if (team.rank() == 0) {
      for (int r = 0; r < kR; ++r) out(i + r) = acc[r];
    }
  }

  template <class T, bool kPacked, class Team>
  LOOM_HD static void team_rows(const Team& team, View<const T, 2> a, View<T, 1> out) {
    constexpr int kRows = 4;
    const std::int64_t n = a.shape[0];
    std::int64_t i = 0;
    for (; i + kRows <= n; i += kRows) sum_rows<kRows, T, kPacked>(team, a, out, i);
    for (; i < n; ++i) sum_rows<1, T, kPacked>(team, a, out, i);
  }

  // row_sum's bits for a row shorter than two of cascade_sum's lane sets (in one block): its
  // lanes' fold said outright (lane j's first term is 0 + x[j]; level w adds lane j + w into
  // lane j), then the rest in order. A warp's kernel then does not carry cascade_sum's
  // accumulators, which cost it occupancy.
  template <class T, int W, int kLanes, class X>
  LOOM_HD static T lane_fold(const X& x, std::int64_t j) {
    if constexpr (W == kLanes) {
      return detail::add(T(0), x[j]);
    } else {
      return detail::add(lane_fold<T, 2 * W, kLanes>(x, j), lane_fold<T, 2 * W, kLanes>(x, j + W));
    }
  }
  template <class T>
  LOOM_HD static T short_row_sum(View<const T, 2> a, std::int64_t i) {
    constexpr int kLanes = static_cast<int>(detail::cascade_lanes<T>());
    const std::int64_t m = a.shape[1];
    const detail::Vec<T, false> x{reinterpret_cast<const char*>(a.data) + i * a.strides[0],
                                  a.strides[1]};
    std::int64_t j = 0;
    T acc = T(0);
    if (m >= kLanes) {
      acc = lane_fold<T, 1, kLanes>(x, 0);
      j = kLanes;
    }
    for (; j < m; ++j) acc = detail::add(acc, x[j]);
    return acc;
  }

  template <class T>
  LOOM_HD static T row_sum(View<const T, 2> a, std::int64_t i) {
    const std::int64_t m = a.shape[1], s = a.strides[1];
    const char* row = reinterpret_cast<const char*>(a.data) + i * a.strides[0];
    if (s == static_cast<std::int64_t>(sizeof(T))) {
      return detail::cascade_sum<T>(m, detail::SumStep<T, detail::Vec<T, true>>{{row, s}});
    }
    return detail::cascade_sum<T>(m, detail::SumStep<T, detail::Vec<T, false>>{{row, s}});
  }
};

// "(n),(n)->()": out = sum_i a[i] * b[i].
struct Dot {
  template <class T>
  LOOM_HD void operator()(View<const T, 1> a, View<const T, 1> b, T& out) const {
    using detail::Vec;
    const auto* pa = reinterpret_cast<const char*>(a.data);
    const auto* pb = reinterpret_cast<const char*>(b.data);
    const std::int64_t sa = a.strides[0], sb = b.strides[0], n = a.shape[0];
    if (sa == static_cast<std::int64_t>(sizeof(T)) && sb == sa) {
      out = detail::cascade_sum<T>(
          n, detail::DotStep<T, Vec<T, true>, Vec<T, true>>{{pa, sa}, {pb, sb}});
    } else {
      out = detail::cascade_sum<T>(
          n, detail::DotStep<T, Vec<T, false>, Vec<T, false>>{{pa, sa}, {pb, sb}});
    }
  }
};

}  // namespace loom::math
