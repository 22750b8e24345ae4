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
    if (a.strides[1] == static_cast<std::int64_t>(sizeof(T))) {
      team_rows<T, true>(team, a, out);
    } else {
      team_rows<T, false>(team, a, out);
    }
  }

 private:
  // Wide rows, kRows at a time, each member loading kSteps of its elements of every one of them
  // before adding any: a warp keeps kRows * kSteps loads in flight instead of one row's few,
  // which is what hides the memory's latency when a warp owns a whole instance (a (4096, 64, 256)
  // batch is 31 warps per H100 multiprocessor). Each row keeps its own accumulator and its own
  // order (member r adds a(i, r), a(i, r + size), ... from 0, then the team's tree folds the
  // members' sums): the bits are those of one row at a time.
  template <class T, bool kContig, class Team>
  LOOM_HD static void team_rows(const Team& team, View<const T, 2> a, View<T, 1> out) {
    using Row = detail::Vec<T, kContig>;
    constexpr int kRows = 4;
    constexpr int kSteps = sizeof(T) >= 8 ? 4 : 8;
    const std::int64_t n = a.shape[0], m = a.shape[1], s = a.strides[1];
    const std::int64_t size = team.size();
    const char* base = reinterpret_cast<const char*>(a.data);
    std::int64_t i = 0;
    for (; i + kRows <= n; i += kRows) {
      Row row[kRows];
      T acc[kRows];
      for (int r = 0; r < kRows; ++r) {
        row[r] = Row{base + (i + r) * a.strides[0], s};
        acc[r] = T(0);
      }
      std::int64_t j = team.rank();
      for (; j + (kSteps - 1) * size < m; j += kSteps * size) {
        T v[kRows][kSteps];
        for (int r = 0; r < kRows; ++r) {
          for (int k = 0; k < kSteps; ++k) v[r][k] = row[r][j + k * size];
        }
        for (int r = 0; r < kRows; ++r) {
          for (int k = 0; k < kSteps; ++k) acc[r] = detail::add(acc[r], v[r][k]);
        }
      }
      for (; j < m; j += size) {
        for (int r = 0; r < kRows; ++r) acc[r] = detail::add(acc[r], row[r][j]);
      }
      for (int r = 0; r < kRows; ++r) acc[r] = team.reduce(acc[r], Add{});
      if (team.rank() == 0) {
        for (int r = 0; r < kRows; ++r) out(i + r) = acc[r];
      }
    }
    for (; i < n; ++i) {
      const Row row{base + i * a.strides[0], s};
      T acc = T(0);
      for (std::int64_t j = team.rank(); j < m; j += size) acc = detail::add(acc, row[j]);
      acc = team.reduce(acc, Add{});
      if (team.rank() == 0) out(i) = acc;
    }
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
